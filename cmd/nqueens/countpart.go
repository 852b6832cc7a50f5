package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/count/parts"
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
		n, s, p.Units, p.UnitsTotal, plural(p.Total, "solution"), p.Seconds, p.SearchSeconds)
	return writeJSONLine(a.stdout, p)
}

// writeJSONLine writes v as compact JSON and a newline.
func writeJSONLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// combine reads the parts of count --shard from files and returns their
// combined counts (parts.Combine) and how many shards they are.
func combine(ctx context.Context, files []string, workers int) (count.Result, int, error) {
	var ps []parts.Part
	for _, f := range files {
		data, err := readSmall(ctx, f, parts.MaxSize)
		var pe *fs.PathError
		switch {
		case ctx.Err() != nil:
			return count.Result{}, 0, fmt.Errorf("combine: interrupted while reading %s", f)
		case errors.As(err, &pe):
			return count.Result{}, 0, fmt.Errorf("combine: %w", err)
		case err != nil:
			return count.Result{}, 0, fmt.Errorf("combine: %s: %w", f, err)
		}
		p, err := parts.Read(data)
		switch {
		case errors.Is(err, parts.ErrOtherVersion):
			// Parts of versions before constellations carried class counts.
			return count.Result{}, 0, fmt.Errorf("combine: %s is not the output of this version's count --shard (%v): made by another version?", f, err)
		case errors.Is(err, parts.ErrMoreThanOne):
			return count.Result{}, 0, fmt.Errorf("combine: %s holds more than one result of count --shard", f)
		case errors.Is(err, parts.ErrOutOfRange):
			return count.Result{}, 0, fmt.Errorf("combine: %s: %w", f, err)
		case err != nil:
			return count.Result{}, 0, fmt.Errorf("combine: %s is not the output of count --shard: %v", f, err)
		}
		ps = append(ps, p)
	}
	c, err := parts.Combine(ctx, ps, files, workers)
	switch {
	case ctx.Err() != nil:
		return count.Result{}, 0, fmt.Errorf("combine n=%d: interrupted", ps[0].N)
	case errors.Is(err, parts.ErrAltered):
		return count.Result{}, 0, fmt.Errorf("%w: %v", errMismatch, err)
	case err != nil:
		return count.Result{}, 0, fmt.Errorf("combine: %w", err)
	}
	return c, len(ps), nil
}

// countCombine prints the combined counts of the partial results in
// files, and fails if they differ from the published counts.
func (a *app) countCombine(ctx context.Context, files []string, asJSON bool) error {
	if len(files) == 0 {
		return usageError{errors.New("count --combine: want the files count --shard wrote, e.g. part-*.json")}
	}
	c, k, err := combine(ctx, files, a.cfg.Workers)
	if err != nil {
		return err
	}
	if err := writeCounts(a.stdout, []count.Result{c}, asJSON); err != nil {
		return err
	}
	if known, ok := nqueens.KnownCounts(c.N); ok {
		if known.Total != c.Total || known.Unique != c.Unique {
			return fmt.Errorf("%w: n=%d: the %d shards add up to total %d, unique %d; OEIS A000170/A002562 say %d, %d",
				errMismatch, c.N, k, c.Total, c.Unique, known.Total, known.Unique)
		}
		a.logf("n=%d: %s combined; the counts match OEIS A000170 and A002562", c.N, plural(k, "shard"))
	}
	return nil
}
