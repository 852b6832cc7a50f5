// Package verify checks a catalog against the mathematics: that every
// stored class is a valid solution in canonical form, stored once, in
// order and numbered in turn, with the orbit its symmetry gives; that the
// classes add up to the counts each build records; that each build is
// complete, with the work units this version splits its search into; and
// that the counts of a whole board are the published ones (OEIS A000170
// and A002562, by nqueens.CheckKnown). Of an n built as an index it
// re-searches every prefix of the index (or a sample of them, drawn from a
// seed so that the same seed searches the same prefixes again) and
// compares what it finds with the counts and symmetric classes the index
// records. It reads through the store's API alone.
package verify

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/sample"
	"github.com/nqueens/nqueens/store"
)

// Report is what Catalog finds of one n, or, when N is 0, of the catalog as
// a whole. Its JSON form is one object of nqueens verify --json.
type Report struct {
	N  int  `json:"n"`
	OK bool `json:"ok"` // no problem found; always false when N is 0
	// Missing is true for an n the catalog holds nothing of, neither a
	// build nor classes: it is not OK, and has no problems, as nothing of
	// it is damaged.
	Missing bool `json:"missing,omitempty"`
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
	// Sample is set when a sample of the prefixes of N's index was
	// searched again (Options.Sample fewer than the index holds), with
	// the seed that draws the same sample again.
	Sample *Sample `json:"sample,omitempty"`
}

// Sample is the sample of an index's prefixes a verification searched
// again: Prefixes of the Of prefixes of the index of n, drawn with the
// generator sample.Generator(Seed, n), each a number below Of drawn by
// sample.Uint64N until Prefixes distinct ones are drawn. The same seed
// draws the same prefixes of n on every machine, with every release.
type Sample struct {
	Seed     uint64 `json:"seed"`
	Prefixes int64  `json:"prefixes"`
	Of       int64  `json:"of"`
}

// maxProblems bounds the problems a Report names.
const maxProblems = 20

// Catalog re-reads the catalog's classes of each n of ns (every n it holds,
// classes or build, when ns is empty) and checks, for each, that every
// placement is a valid solution, is its class's canonical representative
// (canonical.Classify) and appears once, in order, numbered 1, 2, 3 and so on
// in that order; that every orbit size
// matches the placement's symmetry; that the orbits sum to the recorded
// total and the classes to the recorded unique count; that the build is
// complete, with the work units this version splits n's search into; and
// that the counts of a whole board are the published ones
// (nqueens.CheckKnown). It also reports what db.Audit finds: classes with no
// build, and tables or views missing from the schema.
//
// It returns one Report for each n, in the order of ns (in increasing n
// when ns is empty), after a Report with N 0 for the catalog as a whole if
// Audit finds something wrong with it; an n the catalog holds nothing of
// is a Report that is Missing. A problem found is a Report, not an error: Catalog
// returns an error when the catalog cannot be read (store.ErrCorrupt), when ctx
// is cancelled (an *InterruptedError), or when ns is empty and the catalog holds nothing to
// verify, with the Reports made so far.
func Catalog(ctx context.Context, db *store.DB, ns []int) ([]Report, error) {
	return Options{}.Catalog(ctx, db, ns)
}

// Options tune a verification. The zero Options check everything and
// report no progress.
type Options struct {
	// Sample, when positive, re-searches only that many prefixes of each
	// index, drawn at random from Seed (see the Report's Sample), instead
	// of all of them; the rest of an index is checked as a whole (its
	// blocks, sums, the published counts, its symmetric classes).
	Sample int
	// Seed is the seed of the sample's draws: the same Seed draws the
	// same prefixes of each n.
	Seed uint64
	// Workers is how many goroutines re-search an index: all cores when
	// less than 1.
	Workers int
	// Start, if not nil, is called before the classes of each n are
	// read, with n and the number of classes its build records.
	Start func(n int, classes uint64)
	// Progress, if not nil, is called as the classes of the n last
	// started are checked, with the number checked since its last call
	// (a few thousand rows, or the classes under a batch of an index's
	// prefixes searched again): the calls add up to the classes Start
	// gave. It is called on Catalog's goroutine.
	Progress func(classes int64)
}

// Catalog is the package's Catalog, with o's options.
func (o Options) Catalog(ctx context.Context, db *store.DB, ns []int) ([]Report, error) {
	builds, err := db.Builds(ctx)
	if ctx.Err() != nil {
		return nil, &InterruptedError{Err: ctx.Err()}
	} else if errors.Is(err, store.ErrBadRow) {
		// A builds row that does not read: that is the finding, for the
		// catalog as a whole, as nothing can be checked against it.
		return []Report{{N: 0, Problems: []string{err.Error()}}}, nil
	} else if err != nil {
		return nil, err
	}
	audit, err := db.Audit(ctx)
	if ctx.Err() != nil {
		return nil, &InterruptedError{Err: ctx.Err()}
	} else if err != nil {
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
			r = Report{N: n, Missing: true}
		} else if r, err = o.checkBuild(ctx, db, builds[i]); ctx.Err() != nil {
			return reports, interrupted(ctx, reports, n)
		} else if err != nil {
			return reports, err
		}
		r.OK = len(r.Problems) == 0 && !r.Missing
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
		if len(r.Problems) < maxProblems {
			r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
		} else if len(r.Problems) == maxProblems {
			r.Problems = append(r.Problems, "more mismatches not shown")
		}
	}
	if !b.Complete {
		problem("build is incomplete (%s of %s work units)", phrase.Count(b.UnitsDone), phrase.Count(b.UnitsTotal))
	}
	if s := b.Shard; s.Check() != nil {
		problem("the build records shard index %d of %d, which is no shard", s.Index, s.Count)
	} else if units := shardUnits(n, s); b.UnitsTotal != units {
		problem("the build records %s in all, the search of %s has %s", phrase.Plural(b.UnitsTotal, "work unit"), s.Describe(), phrase.Count(units))
	}
	if b.UnitsDone < 0 || b.UnitsDone > b.UnitsTotal || (b.Complete && b.UnitsDone != b.UnitsTotal) {
		problem("the build records %s of %s work units done%s, which cannot be", phrase.Count(b.UnitsDone), phrase.Count(b.UnitsTotal), map[bool]string{true: " and complete", false: ""}[b.Complete])
	}
	// The store checks the classes as its form holds them: each row as
	// it reads it, or an index's blocks, symmetric classes and prefixes
	// searched again.
	if o.Start != nil {
		o.Start(n, b.Unique)
	}
	var progress func(uint64)
	if o.Progress != nil {
		progress = func(k uint64) {
			if k > 0 {
				o.Progress(int64(k))
			}
		}
	}
	ro := store.RecountOptions{Workers: o.Workers, Progress: progress, Problem: func(p string) { problem("%s", p) }}
	if o.Sample > 0 {
		ro.Sample = func(prefixes int64) map[int64]bool {
			if int64(o.Sample) >= prefixes {
				return nil // every prefix
			}
			r.Sample = &Sample{Seed: o.Seed, Prefixes: int64(o.Sample), Of: prefixes}
			return r.Sample.draw(n)
		}
	}
	got, ok, err := db.Recount(ctx, b, ro)
	switch {
	case ctx.Err() != nil:
		return r, ctx.Err()
	case err != nil:
		return r, err
	}
	// The published counts, checked as every count is (nqueens.CheckKnown),
	// of a whole board whose build is finished: the counts the classes add
	// up to when they say something, and the build's.
	published := func(c nqueens.Counts) error {
		if !b.Finished() {
			return nil
		}
		return nqueens.CheckKnown(n, c)
	}
	switch {
	case !ok:
		// The counts found say nothing; the build's can still be checked.
		if err := published(b.Counts); err != nil {
			problem("the build records %v", err)
		}
		return r, nil
	case got != b.Counts:
		problem("stored classes add up to total %d, unique %d (orbit 8/4/2/1: %d/%d/%d/%d), the build records total %d, unique %d (%d/%d/%d/%d)",
			got.Total, got.Unique, got.Orbit8, got.Orbit4, got.Orbit2, got.Orbit1,
			b.Total, b.Unique, b.Orbit8, b.Orbit4, b.Orbit2, b.Orbit1)
	}
	if err := published(got); err != nil {
		problem("the classes add up to %v", err)
	} else if err := published(b.Counts); err != nil {
		problem("the build records %v", err)
	}
	return r, nil
}

// draw returns the prefixes of the sample s of the index of n, as the
// Sample type says they are drawn.
func (s *Sample) draw(n int) map[int64]bool {
	rng := sample.Generator(s.Seed, uint64(n))
	chosen := make(map[int64]bool, s.Prefixes)
	for int64(len(chosen)) < s.Prefixes {
		chosen[int64(sample.Uint64N(rng, uint64(s.Of)))] = true
	}
	return chosen
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

// InterruptedError is Catalog's error when its context is cancelled: it
// says which n were verified before, and which n was not finished. It
// wraps the context's error.
type InterruptedError struct {
	OK     []int // the n verified that checked out, in increasing order
	Failed []int // the n verified that did not check out, in increasing order (not the n missing from the catalog)
	N      int   // the n being verified, 0 if none had started
	Err    error // the context's error
}

// interrupted returns the InterruptedError of a verification of n
// cancelled after reports.
func interrupted(ctx context.Context, reports []Report, n int) *InterruptedError {
	e := &InterruptedError{N: n, Err: ctx.Err()}
	for _, r := range reports {
		switch {
		case r.N == 0, r.Missing:
		case r.OK:
			e.OK = append(e.OK, r.N)
		default:
			e.Failed = append(e.Failed, r.N)
		}
	}
	slices.Sort(e.OK)
	slices.Sort(e.Failed)
	return e
}

func (e *InterruptedError) Error() string {
	var done []string
	if len(e.OK) > 0 {
		done = append(done, "n="+nqueens.FormatNList(e.OK)+" checked out")
	}
	if len(e.Failed) > 0 {
		done = append(done, "n="+nqueens.FormatNList(e.Failed)+" did not")
		if len(e.OK) == 0 {
			done[0] += " check out"
		}
	}
	switch {
	case e.N == 0:
		return "verify interrupted before any n was checked"
	case len(done) == 0:
		return fmt.Sprintf("verify interrupted: n=%d was not finished", e.N)
	}
	return fmt.Sprintf("verify interrupted after %s; n=%d was not finished", strings.Join(done, " and "), e.N)
}

// Unwrap returns the context's error.
func (e *InterruptedError) Unwrap() error { return e.Err }

// ErrMismatch is matched by Summary's error: the catalog does not check
// out.
var ErrMismatch = errors.New("verification failed")

// Summary returns nil if every report is OK. Otherwise, where a report
// has problems, it returns an error matching ErrMismatch that says how
// many n (and whether the catalog as a whole) do not check out, and how
// many are not in the catalog; where the only fault is n the catalog
// holds nothing of (Missing), an error that says how many, which does not
// match ErrMismatch: nothing is damaged.
func Summary(reports []Report) error {
	whole, bad, missing := 0, 0, 0 // whole is 1 if the catalog as a whole has problems
	for _, r := range reports {
		switch {
		case r.N == 0:
			whole = 1
		case r.Missing:
			missing++
		case !r.OK:
			bad++
		}
	}
	all := len(reports) - whole
	lacks := ""
	if missing > 0 {
		lacks = fmt.Sprintf(", and %d %s not in the catalog", missing, isAre(missing))
	}
	switch {
	case whole > 0 && bad == 0:
		return fmt.Errorf("%w: the catalog as a whole does not check out%s", ErrMismatch, lacks)
	case whole > 0:
		return fmt.Errorf("%w: the catalog as a whole and %d of %d n do not check out%s", ErrMismatch, bad, all, lacks)
	case bad > 0:
		return fmt.Errorf("%w: %d of %d n do not check out%s", ErrMismatch, bad, all, lacks)
	case missing > 0:
		return fmt.Errorf("%d of %d n %s not in the catalog, so not verified", missing, all, isAre(missing))
	}
	return nil
}

// isAre is the verb of k things.
func isAre(k int) string {
	if k == 1 {
		return "is"
	}
	return "are"
}
