package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/progress"
	"github.com/nqueens/nqueens/report"
)

// progressFromN is the smallest n whose count shows progress.
const progressFromN = 15

func (a *app) countCmd() *cobra.Command {
	var asJSON, combine, estimate bool
	var engine string
	cmd := &cobra.Command{Use: "count N-LIST", Short: "Count solutions and classes by search alone, no catalog needed",
		Args: minArgs(1, "a list of n such as 16, 4-12 or 1,5,9"),
		RunE: func(cmd *cobra.Command, args []string) error {
			shard, err := shardFlag(cmd)
			if err != nil {
				return err
			}
			switch sharded := combine || !shard.IsWhole(); {
			case engine != "constellations" && engine != "classes":
				err = fmt.Errorf("--engine %s: want constellations or classes", quote(engine))
			case engine == "classes" && sharded:
				err = errors.New("--shard and --combine count by constellations: leave out --engine classes")
			case estimate && sharded:
				err = errors.New("--estimate estimates a whole count: leave out --shard and --combine")
			case estimate && engine == "classes":
				err = errors.New("--estimate estimates the count by constellations: leave out --engine classes")
			case combine && !shard.IsWhole():
				err = errors.New("--combine and --shard do not go together")
			}
			if err != nil {
				return usageError{fmt.Errorf("count: %w", err)}
			} else if combine {
				return a.countCombine(cmd.Context(), args, asJSON)
			}
			ns, err := nArgs(args)
			switch {
			case err != nil:
				return err
			case !shard.IsWhole() && len(ns) != 1:
				return usageError{fmt.Errorf("count --shard: want one n, got %d", len(ns))}
			case !shard.IsWhole():
				return a.countShard(cmd.Context(), ns[0], shard)
			case estimate:
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
			return report.Counts(a.stdout, results, asJSON)
		},
	}
	jsonFlag(&asJSON, cmd)
	cmd.Flags().String("shard", "", "count only shard I of K (I/K, I from 0; or auto/K from the job index)")
	cmd.Flags().BoolVar(&combine, "combine", false, "combine the files of count --shard given as arguments")
	cmd.Flags().BoolVar(&estimate, "estimate", false, "print how long each count would take, without counting")
	cmd.Flags().StringVar(&engine, "engine", "constellations", "constellations, or classes (the class search, to check)")
	return cmd
}

// countOptions returns the options of a count of n with the configured
// workers and, for n of progressFromN and above, a meter called label;
// the caller calls done when the count returns.
func (a *app) countOptions(label string, n int) (o count.Options, done func()) {
	m := progress.Nop
	o = count.Options{Workers: a.cfg.Workers}
	if n >= progressFromN {
		o.Start = func(units int) { m = a.progress(label, 0, int64(units), "work units") }
		o.Progress = func() { m.Add(1) }
	}
	return o, func() { m.Done() }
}
