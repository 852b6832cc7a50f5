package main

import (
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
)

func (a *app) countCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "count N-LIST",
		Short: "Count solutions and classes by search alone, no catalog needed",
		Long: `Count searches each n of the list (1 to 32) for its classes of solutions and
prints the total and unique counts with the classes by orbit size. It reads and
writes no catalog. n above 17 takes minutes to hours.`,
		Example: "  nqueens count 16\n  nqueens count 1-12 --json",
		Args:    minArgs(1, "a list of n such as 16, 4-12 or 1,5,9"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ns, err := nArgs(args)
			if err != nil {
				return err
			}
			var results []countJSON
			for _, n := range ns {
				start := time.Now()
				c, err := canonical.Count(cmd.Context(), n, a.cfg.Workers)
				if err != nil {
					return fmt.Errorf("count n=%d: interrupted", n)
				}
				results = append(results, countJSON{N: n, Counts: c, Seconds: time.Since(start).Seconds()})
			}
			if asJSON {
				return writeJSON(a.stdout, results)
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(tw, "n\ttotal\tunique\torbit8\torbit4\torbit2\tseconds\t")
			for _, r := range results {
				fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t%d\t%.3f\t\n", r.N, r.Total, r.Unique, r.Orbit8, r.Orbit4, r.Orbit2+r.Orbit1, r.Seconds)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array of objects")
	return cmd
}

// countJSON is the shape of one object of count --json.
type countJSON struct {
	N int `json:"n"`
	nqueens.Counts
	Seconds float64 `json:"seconds"`
}
