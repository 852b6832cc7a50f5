package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/nqueens/nqueens/count/estimate"
	"github.com/nqueens/nqueens/report"
)

// countEstimate prints the estimate of counting each n of ns, as text or,
// with asJSON, a JSON array; it searches only the calibration sample.
func (a *app) countEstimate(ctx context.Context, ns []int, asJSON bool) error {
	r, err := a.rate(ctx)
	if err != nil {
		return err
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
// take if it is long (estimate.Result.Long). It measures the rate only
// when the count could be long on a slow machine (estimate.MinRate), so
// counts of a few seconds start at once; and it estimates nothing for an
// n that cannot be long (estimate.Short), where the estimate alone would
// cost a sixth of the count.
func (a *app) warnLong(ctx context.Context, n int) error {
	if a.cfg.Quiet || n < progressFromN || estimate.Short(n) {
		return nil
	}
	e := estimate.MinRate(a.cfg.Workers).For(n)
	if !e.Long() {
		return nil
	}
	r, err := a.rate(ctx)
	if err != nil {
		return err
	}
	if e = e.At(r); e.Long() {
		fmt.Fprintf(a.stderr, "count %d: %s; --shard splits it\n", n, e.Time())
	}
	return nil
}

// rate returns this machine's search rate with the configured workers,
// measured on the first call (estimate.MeasureRate).
func (a *app) rate(ctx context.Context) (estimate.Rate, error) {
	if a.measured == nil {
		r, err := estimate.MeasureRate(ctx, a.cfg.Workers)
		switch {
		case ctx.Err() != nil:
			return r, errors.New("count: interrupted while measuring the search rate")
		case err != nil:
			return r, fmt.Errorf("count: %w", err)
		}
		a.measured = &r
	}
	return *a.measured, nil
}
