package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/report"
	"github.com/nqueens/nqueens/store"
	"github.com/nqueens/nqueens/verify"
)

func (a *app) verifyCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "verify [N-LIST...]",
		Short: "Re-check the catalog and exit 3 on any mismatch",
		RunE: func(cmd *cobra.Command, args []string) error {
			ns, err := nArgs(args)
			if err != nil {
				return err
			}
			return a.verify(cmd.Context(), ns, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array of objects")
	return cmd
}

func (a *app) verify(ctx context.Context, ns []int, asJSON bool) error {
	db, err := store.Open(ctx, a.cfg.DB, store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer db.Close()
	reports, err := verify.Catalog(ctx, db, ns)
	for _, r := range reports {
		if !asJSON {
			report.Verify(a.stdout, r)
		}
	}
	if err != nil {
		return err
	}
	if asJSON {
		if err := report.JSON(a.stdout, reports); err != nil {
			return err
		}
	}
	return verify.Summary(reports)
}
