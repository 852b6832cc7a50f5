// Package verify checks a catalog against the mathematics: that every
// stored class is a valid solution in canonical form, stored once, in
// order and numbered in turn, with the orbit its symmetry gives; that the
// classes add up to the counts each build records; that each build is
// complete, with the work units this version splits its search into; and
// that the counts of a whole board are the published ones (OEIS A000170
// and A002562). Of an n built as an index it re-searches every prefix of
// the index (or a sample of them) and compares what it finds with the
// counts and symmetric classes the index records. It reads through the
// store's API alone.
package verify

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/internal/parallel"
	"github.com/nqueens/nqueens/store"
)

// Report is what Catalog finds of one n, or, when N is 0, of the catalog as
// a whole. Its JSON form is one object of nqueens verify --json.
type Report struct {
	N  int  `json:"n"`
	OK bool `json:"ok"` // no problem found; always false when N is 0
	// Total and Unique are the counts the build of N records.
	Total  uint64 `json:"total"`
	Unique uint64 `json:"unique"`
	// Problems names each mismatch, one sentence each, at most
	// MaxProblems of them and a last one saying more were not shown. It
	// is empty, not nil, when OK.
	Problems []string `json:"problems"`
	// Shard is set when the catalog holds a shard of N (see store.DB.BeginShard):
	// its classes are checked, the published counts are not.
	Shard *nqueens.Shard `json:"shard,omitempty"`
}

// MaxProblems bounds the problems a Report names.
const MaxProblems = 20

// Catalog re-reads the catalog's classes of each n of ns (every n it holds,
// classes or build, when ns is empty) and checks, for each, that every
// placement is a valid solution, is its class's canonical representative
// (canonical.Classify) and appears once, in order, numbered 1, 2, 3 and so on
// in that order; that every orbit size
// matches the placement's symmetry; that the orbits sum to the recorded
// total and the classes to the recorded unique count; that the build is
// complete, with the work units this version splits n's search into; and
// that the counts of a whole board equal the published ones
// (nqueens.KnownCounts). It also reports what db.Audit finds: classes with no
// build, and tables or views missing from the schema.
//
// It returns one Report for each n, in the order of ns (in increasing n
// when ns is empty), after a Report with N 0 for the catalog as a whole if
// Audit finds something wrong with it; an n the catalog lacks is a Report
// with a problem. A problem found is a Report, not an error: Catalog
// returns an error when the catalog cannot be read (store.ErrCorrupt), when ctx
// is cancelled, or when ns is empty and the catalog holds nothing to
// verify, with the Reports made so far.
func Catalog(ctx context.Context, db *store.DB, ns []int) ([]Report, error) {
	return Options{}.Catalog(ctx, db, ns)
}

// Options tune a verification. The zero Options check everything and
// report no progress.
type Options struct {
	// Sample, when positive, re-searches only that many prefixes of each
	// index, drawn at random, instead of all of them; the rest of an
	// index is checked as a whole (its blocks, sums, the published
	// counts, its symmetric classes).
	Sample int
	// Workers is how many goroutines re-search an index: all cores when
	// less than 1.
	Workers int
	// Start, if not nil, is called before the classes of each n are
	// read, with n and the number of classes its build records.
	Start func(n int, classes uint64)
	// Progress, if not nil, is called as the classes of the n last
	// started are read, with the number read since its last call: every
	// ProgressEvery classes, and once more with the rest after the last.
	// It is called on Catalog's goroutine.
	Progress func(classes int64)
}

// ProgressEvery is how many classes are read between two calls of
// Options.Progress.
const ProgressEvery = 4096

// Catalog is the package's Catalog, with o's options.
func (o Options) Catalog(ctx context.Context, db *store.DB, ns []int) ([]Report, error) {
	builds, err := db.Builds(ctx)
	if errors.Is(err, store.ErrBadRow) {
		// A builds row that does not read: that is the finding, for the
		// catalog as a whole, as nothing can be checked against it.
		return []Report{{N: 0, Problems: []string{err.Error()}}}, nil
	} else if err != nil {
		return nil, err
	}
	audit, err := db.Audit(ctx)
	if err != nil {
		return nil, err
	}
	orphans := map[int]string{}
	var whole []string // problems of the catalog as a whole
	for _, p := range audit {
		if p.N == 0 {
			whole = append(whole, p.Text)
		} else {
			orphans[p.N] = p.Text
		}
	}
	if len(ns) == 0 {
		for _, b := range builds {
			ns = append(ns, b.N)
		}
		for n := range orphans {
			ns = append(ns, n)
		}
		slices.Sort(ns)
		if len(ns) == 0 && len(whole) == 0 {
			return nil, fmt.Errorf("the catalog %s holds nothing to verify", db.Path())
		}
	}
	var reports []Report
	if len(whole) > 0 {
		reports = append(reports, Report{N: 0, Problems: whole})
	}
	for _, n := range ns {
		i := slices.IndexFunc(builds, func(b store.Build) bool { return b.N == n })
		var r Report
		if text, ok := orphans[n]; ok && i < 0 {
			r = Report{N: n, Problems: []string{text}}
		} else if i < 0 {
			r = Report{N: n, Problems: []string{fmt.Sprintf("n=%d is not in the catalog", n)}}
		} else if r, err = o.checkBuild(ctx, db, builds[i]); err != nil {
			return reports, err
		}
		r.OK = len(r.Problems) == 0
		if r.Problems == nil {
			r.Problems = []string{}
		}
		reports = append(reports, r)
	}
	return reports, nil
}

// checkBuild checks the stored classes of one build against themselves,
// its recorded counts, and the published counts.
func (o Options) checkBuild(ctx context.Context, db *store.DB, b store.Build) (Report, error) {
	n := b.N
	r := Report{N: n, Total: b.Total, Unique: b.Unique}
	if !b.Shard.IsWhole() {
		r.Shard = &b.Shard
	}
	problem := func(format string, args ...any) {
		if len(r.Problems) < MaxProblems {
			r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
		} else if len(r.Problems) == MaxProblems {
			r.Problems = append(r.Problems, "more mismatches not shown")
		}
	}
	if !b.Complete {
		problem("build is incomplete (%d of %d work units)", b.UnitsDone, b.UnitsTotal)
	}
	if s := b.Shard; s.Check() != nil {
		problem("the build records shard index %d of %d, which is no shard", s.Index, s.Count)
	} else if units := shardUnits(n, s); b.UnitsTotal != units {
		problem("the build records %d work units in all, the search of %s has %d", b.UnitsTotal, s.Describe(), units)
	}
	if b.UnitsDone < 0 || b.UnitsDone > b.UnitsTotal || (b.Complete && b.UnitsDone != b.UnitsTotal) {
		problem("the build records %d of %d work units done%s, which cannot be", b.UnitsDone, b.UnitsTotal, map[bool]string{true: " and complete", false: ""}[b.Complete])
	}
	if b.Form == store.FormIndex {
		err := o.checkIndex(ctx, db, b, problem)
		return r, err
	}
	// The store checks each row as it reads it (record.Decode, Sequence):
	// a bad row comes with a *store.RowError, and the reading goes on.
	var got nqueens.Counts
	step, end := o.meter(n, b.Unique)
	for l, err := range db.Classes(ctx, n, store.Filter{}) {
		step()
		var bad *store.RowError
		switch {
		case errors.As(err, &bad):
			for _, p := range bad.Problems {
				problem("class %d%s %s", l.Class, bad.Stored(), p)
			}
		case err != nil && (errors.Is(err, store.ErrCorrupt) || ctx.Err() != nil):
			return r, err
		case err != nil:
			problem("unreadable row: %v", err)
			continue
		}
		if l.Placement.N() != 0 {
			got.Add(l.Symmetry)
		}
	}
	end()
	if err := ctx.Err(); err != nil {
		return r, errors.New("verify interrupted")
	}
	if got != b.Counts {
		problem("stored classes add up to total %d, unique %d (orbit 8/4/2/1: %d/%d/%d/%d), the build records total %d, unique %d (%d/%d/%d/%d)",
			got.Total, got.Unique, got.Orbit8, got.Orbit4, got.Orbit2, got.Orbit1,
			b.Total, b.Unique, b.Orbit8, b.Orbit4, b.Orbit2, b.Orbit1)
	}
	if err := nqueens.CheckKnown(n, got); b.Finished() && err != nil {
		problem("counts differ from OEIS: %v", err)
	}
	return r, nil
}

// meter calls o.Start for the classes of n, and returns the functions to
// call after each class read and after the last, which report them to
// o.Progress, ProgressEvery at a time and the rest at the end.
func (o Options) meter(n int, classes uint64) (step, end func()) {
	if o.Start != nil {
		o.Start(n, classes)
	}
	if o.Progress == nil {
		return func() {}, func() {}
	}
	var k int64
	step = func() {
		if k++; k == ProgressEvery {
			o.Progress(k)
			k = 0
		}
	}
	end = func() {
		if k > 0 {
			o.Progress(k)
			k = 0
		}
	}
	return step, end
}

// shardUnits returns the number of work units of the class search in
// shard s of a board of n, as a build splits them (canonical.Units, split
// by canonical.Cost), and 0 if n is no board size or its units do not
// split into s.
func shardUnits(n int, s nqueens.Shard) int {
	if nqueens.CheckN(n) != nil {
		return 0
	}
	units, _, _ := canonical.Shard(n, s)
	return len(units)
}

// ErrMismatch is matched by Summary's error: the catalog does not check
// out.
var ErrMismatch = errors.New("verification failed")

// Summary returns nil if every report is OK, and otherwise an error
// matching ErrMismatch that says how many n (and whether the catalog as a
// whole) do not check out.
func Summary(reports []Report) error {
	whole, bad := 0, 0 // whole is 1 if the catalog as a whole has problems
	for _, r := range reports {
		if r.N == 0 {
			whole = 1
		} else if !r.OK {
			bad++
		}
	}
	switch all := len(reports) - whole; {
	case whole > 0 && bad == 0:
		return fmt.Errorf("%w: the catalog as a whole does not check out", ErrMismatch)
	case whole > 0:
		return fmt.Errorf("%w: the catalog as a whole and %d of %d n do not check out", ErrMismatch, bad, all)
	case bad > 0:
		return fmt.Errorf("%w: %d of %d n do not check out", ErrMismatch, bad, all)
	}
	return nil
}

// checkIndex checks the index of the build b: every block as the store
// reads it (store.DB.Prefixes), every prefix's counts (or o.Sample of
// them) and symmetric classes against a new search below it, the sums
// against the build's counts and the published ones. It names each
// problem with problem, and returns an error when the catalog cannot be
// read or ctx is cancelled.
func (o Options) checkIndex(ctx context.Context, db *store.DB, b store.Build, problem func(string, ...any)) error {
	n := b.N
	prefixes, _, err := db.IndexSize(ctx, b)
	var chosen map[int64]bool // nil: all
	switch {
	case errors.Is(err, store.ErrBadRow):
		// The walk of the prefixes below reports the fault; a sample of
		// an index whose size does not read searches none.
		if o.Sample > 0 {
			chosen = map[int64]bool{}
		}
	case err != nil:
		return err
	case o.Sample > 0 && int64(o.Sample) < prefixes:
		chosen = map[int64]bool{}
		for len(chosen) < o.Sample {
			chosen[rand.Int64N(prefixes)] = true
		}
	}
	// The symmetric classes the index lists, checked row by row as read.
	var symmetric []nqueens.Layout
	var got nqueens.Counts
	for l, err := range db.Classes(ctx, n, store.Filter{Symmetry: []nqueens.Symmetry{nqueens.SymRot180, nqueens.SymRot90, nqueens.SymFull}}) {
		var bad *store.RowError
		switch {
		case errors.As(err, &bad):
			for _, p := range bad.Problems {
				problem("symmetric class %d%s %s", l.Class, bad.Stored(), p)
			}
			continue
		case err != nil && (errors.Is(err, store.ErrCorrupt) || ctx.Err() != nil):
			return err
		case err != nil:
			problem("unreadable row: %v", err)
			continue
		}
		symmetric = append(symmetric, l)
		got.Add(l.Symmetry)
	}
	// The prefixes to search, in batches searched on all cores.
	var batch []store.IndexPrefix
	next := 0 // the first symmetric class not yet matched with a prefix
	search := func() {
		results := make([]canonical.Tally, len(batch))
		parallel.Each(ctx, len(batch), o.Workers, func(i int, _ *parallel.Stop) {
			results[i] = canonical.TallyUnit(batch[i].Unit)
		})
		if ctx.Err() != nil {
			return
		}
		for i, p := range batch {
			t := results[i]
			if t.Counts.Unique != p.Classes || t.Counts.Total != p.Solutions {
				problem("index prefix %d (%v) holds %d classes of %d solutions, the index records %d of %d",
					p.Index, p.Unit.Prefix(), t.Counts.Unique, t.Counts.Total, p.Classes, p.Solutions)
			}
			// The listed symmetric classes under the prefix are the ones found.
			for next < len(symmetric) && uint64(symmetric[next].Class) <= p.ClassesBefore {
				next++
			}
			var listed []nqueens.Layout
			for j := next; j < len(symmetric) && uint64(symmetric[j].Class) <= p.ClassesBefore+p.Classes; j++ {
				listed = append(listed, symmetric[j])
			}
			for j := range t.Symmetric {
				t.Symmetric[j].Class += int64(p.ClassesBefore)
			}
			if !slices.Equal(listed, t.Symmetric) {
				problem("index prefix %d (%v) holds %d symmetric classes (%v), the index lists %d there (%v)",
					p.Index, p.Unit.Prefix(), len(t.Symmetric), t.Symmetric, len(listed), listed)
			}
		}
		batch = batch[:0]
	}
	var sums nqueens.Counts
	broken := false
	for p, err := range db.Prefixes(ctx, b) {
		if errors.Is(err, store.ErrBadRow) {
			// The sums of a broken chain of blocks say nothing more.
			problem("%v", err)
			broken = true
			break
		} else if err != nil {
			return err
		}
		sums.Unique += p.Classes
		sums.Total += p.Solutions
		if chosen == nil || chosen[p.Index] {
			batch = append(batch, p)
			if len(batch) == 4096 {
				search()
			}
		}
	}
	search()
	if err := ctx.Err(); err != nil {
		return errors.New("verify interrupted")
	}
	got.Orbit8 = sums.Unique - got.Orbit4 - got.Orbit2 - got.Orbit1
	got.Unique, got.Total = sums.Unique, sums.Total
	k, ok := nqueens.KnownCounts(n)
	if broken {
		if ok && b.Finished() && (b.Total != k.Total || b.Unique != k.Unique) {
			problem("the build records total %d, unique %d, which differ from OEIS A000170/A002562: %d, %d", b.Total, b.Unique, k.Total, k.Unique)
		}
		return nil
	}
	if got != b.Counts {
		problem("the index adds up to total %d, unique %d (orbit 8/4/2/1: %d/%d/%d/%d), the build records total %d, unique %d (%d/%d/%d/%d)",
			got.Total, got.Unique, got.Orbit8, got.Orbit4, got.Orbit2, got.Orbit1,
			b.Total, b.Unique, b.Orbit8, b.Orbit4, b.Orbit2, b.Orbit1)
	}
	if ok && b.Finished() && (got.Total != k.Total || got.Unique != k.Unique) {
		problem("counts total %d, unique %d differ from OEIS A000170/A002562: %d, %d", got.Total, got.Unique, k.Total, k.Unique)
	} else if ok && b.Finished() && (b.Total != k.Total || b.Unique != k.Unique) {
		problem("the build records total %d, unique %d, which differ from OEIS A000170/A002562: %d, %d", b.Total, b.Unique, k.Total, k.Unique)
	}
	return nil
}
