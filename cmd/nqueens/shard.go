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
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/store"
)

// maxShards bounds K in --shard I/K.
const maxShards = 1_000_000

// shardEnv lists the environment variables --shard auto/K takes I from:
// the index of a Kubernetes Indexed Job's pod and of a Slurm array task.
var shardEnv = []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"}

// parseShard parses a --shard value: "I/K" with 0 <= I < K, or "auto/K",
// which takes I from the environment (shardEnv) through getenv.
func parseShard(s string, getenv func(string) string) (store.Shard, error) {
	bad := func(format string, args ...any) (store.Shard, error) {
		return store.Shard{}, usageError{fmt.Errorf("--shard %s: "+format, append([]any{quote(s)}, args...)...)}
	}
	is, ks, ok := strings.Cut(s, "/")
	if !ok {
		return bad("want I/K (shard I of K, I from 0 to K-1) or auto/K")
	}
	k, err := strconv.Atoi(ks)
	if err != nil || k < 1 || k > maxShards {
		return bad("K must be a whole number from 1 to %d", maxShards)
	}
	if is == "auto" {
		var from, val string
		for _, name := range shardEnv {
			v := getenv(name)
			if v == "" {
				continue
			}
			if from != "" && v != val {
				return bad("%s=%s and %s=%s disagree", from, quote(val), name, quote(v))
			}
			from, val = name, v
		}
		if from == "" {
			return bad("auto takes I from %s (Kubernetes Indexed Job) or %s (Slurm job array); neither is set",
				shardEnv[0], shardEnv[1])
		}
		i, err := strconv.Atoi(val)
		if err != nil || i < 0 || i >= k {
			return bad("%s=%s: want a shard index from 0 to %d (a Slurm array must run 0-%d)", from, quote(val), k-1, k-1)
		}
		return store.Shard{Index: i, Count: k}, nil
	}
	i, err := strconv.Atoi(is)
	if err != nil || i < 0 || i >= k {
		return bad("I must be a whole number from 0 to %d", k-1)
	}
	return store.Shard{Index: i, Count: k}, nil
}

// quote quotes a value for a message, cut short if it is long.
func quote(s string) string {
	const max = 40
	if len(s) > max {
		return strconv.Quote(s[:max]) + "..."
	}
	return strconv.Quote(s)
}

// shardFlag reads and parses cmd's --shard flag: the zero Shard if unset.
func shardFlag(cmd *cobra.Command) (store.Shard, error) {
	f := cmd.Flags().Lookup("shard")
	if f == nil || !f.Changed {
		return store.Shard{}, nil
	}
	return parseShard(f.Value.String(), os.Getenv)
}

// shardUnits returns the units of the given shard of n (all of them for
// the whole board) and their indexes in canonical.Units(n).
func shardUnits(n int, s store.Shard) ([]canonical.Unit, []int, error) {
	if s.IsWhole() {
		units := canonical.Units(n)
		idx := make([]int, len(units))
		for i := range idx {
			idx[i] = i
		}
		return units, idx, nil
	}
	units, idx, err := canonical.ShardUnits(n, s.Index, s.Count)
	if err != nil {
		return nil, nil, usageError{fmt.Errorf("n=%d: %w", n, err)}
	}
	return units, idx, nil
}

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
func (a *app) countShard(ctx context.Context, n int, s store.Shard) error {
	start := time.Now()
	cs, idx, err := canonical.ShardConstellations(n, s.Index, s.Count)
	if err != nil {
		return usageError{fmt.Errorf("n=%d: %w", n, err)}
	}
	search := time.Now()
	total, err := a.countConstellations(ctx, n, shardSuffix(s), cs)
	if err != nil {
		return err
	}
	p := partJSON{N: n, Shards: s.Count, Shard: s.Index, UnitsTotal: len(canonical.Constellations(n)),
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
	cs := canonical.Constellations(first.N)
	split, err := canonical.ConstellationShards(cs, first.Shards)
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
	out.Counts, err = canonical.TallyTotal(ctx, first.N, total, workers)
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

func (a *app) mergeCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "merge OUT.db SHARD.db...",
		Short: "Merge the shard catalogs of build --shard into one catalog",
		Long: `Merge joins shard catalogs, each written by build --shard I/K, into the
catalog OUT.db (created if missing). For every n the shards hold, all K
shards must be given, each once, each complete, all of the same K; then the n
is written to OUT.db in one transaction and marked complete, as if built on
one machine. Anything else is refused, naming the shard at fault, and OUT.db
is left as it was. OUT.db must not already hold the n.`,
		Example: "  nqueens merge catalog.db shard-*.db",
		Args:    minArgs(2, "the output catalog, then the shard catalogs"),
		RunE: func(cmd *cobra.Command, args []string) error {
			err := a.merge(cmd.Context(), args[0], args[1:])
			if err != nil && cmd.Context().Err() != nil {
				return fmt.Errorf("merge interrupted: nothing written to %s", args[0])
			}
			return err
		},
	}
}

func (a *app) merge(ctx context.Context, out string, files []string) error {
	var parts []*store.DB
	defer func() {
		for _, p := range parts {
			p.Close()
		}
	}()
	var ns []int
	for i, f := range files {
		if slices.Contains(files[:i], f) {
			return usageError{fmt.Errorf("merge: %s is named twice", f)}
		}
		db, err := store.Open(ctx, f, store.Options{ReadOnly: true})
		if err != nil {
			return err
		}
		parts = append(parts, db)
		builds, err := db.Builds(ctx)
		if err != nil {
			return err
		}
		var these []int
		for _, b := range builds {
			if b.Shard.IsWhole() {
				return fmt.Errorf("merge: %s holds n=%d whole, not a shard: only catalogs written by build --shard merge", f, b.N)
			}
			units, _, err := shardUnits(b.N, b.Shard)
			if err != nil {
				return fmt.Errorf("merge: %s: %w", f, err)
			}
			if b.UnitsTotal != len(units) {
				return fmt.Errorf("merge: %s: shard %s of n=%d has %d work units, this nqueens splits it into %d: made by another version?",
					f, b.Shard, b.N, b.UnitsTotal, len(units))
			}
			these = append(these, b.N)
		}
		if len(these) == 0 {
			return fmt.Errorf("merge: %s holds no shard", f)
		}
		if i > 0 && !slices.Equal(these, ns) {
			return fmt.Errorf("merge: %s holds n=%s, %s holds n=%s: shards of different boards", f, joinInts(these), files[0], joinInts(ns))
		}
		ns = these
	}
	units := make(map[int]int, len(ns))
	for _, n := range ns {
		units[n] = len(canonical.Units(n))
	}
	a.logf("merging n=%s from %d shard catalogs into %s", joinInts(ns), len(parts), out)
	merged, err := store.Merge(ctx, out, units, parts)
	if err != nil {
		return err
	}
	for _, b := range merged {
		a.logf("n=%d: merged %d shards into %s: %s (%s)", b.N, len(parts), out, plural(b.Unique, "class"), plural(b.Total, "solution"))
	}
	return writeBuildTable(a.stdout, merged)
}

// joinInts writes a list of numbers separated by commas.
func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}
