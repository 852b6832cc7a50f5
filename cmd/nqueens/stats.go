package main

import (
	"slices"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/report"
	"github.com/nqueens/nqueens/store"
)

func (a *app) statsCmd() *cobra.Command {
	var asJSON bool
	cmd := nsCommand("stats [N-LIST...]", "Show what the catalog holds, one row per n", "", func(cmd *cobra.Command, ns []int) error {
		db, err := store.Open(cmd.Context(), a.cfg.DB, store.Options{ReadOnly: true})
		if err != nil {
			return err
		}
		defer db.Close()
		builds, err := db.Builds(cmd.Context())
		if err != nil {
			return err
		} else if len(ns) > 0 {
			builds = slices.DeleteFunc(builds, func(b store.Build) bool { return !slices.Contains(ns, b.N) })
		}
		for _, n := range ns {
			if !slices.ContainsFunc(builds, func(b store.Build) bool { return b.N == n }) {
				a.logf("n=%d is not in the catalog %s (nqueens build %d makes it)", n, db.Path(), n)
			}
		}
		if asJSON {
			return report.JSON(a.stdout, builds)
		}
		return report.Builds(a.stdout, builds)
	})
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array of objects")
	return cmd
}
