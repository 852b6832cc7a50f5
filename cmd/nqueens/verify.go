package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/verify"
)

func (a *app) verifyCmd() *cobra.Command {
	var asJSON bool
	var sample int
	cmd := jsonFlag(&asJSON, nsCommand("verify [N-LIST...]", "Re-check the catalog and exit 3 on any mismatch", "", func(cmd *cobra.Command, ns []int) error {
		if sample < 0 {
			return usageError{fmt.Errorf("--sample must be 0 (every prefix) or more, got %d", sample)}
		}
		db, err := a.open(cmd.Context())
		if err != nil {
			return err
		}
		defer db.Close()
		reports, err := verify.Options{Sample: sample, Workers: a.cfg.Workers}.Catalog(cmd.Context(), db, ns)
		switch {
		case !asJSON:
			for _, r := range reports {
				writeVerify(a.stdout, r)
			}
		case err == nil:
			err = writeJSON(a.stdout, reports)
		}
		if err != nil {
			return err
		}
		return verify.Summary(reports)
	}))
	cmd.Flags().IntVar(&sample, "sample", 0, "of an n built as an index, re-search only this many prefixes, drawn at random (0: all)")
	return cmd
}
