// Package count owns counting the solutions and classes of a board
// without listing them, and splitting that work across processes.
//
// A count searches the board by constellations, the queens a solution has
// on its border (Constellations, Solutions), and derives the classes from
// the few solutions that the half and quarter turns leave unchanged
// (Symmetric, Tally): Board does both. The work of a board can be split
// into shards by each constellation's estimated cost (Constellation.Cost);
// the package count/parts makes each shard's count a part, reads it back
// strictly and combines the parts, and count/estimate predicts how long a
// count takes before it starts.
//
// The symmetry group and the search for canonical classes are the
// canonical package's.
package count

import (
	"context"
	"fmt"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
)

// Options are the settings of a count.
type Options struct {
	// Workers is the number of goroutines that search: all cores when
	// less than 1.
	Workers int
	// Start, if not nil, is called once before the search with the
	// number of work units (constellations, or the join's units) of the
	// whole count, total, and of those done already, which Keeper holds
	// from an earlier run: a resumed count's progress counts from the
	// whole, as Keeper's messages do.
	Start func(done, total int)
	// Progress, if not nil, is called after each work unit searched,
	// one call at a time: total - done times in a count that ends.
	Progress func()
	// By is how Board and parts.Make search: by constellations (the
	// zero Method), by the join or by the class search.
	By Method
	// Engine searches the constellations, where By is ByConstellations:
	// CPU on Workers goroutines if nil.
	Engine Engine
	// Keeper, if not nil, keeps the work of the count so that running it
	// again resumes (count/resume keeps it in a state file): Search asks
	// it what was counted before and tells it each constellation found;
	// Board and parts.Make end it (Options.End).
	Keeper Keeper
}

// Method is how a count searches a board.
type Method int

const (
	// ByConstellations searches the constellations on Options.Engine
	// (Search).
	ByConstellations Method = iota
	// ByJoin joins half boards (count/join) on the CPU, by units of its
	// own (SearchJoin): the fastest on the CPU from n = 16 (JoinFaster),
	// in memory that grows with n (JoinMemory).
	ByJoin
	// ByClasses counts with canonical's search for classes
	// (canonical.CountUnits) on the CPU: about 1.4 times slower than
	// CPU, an independent check of the same numbers, and the search
	// nqueens build runs. It counts whole boards only (Board), by
	// canonical's units, for Start and Progress; it keeps no work, so
	// Board asks Options.Keeper nothing and tells it nothing, but ends
	// it.
	ByClasses
)

// Result is the counts of a board and the seconds counting them took.
type Result struct {
	N int
	nqueens.Counts
	Seconds float64
	// Engine and Device say what counted (an Engine's Name and Device,
	// or "join" or "classes" and CPU's Device); empty for a combined
	// count.
	Engine string
	Device string
}

// Board returns the tallies of a board of n: total solutions, classes,
// and classes by orbit size. It counts the solutions of every
// constellation (Options.Search), or ByJoin every unit of the join
// (Options.SearchJoin), and derives the classes (TallyTotal), on
// o.Workers goroutines, calling o's hooks as they describe; ByClasses it
// counts with canonical's class search instead. Before
// it returns them it checks the counts against the published ones
// (nqueens.CheckKnown) and ends o.Keeper (Options.End) with the result.
//
// Its errors name n: one that reads "interrupted" and matches ctx.Err()
// if ctx is cancelled first, a *nqueens.KnownError for counts that are
// not the published ones (or a total that forms no whole classes, for an
// n OEIS knows), one matching ErrOverflow if the total does not fit in 64
// bits, the engine's or the keeper's otherwise, each as o.Keeper's End
// words it. It panics if n is outside 1..nqueens.MaxN.
func Board(ctx context.Context, n int, o Options) (nqueens.Counts, error) {
	c, err := o.board(ctx, n)
	if ctx.Err() != nil {
		err = interrupted{ctx.Err()}
	}
	if err = o.End(err); err != nil {
		return nqueens.Counts{}, fmt.Errorf("n=%d: %w", n, err)
	}
	return c, nil
}

// board counts a board of n as Board does, and checks the counts against
// the published ones.
func (o Options) board(ctx context.Context, n int) (nqueens.Counts, error) {
	if o.By == ByClasses {
		units := canonical.Units(n)
		if o.Start != nil {
			o.Start(0, len(units))
		}
		c, err := canonical.CountUnits(ctx, units, o.Workers, o.Progress)
		if err != nil {
			return c, err
		}
		return c, nqueens.CheckKnown(n, c)
	}
	var total uint64
	var err error
	if o.By == ByJoin {
		total, err = o.SearchJoin(ctx, JoinUnitsOf(n))
	} else {
		total, err = o.Search(ctx, Constellations(n))
	}
	if err != nil {
		return nqueens.Counts{}, err
	}
	c, err := TallyTotal(ctx, n, total, o.Workers)
	if err != nil && ctx.Err() == nil {
		// A total that forms no whole classes is wrong: for an n whose
		// counts are published, a mismatch with them.
		if kerr := nqueens.CheckKnown(n, nqueens.Counts{Total: total}); kerr != nil {
			return c, fmt.Errorf("%w (%v)", kerr, err)
		}
		return c, err
	} else if err != nil {
		return c, err
	}
	return c, nqueens.CheckKnown(n, c)
}

// End ends o.Keeper, if any, once the count is over with err (nil for a
// count whose numbers are right), and returns the error to report, which
// says what became of the work kept; without a Keeper it returns err.
// Board calls it, and so must any other caller of Search with a Keeper
// (parts.Make).
func (o Options) End(err error) error {
	if o.Keeper == nil {
		return err
	}
	return o.Keeper.End(err)
}

// Interrupted returns the error of a count stopped because its context
// was cancelled with err: it reads "interrupted" and matches err.
func Interrupted(err error) error { return interrupted{err} }

type interrupted struct{ err error }

func (e interrupted) Error() string { return "interrupted" }
func (e interrupted) Unwrap() error { return e.err }

// Solutions returns the number of solutions in the orbits of the given
// constellations, searched on workers goroutines (all cores when
// workers < 1). If done is not nil it is called after each constellation
// searched, one call at a time. It returns ctx.Err() with a partial total
// if ctx is cancelled first, and an error if the total does not fit in 64
// bits (n = 31 and 32 would not). The search allocates nothing per node.
func Solutions(ctx context.Context, cs []Constellation, workers int, done func()) (uint64, error) {
	return Options{Workers: workers, Progress: done}.Search(ctx, cs)
}

// full returns the columns of a board of n.
func full(n int) uint32 { return uint32(1<<uint(n) - 1) }
