package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/count/parts"
	"github.com/nqueens/nqueens/report"
)

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
