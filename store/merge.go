package store

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"iter"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/nqueens/nqueens/store/internal/dbfile"

	"github.com/jmoiron/sqlx"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
)

// Merge writes into the catalog at path, created if missing, the classes
// of every n that parts hold, where parts are the shard catalogs of all K
// shards of n's work units (see BeginShard), and records each n as
// complete with all its work units: what a build of the whole board would
// have written.
//
// It checks first what Mergeable checks, then that every part holds a
// complete shard of each n, that the parts agree on K, and that each shard
// from 0 to K-1 is there exactly once; an error names the part or shard at
// fault. A class found in two parts (overlapping shards) is an error too,
// as is a catalog at path that already holds one of the n (ErrComplete if
// complete). Merge is all or nothing: every n is written in one
// transaction, and a catalog that Merge creates appears at path only once
// complete. On any error, or when ctx is cancelled, the catalog at path is
// left as it was, or not created. It returns the builds written, in
// increasing n.
func Merge(ctx context.Context, path string, parts []*DB) ([]Build, error) {
	ns, err := Mergeable(ctx, parts)
	if err != nil {
		return nil, err
	}
	shards := make(map[int][]Build)
	for _, n := range ns {
		s, err := checkShards(ctx, n, parts)
		if err != nil {
			return nil, err
		}
		shards[n] = s
	}
	write := func(db *DB) ([]Build, error) {
		for _, part := range parts {
			if part.path == db.path {
				return nil, fmt.Errorf("merge: %s is both the output and a shard", db.path)
			}
		}
		return db.merge(ctx, ns, shards, parts)
	}
	abs, err := dbfile.Resolve(path)
	if err != nil {
		return nil, fmt.Errorf("merge into %s: %w", path, err)
	}
	if _, err := os.Stat(abs); errors.Is(err, os.ErrNotExist) {
		var out []Build
		err := dbfile.Create(ctx, abs, func(x *sqlx.DB, tmp string, version int64) (err error) {
			// No build lock: nothing else can reach the file by this name,
			// and the creator holds abs's lock shared.
			out, err = write(&DB{db: x, path: tmp, version: version})
			return err
		})
		if err != nil {
			return nil, err
		}
		return out, nil
	}
	db, err := Open(ctx, path, Options{})
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return write(db)
}

// merge writes the classes of each n of ns from parts, whose builds of n
// are shards[n], in one transaction.
func (db *DB) merge(ctx context.Context, ns []int, shards map[int][]Build, parts []*DB) ([]Build, error) {
	if db.readOnly {
		return nil, fmt.Errorf("merge: %w: %s was opened for reading only", ErrReadOnly, db.path)
	}
	if db.lockPath != "" {
		unlock, err := dbfile.Lock(db.lockPath)
		if err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
		defer unlock()
	}
	for _, n := range ns {
		switch b, err := db.Build(ctx, n); {
		case errors.Is(err, ErrNotBuilt):
		case err != nil:
			return nil, err
		case b.Finished():
			return nil, fmt.Errorf("merge n=%d: %s: %w", n, db.path, ErrComplete)
		default:
			return nil, fmt.Errorf("merge n=%d: %s already holds %s of n=%d; merge into another file", n, db.path, describeBuild(b), n)
		}
	}
	tx, err := db.db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("merge: %w", dbfile.Translate(err))
	}
	defer tx.Rollback()
	var out []Build
	for _, n := range ns {
		b, err := mergeN(ctx, tx, n, shards[n], parts)
		if ctx.Err() != nil {
			return nil, errors.New("merge interrupted: nothing written")
		}
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("merge: commit: %w", dbfile.Translate(err))
	}
	return out, nil
}

// mergeN inserts in tx the classes of n from parts, whose builds of n are
// shards, and its builds row.
func mergeN(ctx context.Context, tx *sqlx.Tx, n int, shards []Build, parts []*DB) (Build, error) {
	start := time.Now()
	unitsTotal := len(canonical.Units(n))
	sum := Build{N: n, UnitsDone: unitsTotal, UnitsTotal: unitsTotal, Complete: true, StartedAt: start.UTC()}
	for _, s := range shards {
		sum.Counts.Merge(s.Counts)
		sum.Seconds += s.Seconds
		if !s.StartedAt.IsZero() && s.StartedAt.Before(sum.StartedAt) {
			sum.StartedAt = s.StartedAt
		}
	}
	ins := inserter{ctx: ctx, tx: tx, n: n}
	defer ins.close()
	// The parts' classes, each part's in order, merged into one order and
	// numbered afresh.
	got := make([]nqueens.Counts, len(parts))
	for c, err := range mergeClasses(ctx, n, parts, got) {
		if err != nil {
			return Build{}, err
		}
		if err := ins.add(c); errors.Is(err, errOrder) {
			return Build{}, fmt.Errorf("merge n=%d: shards overlap: %v", n, err)
		} else if err != nil {
			return Build{}, fmt.Errorf("merge n=%d: %w", n, err)
		}
	}
	if err := ins.flush(); err != nil {
		return Build{}, fmt.Errorf("merge n=%d: %w", n, err)
	}
	for i, part := range parts {
		if got[i] != shards[i].Counts {
			return Build{}, fmt.Errorf("merge n=%d: %s holds %d classes (%d solutions), its build records %d (%d)",
				n, part.path, got[i].Unique, got[i].Total, shards[i].Unique, shards[i].Total)
		}
	}
	sum.FinishedAt = time.Now().UTC()
	sum.Seconds += time.Since(start).Seconds()
	_, err := tx.ExecContext(ctx, `INSERT INTO builds (n, total, unique_count, orbit8, orbit4, orbit2, orbit1,
		complete, units_done, units_total, started_at, finished_at, seconds, shard_index, shard_count)
		VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, 0, 0)`,
		n, sum.Total, sum.Unique, sum.Orbit8, sum.Orbit4, sum.Orbit2, sum.Orbit1,
		sum.UnitsDone, sum.UnitsTotal, sum.StartedAt.Format(time.RFC3339Nano),
		sum.FinishedAt.Format(time.RFC3339Nano), sum.Seconds)
	if err != nil {
		return Build{}, fmt.Errorf("merge n=%d: record build: %w", n, dbfile.Translate(err))
	}
	return sum, nil
}

// mergeClasses yields the classes of n of all parts in increasing order of
// their placements, merging the parts' ordered lists, and counts each
// part's classes into got. A class in two parts comes twice in a row.
func mergeClasses(ctx context.Context, n int, parts []*DB, got []nqueens.Counts) iter.Seq2[nqueens.Layout, error] {
	return func(yield func(nqueens.Layout, error) bool) {
		h := &classHeap{}
		defer func() {
			for _, c := range h.cursors {
				c.stop()
			}
		}()
		// advance reads c's next class; it reports whether c has one, and
		// yields an error for a part that cannot be read or is out of order.
		advance := func(c *cursor) (bool, error) {
			l, err, ok := c.next()
			switch {
			case !ok:
				return false, nil
			case err != nil:
				return false, fmt.Errorf("merge n=%d: read %s: %w", n, parts[c.part].path, err)
			case c.l.Placement.N() != 0 && l.Placement.Compare(c.l.Placement) <= 0:
				return false, fmt.Errorf("merge n=%d: %s holds class %d (%s) out of order", n, parts[c.part].path, l.Class, l.Placement)
			}
			got[c.part].Add(l.Symmetry)
			c.l = l
			return true, nil
		}
		for i, part := range parts {
			next, stop := iter.Pull2(part.Classes(ctx, n, Filter{}))
			c := &cursor{part: i, next: next, stop: stop}
			h.cursors = append(h.cursors, c)
			if ok, err := advance(c); err != nil {
				yield(nqueens.Layout{}, err)
				return
			} else if ok {
				h.live = append(h.live, c)
			}
		}
		heap.Init(h)
		for h.Len() > 0 {
			c := h.live[0]
			if !yield(c.l, nil) {
				return
			}
			ok, err := advance(c)
			if err != nil {
				yield(nqueens.Layout{}, err)
				return
			}
			if ok {
				heap.Fix(h, 0)
			} else {
				heap.Pop(h)
			}
		}
	}
}

// cursor is a part's place in mergeClasses.
type cursor struct {
	part int
	l    nqueens.Layout // its current class
	next func() (nqueens.Layout, error, bool)
	stop func()
}

// classHeap orders the live cursors by their current class.
type classHeap struct {
	cursors []*cursor // every part's, to stop them
	live    []*cursor
}

func (h *classHeap) Len() int { return len(h.live) }
func (h *classHeap) Less(i, j int) bool {
	return h.live[i].l.Placement.Compare(h.live[j].l.Placement) < 0
}
func (h *classHeap) Swap(i, j int) { h.live[i], h.live[j] = h.live[j], h.live[i] }
func (h *classHeap) Push(x any)    { h.live = append(h.live, x.(*cursor)) }
func (h *classHeap) Pop() any {
	c := h.live[len(h.live)-1]
	h.live = h.live[:len(h.live)-1]
	return c
}

// checkShards returns the builds of n in parts, in the parts' order, after
// checking that they are complete shards of one K that cover every shard
// exactly once.
func checkShards(ctx context.Context, n int, parts []*DB) ([]Build, error) {
	builds := make([]Build, len(parts))
	seen := map[int]string{}
	k := 0
	for i, part := range parts {
		b, err := part.Build(ctx, n)
		if err != nil {
			return nil, fmt.Errorf("merge n=%d: %s: %w", n, part.path, err)
		}
		switch {
		case !b.Complete:
			return nil, fmt.Errorf("merge n=%d: %s holds shard %s unfinished (%d of %d work units): run its build again first",
				n, part.path, b.Shard, b.UnitsDone, b.UnitsTotal)
		case k != 0 && b.Shard.Count != k:
			return nil, fmt.Errorf("merge n=%d: %s holds shard %s, but %s holds one of %d shards", n, part.path, b.Shard, parts[0].path, k)
		}
		k = b.Shard.Count
		if prev, dup := seen[b.Shard.Index]; dup {
			return nil, fmt.Errorf("merge n=%d: shard %s given twice: %s and %s", n, b.Shard, prev, part.path)
		}
		seen[b.Shard.Index] = part.path
		builds[i] = b
	}
	if missing := nqueens.MissingShards(k, func(i int) bool { _, ok := seen[i]; return ok }); missing != "" {
		return nil, fmt.Errorf("merge n=%d: shards %s of %d missing: n is complete only with all of them", n, missing, k)
	}
	return builds, nil
}

// Mergeable checks that the catalogs parts can be merged as far as each
// says of itself, and returns the n they hold, in increasing order: each
// must hold shards only, no build of the whole board; each shard must have
// the work units this version of nqueens splits its n into (a shard made
// by a version that splits n otherwise would not line up with the others);
// and every part must hold the same n. An error names the part at fault by
// the path it was opened with. Merge makes these checks first; Mergeable
// lets a caller say what Merge will do before it starts.
func Mergeable(ctx context.Context, parts []*DB) ([]int, error) {
	if len(parts) == 0 {
		return nil, errors.New("merge: no shard catalogs given")
	}
	var ns []int
	sizes := map[[2]int][]int{} // units per shard of one n and K, by {n, K}
	for i, part := range parts {
		builds, err := part.Builds(ctx)
		if err != nil {
			return nil, err
		}
		var these []int
		for _, b := range builds {
			if b.Shard.IsWhole() {
				return nil, fmt.Errorf("merge: %s holds n=%d whole, not a shard: only catalogs written by build --shard merge", part.name, b.N)
			}
			units, err := shardSize(sizes, b.N, b.Shard)
			if err != nil {
				return nil, fmt.Errorf("merge: %s: %w", part.name, err)
			}
			if b.UnitsTotal != units {
				return nil, fmt.Errorf("merge: %s: shard %s of n=%d has %d work units, this nqueens splits it into %d: made by another version?",
					part.name, b.Shard, b.N, b.UnitsTotal, units)
			}
			these = append(these, b.N)
		}
		if len(these) == 0 {
			return nil, fmt.Errorf("merge: %s holds no shard", part.name)
		}
		if i > 0 && !slices.Equal(these, ns) {
			return nil, fmt.Errorf("merge: %s holds n=%s, %s holds n=%s: shards of different boards", part.name, nList(these), parts[0].name, nList(ns))
		}
		ns = these
	}
	return ns, nil
}

// shardSize returns the number of work units of shard s of n, splitting n's
// units into s.Count shards once for all the shards of one n and K (sizes
// keeps the splits, keyed by {n, K}).
func shardSize(sizes map[[2]int][]int, n int, s nqueens.Shard) (int, error) {
	if err := nqueens.CheckN(n); err != nil {
		return 0, err
	}
	if err := canonical.CheckShard(n, s.Index, s.Count); err != nil {
		return 0, fmt.Errorf("n=%d: %w", n, err)
	}
	key := [2]int{n, s.Count}
	if sizes[key] == nil {
		all, err := canonical.Shards(canonical.Units(n), s.Count)
		if err != nil {
			return 0, fmt.Errorf("n=%d: %w", n, err)
		}
		for _, idx := range all {
			sizes[key] = append(sizes[key], len(idx))
		}
	}
	return sizes[key][s.Index], nil
}

// nList writes a list of n as 8,10.
func nList(ns []int) string { return strings.Trim(strings.ReplaceAll(fmt.Sprint(ns), " ", ","), "[]") }

// describeBuild says what a build holds, for messages.
func describeBuild(b Build) string {
	state := "a complete build"
	if !b.Complete {
		state = fmt.Sprintf("an unfinished build (%d of %d work units)", b.UnitsDone, b.UnitsTotal)
	}
	if b.Shard.IsWhole() {
		return state
	}
	return state + " of shard " + b.Shard.String()
}
