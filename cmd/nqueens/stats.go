package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/store"
)

func (a *app) statsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "Show what the catalog holds, one row per n",
		Args:  exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := store.Open(cmd.Context(), a.cfg.DB, store.Options{ReadOnly: true})
			if err != nil {
				return err
			}
			defer db.Close()
			builds, err := db.Builds(cmd.Context())
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a.stdout, statsJSON(builds))
			}
			return writeBuildTable(a.stdout, builds)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array of objects")
	return cmd
}

// buildJSON is the shape of one object of stats --json.
type buildJSON struct {
	N          int     `json:"n"`
	Total      uint64  `json:"total"`
	Unique     uint64  `json:"unique"`
	Orbit8     uint64  `json:"orbit8"`
	Orbit4     uint64  `json:"orbit4"`
	Orbit2     uint64  `json:"orbit2"`
	Orbit1     uint64  `json:"orbit1"`
	Complete   bool    `json:"complete"`
	UnitsDone  int     `json:"units_done"`
	UnitsTotal int     `json:"units_total"`
	StartedAt  string  `json:"started_at"`
	FinishedAt string  `json:"finished_at,omitempty"`
	Seconds    float64 `json:"seconds"`
	// Shard is set for a shard build (build --shard): which of how many.
	Shard *store.Shard `json:"shard,omitempty"`
}

func statsJSON(builds []store.Build) []buildJSON {
	out := make([]buildJSON, 0, len(builds))
	for _, b := range builds {
		j := buildJSON{N: b.N, Total: b.Total, Unique: b.Unique, Orbit8: b.Orbit8, Orbit4: b.Orbit4,
			Orbit2: b.Orbit2, Orbit1: b.Orbit1, Complete: b.Complete, UnitsDone: b.UnitsDone,
			UnitsTotal: b.UnitsTotal, StartedAt: b.StartedAt.Format(timeFormat), Seconds: b.Seconds}
		if !b.FinishedAt.IsZero() {
			j.FinishedAt = b.FinishedAt.Format(timeFormat)
		}
		if !b.Shard.IsWhole() {
			j.Shard = &b.Shard
		}
		out = append(out, j)
	}
	return out
}

const timeFormat = "2006-01-02T15:04:05Z07:00"

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeBuildTable writes builds as an aligned table.
func writeBuildTable(w io.Writer, builds []store.Build) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "n\ttotal\tunique\torbit8\torbit4\torbit2\tcomplete\tseconds\t")
	for _, b := range builds {
		complete := "yes"
		if !b.Complete {
			complete = fmt.Sprintf("no (%d/%d)", b.UnitsDone, b.UnitsTotal)
		}
		if !b.Shard.IsWhole() {
			complete = "shard " + b.Shard.String() + ": " + complete
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t%d\t%s\t%.2f\t\n", b.N, b.Total, b.Unique, b.Orbit8, b.Orbit4, b.Orbit2+b.Orbit1, complete, b.Seconds)
	}
	return tw.Flush()
}
