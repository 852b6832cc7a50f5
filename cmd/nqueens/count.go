package main

import (
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/count"
)

func (a *app) countCmd() *cobra.Command {
	var asJSON, combineParts, estimate bool
	var engine string
	cmd := &cobra.Command{
		Use:   "count N-LIST",
		Short: "Count solutions and classes by search alone, no catalog needed",
		Long: `Count counts the solutions of each n of the list (1 to 32) by search alone
and prints the total and unique counts with the classes by orbit size. It reads
and writes no catalog. On 2 cores n = 17 takes about 4 seconds, n = 18 half a
minute, and each n above about 7 times the one before.

It counts by constellations: the queens of the border lines, one orbit of them
at a time. --engine classes counts with build's search for canonical classes
instead, about 1.4 times slower: an independent check of the same numbers.

With --shard I/K it counts only shard I (from 0) of K disjoint slices of the
work of one n, balanced by estimated cost, and prints the partial result as
one line of JSON; --shard auto/K takes I from JOB_COMPLETION_INDEX (a
Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID (a Slurm job array). With
--combine the arguments are such results, one file each: count checks that
they are the K shards of one n, each once, and prints the combined counts.

With --estimate it searches nothing and prints how long each count would
take on this machine with --workers goroutines: the search-tree nodes that
Knuth's estimator predicts, at the rate of a calibration search of 0.2 s
(under a second for any n). Before a count it estimates at over a
minute, count prints the estimate on stderr (unless --quiet).

` + orbitHelp,
		Example: "  nqueens count 16\n  nqueens count 1-12 --json\n  nqueens count 25 --estimate\n  nqueens count 16 --engine classes\n" +
			"  nqueens count 17 --shard 3/8 > part-3.json\n  nqueens count --combine part-*.json",
		Args: minArgs(1, "a list of n such as 16, 4-12 or 1,5,9"),
		RunE: func(cmd *cobra.Command, args []string) error {
			shard, err := shardFlag(cmd)
			if err != nil {
				return err
			}
			switch {
			case engine != "constellations" && engine != "classes":
				return usageError{fmt.Errorf("count: --engine %s: want constellations or classes", quote(engine))}
			case engine == "classes" && (combineParts || !shard.IsWhole()):
				return usageError{errors.New("count: --shard and --combine count by constellations: leave out --engine classes")}
			case estimate && (combineParts || !shard.IsWhole()):
				return usageError{errors.New("count: --estimate estimates a whole count: leave out --shard and --combine")}
			case estimate && engine == "classes":
				return usageError{errors.New("count: --estimate estimates the count by constellations: leave out --engine classes")}
			}
			if combineParts {
				if !shard.IsWhole() {
					return usageError{errors.New("count: --combine and --shard do not go together")}
				}
				return a.countCombine(cmd.Context(), args, asJSON)
			}
			ns, err := nArgs(args)
			if err != nil {
				return err
			}
			if !shard.IsWhole() {
				if len(ns) != 1 {
					return usageError{fmt.Errorf("count --shard: want one n, got %d", len(ns))}
				}
				return a.countShard(cmd.Context(), ns[0], shard)
			}
			if estimate {
				return a.countEstimate(cmd.Context(), ns, asJSON)
			}
			var results []count.Result
			for _, n := range ns {
				if engine != "classes" {
					if err := a.warnLong(cmd.Context(), n); err != nil {
						return err
					}
				}
				start := time.Now()
				o, done := a.countOptions(fmt.Sprintf("count n=%d", n), n)
				o.Classes = engine == "classes"
				c, err := count.Board(cmd.Context(), n, o)
				done()
				if cmd.Context().Err() != nil {
					return fmt.Errorf("count n=%d: interrupted", n)
				} else if err != nil {
					return err
				}
				results = append(results, count.Result{N: n, Counts: c, Seconds: time.Since(start).Seconds()})
			}
			return writeCounts(a.stdout, results, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array of objects")
	cmd.Flags().String("shard", "", "count only shard I of K (I/K, I from 0; or auto/K from the job index)")
	cmd.Flags().BoolVar(&combineParts, "combine", false, "combine the files of count --shard given as arguments")
	cmd.Flags().BoolVar(&estimate, "estimate", false, "print how long each count would take, without counting")
	cmd.Flags().StringVar(&engine, "engine", "constellations", "constellations, or classes (the class search, to check)")
	return cmd
}

// progressFromN is the smallest n whose count shows progress.
const progressFromN = 15

// countOptions returns the options of a count of n with the configured
// workers and, for n of progressFromN and above, a meter called label;
// the caller calls done when the count returns.
func (a *app) countOptions(label string, n int) (o count.Options, done func()) {
	var m meter = nopMeter{}
	o = count.Options{Workers: a.cfg.Workers}
	if n >= progressFromN {
		o.Start = func(units int) { m = a.progress(label, 0, int64(units), "work units") }
		o.Progress = func() { m.Add(1) }
	}
	return o, func() { m.Done() }
}

// writeCounts prints count results as a table or, with asJSON, a JSON
// array.
func writeCounts(w io.Writer, results []count.Result, asJSON bool) error {
	if asJSON {
		return writeJSON(w, results)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "n\ttotal\tunique\torbit8\torbit4\torbit2\torbit1\tseconds\t")
	for _, r := range results {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.3f\t\n", r.N, r.Total, r.Unique, r.Orbit8, r.Orbit4, r.Orbit2, r.Orbit1, r.Seconds)
	}
	return tw.Flush()
}
