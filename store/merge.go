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

	"github.com/jmoiron/sqlx"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/enumerate"
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/output"
	"github.com/nqueens/nqueens/store/internal/dbfile"
)

// merge writes into the catalog at path, created if missing, the classes
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
// complete). merge is all or nothing: every n is written in one
// transaction, and a catalog that merge creates appears at path only once
// complete. On any error, or when ctx is cancelled, the catalog at path is
// left as it was, or not created. It returns the builds written, in
// increasing n.
//
// A path that names one of the parts or one of their companion files (see
// Files), however spelled, is refused before anything is read or created,
// with an error wrapping ErrPartFile: SQLite would delete or overwrite the
// merged catalog there.
func merge(ctx context.Context, path string, parts []*DB) ([]Build, error) {
	if err := checkOutput(path, parts); err != nil {
		return nil, err
	}
	plan, err := checkMerge(ctx, parts)
	if err != nil {
		return nil, err
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
			out, err = plan.write(ctx, &DB{dbfile.Handle{DB: x, Path: tmp, Version: version}})
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
	return plan.write(ctx, db)
}

// MergeFiles is Merge of the shard catalogs at the paths parts, which it
// opens read-only and closes when it returns. A path named twice is an
// error wrapping ErrNamedTwice, "merge: s4.db is named twice", and one
// that does not open is Open's error. Before it merges, it calls start, if
// not nil, with the n the parts hold (Mergeable), so that a caller can say
// what it is about to merge.
func MergeFiles(ctx context.Context, path string, parts []string, start func(ns []int)) ([]Build, error) {
	var dbs []*DB
	defer func() {
		for _, db := range dbs {
			db.Close()
		}
	}()
	for i, p := range parts {
		if slices.Contains(parts[:i], p) {
			return nil, fmt.Errorf("merge: %s is %w", p, ErrNamedTwice)
		}
		db, err := Open(ctx, p, Options{ReadOnly: true})
		if err != nil {
			return nil, err
		}
		dbs = append(dbs, db)
	}
	if err := checkOutput(path, dbs); err != nil {
		return nil, err
	}
	ns, err := mergeable(ctx, dbs)
	if err != nil {
		return nil, err
	} else if start != nil {
		start(ns)
	}
	return merge(ctx, path, dbs)
}

// checkOutput returns an error wrapping ErrPartFile if path names one of
// parts or one of their companion files, however spelled.
func checkOutput(path string, parts []*DB) error {
	for _, part := range parts {
		err := output.Check(path, output.Options{Protect: Files(part.h.Path), Protected: "a file of the shard catalog " + part.h.Name})
		if err != nil {
			return fmt.Errorf("merge: %w", &partFileError{err})
		}
	}
	return nil
}

// partFileError is the error of a merge into one of its parts' files: it
// says which, and is ErrPartFile.
type partFileError struct{ err error }

func (e *partFileError) Error() string { return e.err.Error() }

func (e *partFileError) Is(target error) bool { return target == ErrPartFile }

func (e *partFileError) Unwrap() error { return e.err }

// mergePlan is a checked merge: the n the parts hold and, for each n, the
// parts' builds of it, in the parts' order.
type mergePlan struct {
	ns     []int
	shards map[int][]Build
	parts  []*DB
}

// checkMerge checks what Merge checks before it writes: what Mergeable
// checks, then that every part holds a complete shard of each n, that the
// parts agree on K, and that each shard from 0 to K-1 is there exactly
// once. An error names the part or shard at fault.
func checkMerge(ctx context.Context, parts []*DB) (*mergePlan, error) {
	ns, err := mergeable(ctx, parts)
	if err != nil {
		return nil, err
	}
	p := &mergePlan{ns: ns, shards: make(map[int][]Build), parts: parts}
	for _, n := range ns {
		s, err := checkShards(ctx, n, parts)
		if err != nil {
			return nil, err
		}
		p.shards[n] = s
	}
	return p, nil
}

// write writes the classes of each n of the plan from its parts into the
// catalog out, in one transaction, and returns the builds written, in
// increasing n. It refuses a catalog that is read-only or holds one of
// the n already (ErrComplete if complete); on any error, or when ctx is
// cancelled, it writes nothing.
func (p *mergePlan) write(ctx context.Context, out *DB) ([]Build, error) {
	db := &out.h
	if db.ReadOnly {
		return nil, fmt.Errorf("merge: %w: %s was opened for reading only", dbfile.ErrReadOnly, db.Path)
	}
	if db.LockPath != "" {
		unlock, err := dbfile.Lock(db.LockPath)
		if err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
		defer unlock()
	}
	for _, n := range p.ns {
		switch b, err := getBuild(ctx, db.DB, db.Version, n); {
		case errors.Is(err, ErrNotBuilt):
		case err != nil:
			return nil, err
		case b.Finished():
			return nil, fmt.Errorf("merge n=%d: %s: %w", n, db.Path, ErrComplete)
		default:
			return nil, fmt.Errorf("merge n=%d: %s already holds %s of n=%d; merge into another file", n, db.Path, b.Describe(), n)
		}
	}
	tx, err := db.DB.BeginTxx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("merge: %w", dbfile.Translate(err))
	}
	defer tx.Rollback()
	var written []Build
	for _, n := range p.ns {
		b, err := mergeN(ctx, tx, n, p.shards[n], p.parts)
		if ctx.Err() != nil {
			return nil, errors.New("merge interrupted: nothing written")
		}
		if err != nil {
			return nil, err
		}
		written = append(written, b)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("merge: commit: %w", dbfile.Translate(err))
	}
	return written, nil
}

// mergeN inserts in tx the classes of n from parts, whose builds of n are
// shards, and its builds row.
func mergeN(ctx context.Context, tx *sqlx.Tx, n int, shards []Build, parts []*DB) (Build, error) {
	start := time.Now()
	unitsTotal := len(canonical.Units(n))
	sum := Build{N: n, UnitsDone: unitsTotal, UnitsTotal: unitsTotal, Complete: true, StartedAt: start.UTC(), Form: shards[0].Form, IndexDepth: shards[0].IndexDepth}
	for _, s := range shards {
		sum.Counts.Merge(s.Counts)
		sum.Seconds += s.Seconds
		if !s.StartedAt.IsZero() && s.StartedAt.Before(sum.StartedAt) {
			sum.StartedAt = s.StartedAt
		}
	}
	// The parts' data, merged by the form that holds them.
	if err := merger(sum.Form)(ctx, tx, n, shards, parts); err != nil {
		return Build{}, err
	}
	sum.FinishedAt = time.Now().UTC()
	sum.Seconds += time.Since(start).Seconds()
	err := insertBuild(ctx, tx, sum)
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
				return false, fmt.Errorf("merge n=%d: read %s: %w", n, parts[c.part].h.Path, err)
			case c.l.Placement.N() != 0 && l.Placement.Compare(c.l.Placement) <= 0:
				return false, fmt.Errorf("merge n=%d: %s holds class %d (%s) out of order", n, parts[c.part].h.Path, l.Class, l.Placement)
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
			return nil, fmt.Errorf("merge n=%d: %s: %w", n, part.h.Path, err)
		}
		switch {
		case !b.Complete:
			return nil, fmt.Errorf("merge n=%d: %s holds shard %s unfinished (%s of %s work units): run its build again first",
				n, part.h.Path, b.Shard, phrase.Count(b.UnitsDone), phrase.Count(b.UnitsTotal))
		case k != 0 && b.Shard.Count != k:
			return nil, fmt.Errorf("merge n=%d: %s holds shard %s, but %s holds one of %d shards", n, part.h.Path, b.Shard, parts[0].h.Path, k)
		}
		if i > 0 && (b.Form != builds[0].Form || b.IndexDepth != builds[0].IndexDepth) {
			return nil, fmt.Errorf("merge n=%d: %s holds its %s, %s its %s: shards of one form only merge", n, part.h.Path, b.Form, parts[0].h.Path, builds[0].Form)
		}
		k = b.Shard.Count
		if prev, dup := seen[b.Shard.Index]; dup {
			return nil, fmt.Errorf("merge n=%d: shard %s given twice: %s and %s", n, b.Shard, prev, part.h.Path)
		}
		seen[b.Shard.Index] = part.h.Path
		builds[i] = b
	}
	if missing := phrase.MissingShards(k, func(i int) bool { _, ok := seen[i]; return ok }); missing != "" {
		return nil, fmt.Errorf("merge n=%d: shards %s of %d missing: n is complete only with all of them", n, missing, k)
	}
	return builds, nil
}

// mergeable checks that the catalogs parts can be merged as far as each
// says of itself, and returns the n they hold, in increasing order: each
// must hold shards only, no build of the whole board (ErrNotShard); each shard must have
// the work units this version of nqueens splits its n into (a shard made
// by a version that splits n otherwise would not line up with the others);
// and every part must hold the same n. An error names the part at fault by
// the path it was opened with. Merge makes these checks first; mergeable
// lets a caller say what Merge will do before it starts.
func mergeable(ctx context.Context, parts []*DB) ([]int, error) {
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
				return nil, fmt.Errorf("merge: %s holds n=%d whole, %w", part.h.Name, b.N, ErrNotShard)
			}
			units, err := shardSize(sizes, b.N, b.Shard)
			if err != nil {
				return nil, fmt.Errorf("merge: %s: %w", part.h.Name, err)
			}
			if b.UnitsTotal != units {
				return nil, fmt.Errorf("merge: %s: shard %s of n=%d has %s, this nqueens splits it into %s: made by another version?",
					part.h.Name, b.Shard, b.N, phrase.Plural(b.UnitsTotal, "work unit"), phrase.Count(units))
			}
			these = append(these, b.N)
		}
		if len(these) == 0 {
			return nil, fmt.Errorf("merge: %s holds no shard", part.h.Name)
		}
		if i > 0 && !slices.Equal(these, ns) {
			return nil, fmt.Errorf("merge: %s holds n=%s, %s holds n=%s: shards of different boards", part.h.Name, nList(these), parts[0].h.Name, nList(ns))
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
	if err := canonical.CheckShard(n, s); err != nil {
		return 0, fmt.Errorf("n=%d: %w", n, err)
	}
	key := [2]int{n, s.Count}
	if sizes[key] == nil {
		all, err := canonical.ShardSizes(n, s.Count)
		if err != nil {
			return 0, fmt.Errorf("n=%d: %w", n, err)
		}
		sizes[key] = all
	}
	return sizes[key][s.Index], nil
}

// nList writes a list of n as 8,10.
func nList(ns []int) string { return strings.Trim(strings.ReplaceAll(fmt.Sprint(ns), " ", ","), "[]") }

// mergeRows writes in tx the classes of n merged from the rows of parts,
// whose builds of n are shards: each part's in order, merged into one
// order and numbered afresh.
func mergeRows(ctx context.Context, tx *sqlx.Tx, n int, shards []Build, parts []*DB) error {
	ins := newClassWriter(ctx, n, nqueens.Placement{})
	ins.Begin(tx, 0)
	defer ins.Close()
	// The parts' classes, each part's in order, merged into one order and
	// numbered afresh.
	got := make([]nqueens.Counts, len(parts))
	for c, err := range mergeClasses(ctx, n, parts, got) {
		if err != nil {
			return err
		}
		if err := ins.Add(c); errors.Is(err, errOrder) {
			return fmt.Errorf("merge n=%d: shards overlap: %v", n, err)
		} else if err != nil {
			return fmt.Errorf("merge n=%d: %w", n, err)
		}
	}
	if err := ins.Flush(); err != nil {
		return fmt.Errorf("merge n=%d: %w", n, err)
	}
	for i, part := range parts {
		if got[i] != shards[i].Counts {
			return fmt.Errorf("merge n=%d: %s holds %s (%s), its build records %s (%s)",
				n, part.h.Path, phrase.Plural(got[i].Unique, "class"), phrase.Plural(got[i].Total, "solution"), phrase.Count(shards[i].Unique), phrase.Count(shards[i].Total))
		}
	}
	return nil
}

// mergeIndex writes in tx the index of n merged from the indexes of parts,
// whose builds of n are shards: the parts' prefixes taken in the order of
// n's work units, each unit's from the part that holds it, counted afresh
// and written in blocks as a build of the whole board writes them.
func mergeIndex(ctx context.Context, tx *sqlx.Tx, n int, shards []Build, parts []*DB) error {
	depth := canonical.UnitDepth(n)
	type source struct {
		next      func() (indexPrefix, error, bool)
		stop      func()
		head      indexPrefix
		ok        bool
		symmetric []nqueens.Layout // its symmetric classes, numbered as the part numbers them
		sym       int              // the first not yet merged
	}
	sources := make([]*source, len(parts))
	defer func() {
		for _, s := range sources {
			if s != nil {
				s.stop()
			}
		}
	}()
	advance := func(i int, s *source) error {
		var err error
		s.head, err, s.ok = s.next()
		if err != nil {
			return fmt.Errorf("merge n=%d: read %s: %w", n, parts[i].h.Path, err)
		}
		return nil
	}
	for i, part := range parts {
		s := &source{}
		for l, err := range part.Classes(ctx, n, Filter{Symmetry: []nqueens.Symmetry{nqueens.SymRot180, nqueens.SymRot90, nqueens.SymFull}}) {
			if err != nil {
				return fmt.Errorf("merge n=%d: read %s: %w", n, part.h.Path, err)
			}
			s.symmetric = append(s.symmetric, l)
		}
		s.next, s.stop = iter.Pull2(part.prefixes(ctx, shards[i]))
		sources[i] = s
		if err := advance(i, s); err != nil {
			return err
		}
	}
	// within reports whether the prefix p lies below the work unit u.
	within := func(p, u enumerate.Unit) bool {
		for r := range depth {
			if p.Queen(r) != u.Queen(r) {
				return false
			}
		}
		return true
	}
	w := &indexWriter{n: n}
	var tallies []canonical.Tally
	for _, u := range canonical.Units(n) {
		tallies = tallies[:0]
		for i, s := range sources {
			for s.ok && within(s.head.Unit, u) {
				t := canonical.Tally{Unit: s.head.Unit, Counts: nqueens.Counts{Unique: s.head.Classes, Total: s.head.Solutions}}
				end := s.head.ClassesBefore + s.head.Classes
				for ; s.sym < len(s.symmetric) && uint64(s.symmetric[s.sym].Class) <= end; s.sym++ {
					l := s.symmetric[s.sym]
					l.Class -= int64(s.head.ClassesBefore)
					t.Symmetric = append(t.Symmetric, l)
				}
				tallies = append(tallies, t)
				if err := advance(i, s); err != nil {
					return err
				}
			}
		}
		w.add(tallies)
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	w.close()
	for i, s := range sources {
		if s.ok {
			return fmt.Errorf("merge n=%d: %s holds prefix %v, of no work unit of n or out of order", n, parts[i].h.Path, s.head.Unit.Prefix())
		}
		if s.sym != len(s.symmetric) {
			return fmt.Errorf("merge n=%d: %s lists symmetric class %d under no prefix", n, parts[i].h.Path, s.symmetric[s.sym].Class)
		}
	}
	var want nqueens.Counts
	for _, b := range shards {
		want.Merge(b.Counts)
	}
	if w.next.ClassesBefore != want.Unique || w.next.SolutionsBefore != want.Total {
		return fmt.Errorf("merge n=%d: the parts' indexes hold %s (%s), their builds record %s (%s)",
			n, phrase.Plural(w.next.ClassesBefore, "class"), phrase.Plural(w.next.SolutionsBefore, "solution"), phrase.Count(want.Unique), phrase.Count(want.Total))
	}
	if err := w.write(ctx, tx); err != nil {
		return fmt.Errorf("merge n=%d: %w", n, err)
	}
	return nil
}
