package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/count"
)

// partJSON is the shape of count --shard's output: the solutions of one
// shard. A shard's classes are not whole (a class's solutions lie in
// several constellations), so --combine derives them for the whole board.
type partJSON struct {
	N          int `json:"n"`
	Shards     int `json:"shards"`
	Shard      int `json:"shard"`
	UnitsTotal int `json:"units_total"`
	// Units is how many work units (constellations) the shard covered,
	// UnitsDigest a SHA-256 of their indexes (see unitsDigest), which
	// --combine checks against the split it computes, keeping the result
	// small.
	Units       int    `json:"units"`
	UnitsDigest string `json:"units_digest"`
	// Total is the number of solutions in the orbits of the shard's
	// constellations.
	Total uint64 `json:"total"`
	// Seconds is the wall time of the whole run, SearchSeconds that of the
	// search alone, without splitting the work into shards.
	Seconds       float64 `json:"seconds"`
	SearchSeconds float64 `json:"search_seconds"`
}

// countShard counts one shard of n and prints its partial result as JSON.
func (a *app) countShard(ctx context.Context, n int, s nqueens.Shard) error {
	start := time.Now()
	cs, idx, err := count.ShardConstellations(n, s.Index, s.Count)
	if err != nil {
		return usageError{fmt.Errorf("n=%d: %w", n, err)}
	}
	search := time.Now()
	total, err := a.countConstellations(ctx, n, shardSuffix(s), cs)
	if err != nil {
		return err
	}
	p := partJSON{N: n, Shards: s.Count, Shard: s.Index, UnitsTotal: len(count.Constellations(n)),
		Units: len(idx), UnitsDigest: unitsDigest(idx), Total: total, Seconds: time.Since(start).Seconds(), SearchSeconds: time.Since(search).Seconds()}
	a.logf("n=%d shard %s: %d of %d work units, %s, %.3fs (search %.3fs)",
		n, s, len(idx), p.UnitsTotal, plural(total, "solution"), p.Seconds, p.SearchSeconds)
	return writeJSONLine(a.stdout, p)
}

// unitsDigest returns "sha256:" and the hex SHA-256 of the unit indexes
// written in decimal, each followed by a newline.
func unitsDigest(idx []int) string {
	h := sha256.New()
	var buf []byte
	for _, i := range idx {
		buf = strconv.AppendInt(buf[:0], int64(i), 10)
		h.Write(append(buf, '\n'))
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
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

// combine reads the partial results of count --shard from files, checks
// that they are the K shards of one n, each exactly once, and returns the
// combined counts.
func combine(ctx context.Context, files []string, workers int) (countJSON, int, error) {
	var parts []partJSON
	for _, f := range files {
		data, err := readSmall(ctx, f, maxSmallFile)
		var pe *fs.PathError
		switch {
		case ctx.Err() != nil:
			return countJSON{}, 0, fmt.Errorf("combine: interrupted while reading %s", f)
		case errors.As(err, &pe):
			return countJSON{}, 0, fmt.Errorf("combine: %w", err)
		case err != nil:
			return countJSON{}, 0, fmt.Errorf("combine: %s: %w", f, err)
		}
		p, err := readPart(data)
		switch {
		case errors.Is(err, errOtherVersion):
			// Parts of versions before constellations carried class counts.
			return countJSON{}, 0, fmt.Errorf("combine: %s is not the output of this version's count --shard (%v): made by another version?", f, err)
		case errors.Is(err, errMoreThanOne):
			return countJSON{}, 0, fmt.Errorf("combine: %s holds more than one result of count --shard", f)
		case err != nil:
			return countJSON{}, 0, fmt.Errorf("combine: %s is not the output of count --shard: %v", f, err)
		}
		if err := nqueens.CheckN(p.N); err != nil || p.Shards < 1 || p.Shard < 0 || p.Shard >= p.Shards {
			return countJSON{}, 0, fmt.Errorf("combine: %s: n=%d shard %d/%d is out of range", f, p.N, p.Shard, p.Shards)
		}
		parts = append(parts, p)
	}
	first := parts[0]
	seen := map[int]string{}
	for i, p := range parts {
		switch {
		case p.N != first.N:
			return countJSON{}, 0, fmt.Errorf("combine: %s counts n=%d, %s n=%d", files[i], p.N, files[0], first.N)
		case p.Shards != first.Shards:
			return countJSON{}, 0, fmt.Errorf("combine: %s is shard %d/%d, %s one of %d shards", files[i], p.Shard, p.Shards, files[0], first.Shards)
		}
		if prev, dup := seen[p.Shard]; dup {
			return countJSON{}, 0, fmt.Errorf("combine: shard %d/%d given twice: %s and %s", p.Shard, p.Shards, prev, files[i])
		}
		seen[p.Shard] = files[i]
	}
	var missing []string
	for i := range first.Shards {
		if _, ok := seen[i]; !ok {
			missing = append(missing, strconv.Itoa(i))
		}
	}
	if len(missing) > 0 {
		return countJSON{}, 0, fmt.Errorf("combine: n=%d: shards %s of %d missing", first.N, strings.Join(missing, ", "), first.Shards)
	}
	// The parts must cover the units this program's split gives, or they
	// come from another version of it and may overlap or leave gaps.
	cs := count.Constellations(first.N)
	split, err := count.ConstellationShards(cs, first.Shards)
	if err != nil {
		return countJSON{}, 0, fmt.Errorf("combine: n=%d: %w", first.N, err)
	}
	out := countJSON{N: first.N}
	var total uint64
	for i, p := range parts {
		if p.UnitsTotal != len(cs) || p.Units != len(split[p.Shard]) || p.UnitsDigest != unitsDigest(split[p.Shard]) {
			return countJSON{}, 0, fmt.Errorf("combine: %s: shard %d/%d covers other work units than this nqueens splits n=%d into (%d units): made by another version?",
				files[i], p.Shard, p.Shards, p.N, len(cs))
		}
		var carry uint64
		if total, carry = bits.Add64(total, p.Total, 0); carry != 0 {
			// No board nqueens counts has 2^64 solutions: a total was altered.
			return countJSON{}, 0, fmt.Errorf("%w: n=%d: %s: \"total\" %d takes the sum of the parts past %d: was a part altered?",
				errMismatch, first.N, files[i], p.Total, uint64(math.MaxUint64))
		}
		out.Seconds += p.Seconds
	}
	start := time.Now()
	out.Counts, err = count.TallyTotal(ctx, first.N, total, workers)
	switch {
	case ctx.Err() != nil:
		return countJSON{}, 0, fmt.Errorf("combine n=%d: interrupted", first.N)
	case err != nil:
		// The split checked out, so a part's total was altered.
		return countJSON{}, 0, fmt.Errorf("%w: n=%d: the %d shards add up to %d solutions, which cannot form whole classes: was a part altered? (%v)",
			errMismatch, first.N, first.Shards, total, err)
	}
	out.Seconds += time.Since(start).Seconds()
	return out, first.Shards, nil
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
	if err := writeCounts(a.stdout, []countJSON{c}, asJSON); err != nil {
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
