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
	// number of constellations it will search.
	Start func(units int)
	// Progress, if not nil, is called after each constellation searched,
	// one call at a time.
	Progress func()
	// Engine searches the constellations: CPU on Workers goroutines if
	// nil.
	Engine Engine
	// Resume, if not nil, is called by Search with the constellations
	// it is about to count, and returns the solutions of those counted
	// before, by index (Constellation.Solutions, added and not searched
	// again), and a function that Search calls with the index and
	// solutions of each one it searches, one call at a time, before
	// Progress: what a count that may stop keeps to resume
	// (count/resume). An error ends the search.
	Resume func(cs []Constellation) (known map[int]uint64, found func(i int, solutions uint64), err error)
	// Classes makes Board count with canonical's search for the classes
	// (canonical.CountUnits) instead, about 1.4 times slower: an
	// independent check of the same numbers. Its units of work are then
	// canonical's units, for Start and Progress alike.
	Classes bool
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
// constellation (Solutions) and derives the classes (TallyTotal), on
// o.Workers goroutines, calling o's hooks as they describe. It returns
// ctx.Err() if ctx is cancelled first, and an error naming n if the total
// does not fit in 64 bits. With o.Classes it counts by classes instead. It panics if n is outside 1..nqueens.MaxN.
func Board(ctx context.Context, n int, o Options) (nqueens.Counts, error) {
	if o.Classes {
		units := canonical.Units(n)
		if o.Start != nil {
			o.Start(len(units))
		}
		return canonical.CountUnits(ctx, units, o.Workers, o.Progress)
	}
	total, err := o.Search(ctx, Constellations(n))
	switch {
	case ctx.Err() != nil:
		return nqueens.Counts{}, ctx.Err()
	case err != nil:
		return nqueens.Counts{}, fmt.Errorf("n=%d: %w", n, err)
	}
	return TallyTotal(ctx, n, total, o.Workers)
}

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
