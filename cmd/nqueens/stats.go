package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

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
	var missing []string
	for _, n := range ns {
		if !slices.ContainsFunc(builds, func(b store.Build) bool { return b.N == n }) {
			missing = append(missing, strconv.Itoa(n))
			a.logf("n=%d is not in the catalog %s: %s", n, db.Path(), a.buildAdvice(ctx, n))
		}
	}
	if asJSON {
		err = writeJSON(a.stdout, builds)
	} else {
		err = writeBuilds(a.stdout, builds)
	}
	if err == nil && len(missing) > 0 {
		// Asked for by name: a missing n is a failure scripts can see.
		err = fmt.Errorf("not in the catalog: n=%s", strings.Join(missing, ", "))
	}
	return err
}

func (a *app) statsCmd() *cobra.Command {
	var asJSON bool
	return jsonFlag(&asJSON, nsCommand("stats [N-LIST...]", "Show what the catalog holds, one row per n", "", func(cmd *cobra.Command, ns []int) error {
		return a.stats(cmd.Context(), ns, asJSON)
	}))
}
