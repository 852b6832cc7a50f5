package main

import (
	"context"
	"slices"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/report"
	"github.com/nqueens/nqueens/store"
)

// stats prints the builds of ns (of every n, if ns is empty), saying on
// stderr which of ns the catalog lacks.
func (a *app) stats(ctx context.Context, ns []int, asJSON bool) error {
	db, err := a.open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	builds, err := db.Builds(ctx)
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
}

func (a *app) statsCmd() *cobra.Command {
	var asJSON bool
	return jsonFlag(&asJSON, nsCommand("stats [N-LIST...]", "Show what the catalog holds, one row per n", "", func(cmd *cobra.Command, ns []int) error {
		return a.stats(cmd.Context(), ns, asJSON)
	}))
}
