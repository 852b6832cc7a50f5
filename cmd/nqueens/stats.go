package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/store"
)

func (a *app) statsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "stats [N-LIST...]",
		Short: "Show what the catalog holds, one row per n",
		RunE: func(cmd *cobra.Command, args []string) error {
			ns, err := nArgs(args)
			if err != nil {
				return err
			}
			db, err := store.Open(cmd.Context(), a.cfg.DB, store.Options{ReadOnly: true})
			if err != nil {
				return err
			}
			defer db.Close()
			builds, err := db.Builds(cmd.Context())
			if err != nil {
				return err
			}
			if len(ns) > 0 {
				builds = slices.DeleteFunc(builds, func(b store.Build) bool { return !slices.Contains(ns, b.N) })
				for _, n := range ns {
					if !slices.ContainsFunc(builds, func(b store.Build) bool { return b.N == n }) {
						a.logf("n=%d is not in the catalog %s (nqueens build %d makes it)", n, db.Path(), n)
					}
				}
			}
			if asJSON {
				return writeJSON(a.stdout, builds)
			}
			return writeBuildTable(a.stdout, builds)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array of objects")
	return cmd
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeBuildTable writes builds as an aligned table.
func writeBuildTable(w io.Writer, builds []store.Build) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "n\ttotal\tunique\torbit8\torbit4\torbit2\torbit1\tcomplete\tseconds\t")
	for _, b := range builds {
		complete := "yes"
		if !b.Complete {
			complete = fmt.Sprintf("no (%d/%d)", b.UnitsDone, b.UnitsTotal)
		}
		if !b.Shard.IsWhole() {
			complete = "shard " + b.Shard.String() + ": " + complete
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%.2f\t\n", b.N, b.Total, b.Unique, b.Orbit8, b.Orbit4, b.Orbit2, b.Orbit1, complete, b.Seconds)
	}
	return tw.Flush()
}
