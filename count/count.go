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
	// Engine searches the constellations: CPU on Workers goroutines if
	// nil.
	Engine Engine
	// Keeper, if not nil, keeps the work of the count so that running it
	// again resumes (count/resume keeps it in a state file): Search asks
	// it what was counted before and tells it each constellation found;
	// Board and parts.Make end it (Options.End).
	Keeper Keeper
}

// Result is the counts of a board and the seconds counting them took.
type Result struct {
	N int
	nqueens.Counts
	Seconds float64
	// Engine and Device say what counted (Engine.Name and Device, or
	// "classes" for the class search); empty for a combined count.
	Engine string
	Device string
}

// Board returns the tallies of a board of n: total solutions, classes,
// and classes by orbit size. It counts the solutions of every
// constellation (Options.Search), or with the Join engine every unit of
// the join (Options.SearchJoin), and derives the classes (TallyTotal),
// on o.Workers goroutines, calling o's hooks as they describe; with the
// Classes engine it counts with canonical's class search instead. Before
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
	if cl, ok := o.Engine.(Classes); ok {
		units := canonical.Units(n)
		if o.Start != nil {
			o.Start(0, len(units))
		}
		c, err := canonical.CountUnits(ctx, units, cl.Workers, o.Progress)
		if err != nil {
			return c, err
		}
		return c, nqueens.CheckKnown(n, c)
	}
	var total uint64
	var err error
	if _, ok := o.Engine.(Join); ok {
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
