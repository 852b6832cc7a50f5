package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/store"
)

// stats prints the builds of ns (of every n, if ns is empty), then says
// on stderr, a line each, which of ns the catalog lacks and how to build
// it; the error that follows counts them.
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
	if asJSON {
		err = writeJSON(a.stdout, builds)
	} else {
		err = writeBuilds(a.stdout, builds)
	}
	missing := 0
	for _, n := range ns {
		if !slices.ContainsFunc(builds, func(b store.Build) bool { return b.N == n }) {
			// The one line that names n: not progress, so even with
			// --quiet.
			missing++
			fmt.Fprintf(a.stderr, "n=%d is not in the catalog %s: %s\n", n, db.Path(), a.buildAdvice(ctx, n))
		}
	}
	if err == nil && missing > 0 {
		// Asked for by name: a missing n is a failure scripts can see.
		verb := "is"
		if missing > 1 {
			verb = "are"
		}
		err = fmt.Errorf("%d of %d n %s not in the catalog", missing, len(ns), verb)
	}
	return err
}

func (a *app) statsCmd() *cobra.Command {
	var asJSON bool
	cmd := jsonFlag(&asJSON, nsCommand("stats [N-LIST...]", "Show what the catalog holds, one row per n", "", func(cmd *cobra.Command, ns []int) error {
		return a.stats(cmd.Context(), ns, asJSON)
	}))
	cmd.ValidArgsFunction = a.completeBuilt(false)
	return cmd
}
