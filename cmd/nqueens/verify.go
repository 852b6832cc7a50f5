package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
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
			writeReport(a.stdout, r)
		}
	}
	if err != nil {
		return err
	}
	if asJSON {
		if err := writeJSON(a.stdout, reports); err != nil {
			return err
		}
	}
	return verify.Summary(reports)
}

// writeReport writes the lines of verify's text output for r.
func writeReport(w io.Writer, r verify.Report) {
	switch {
	case r.N == 0:
		for _, p := range r.Problems {
			fmt.Fprintf(w, "catalog MISMATCH: %s\n", p)
		}
		return
	case r.OK && r.Shard != nil:
		fmt.Fprintf(w, "n=%d shard %s ok: %s in %s (a shard: the published counts apply once merged)\n", r.N, r.Shard, nqueens.Plural(r.Total, "solution"), nqueens.Plural(r.Unique, "class"))
	case r.OK:
		fmt.Fprintf(w, "n=%d ok: %s in %s\n", r.N, nqueens.Plural(r.Total, "solution"), nqueens.Plural(r.Unique, "class"))
	}
	for _, p := range r.Problems {
		fmt.Fprintf(w, "n=%d MISMATCH: %s\n", r.N, p)
	}
}
