package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/count/estimate"
	"github.com/nqueens/nqueens/count/parts"
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

// countEstimate prints the estimate of counting each n of ns, as text or,
// with asJSON, a JSON array; it searches only the calibration sample.
func (a *app) countEstimate(ctx context.Context, ns []int, asJSON bool) error {
	r, err := a.estimator().Rate(ctx)
	if err != nil || ctx.Err() != nil {
		return rateError(ctx, err)
	}
	var out []estimate.Result
	for _, n := range ns {
		e := r.For(n)
		out = append(out, e)
		if !asJSON {
			fmt.Fprintf(a.stdout, "count %d: %s\n", n, e)
		}
	}
	if asJSON {
		return report.JSON(a.stdout, out)
	}
	return nil
}

// warnLong writes to stderr, unless --quiet, how long counting n will
// take if it is long (estimate.Estimator.Long).
func (a *app) warnLong(ctx context.Context, n int) error {
	if a.cfg.Quiet {
		return nil
	}
	e, long, err := a.estimator().Long(ctx, n)
	if err != nil {
		return rateError(ctx, err)
	} else if long {
		fmt.Fprintf(a.stderr, "count %d: %s; --shard splits it\n", n, e.Time())
	}
	return nil
}

// estimator returns the estimator of counts with the configured workers,
// which measures this machine's rate once, when first needed.
func (a *app) estimator() *estimate.Estimator {
	if a.est == nil {
		a.est = &estimate.Estimator{Workers: a.cfg.Workers}
	}
	return a.est
}

// rateError words an error of measuring the search rate.
func rateError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return errors.New("count: interrupted while measuring the search rate")
	}
	return fmt.Errorf("count: %w", err)
}

// countShard counts one shard of n and prints its part as JSON.
func (a *app) countShard(ctx context.Context, n int, s nqueens.Shard) error {
	o, done := a.countOptions(fmt.Sprintf("count n=%d%s", n, shardSuffix(s)), n)
	p, err := parts.Make(ctx, n, s, o)
	done()
	switch {
	case errors.Is(err, count.ErrNoShard):
		return usageError{err}
	case ctx.Err() != nil:
		return fmt.Errorf("count n=%d%s: interrupted", n, shardSuffix(s))
	case err != nil:
		return err
	}
	a.logf("n=%d shard %s: %d of %d work units, %s, %.3fs (search %.3fs)",
		n, s, p.Units, p.UnitsTotal, nqueens.Plural(p.Total, "solution"), p.Seconds, p.SearchSeconds)
	return report.JSONLine(a.stdout, p)
}

// countCombine prints the combined counts of the partial results in
// files, and fails if they differ from the published counts.
func (a *app) countCombine(ctx context.Context, files []string, asJSON bool) error {
	if len(files) == 0 {
		return usageError{errors.New("count --combine: want the files count --shard wrote, e.g. part-*.json")}
	}
	c, k, err := parts.CombineFiles(ctx, files, a.cfg.Workers)
	if errors.Is(err, parts.ErrAltered) {
		return fmt.Errorf("%w: %v", errMismatch, err)
	} else if err != nil {
		return err
	}
	if err := report.Counts(a.stdout, []count.Result{c}, asJSON); err != nil {
		return err
	}
	if _, ok := nqueens.KnownCounts(c.N); ok {
		a.logf("n=%d: %s combined; the counts match OEIS A000170 and A002562", c.N, nqueens.Plural(k, "shard"))
	}
	return nil
}
