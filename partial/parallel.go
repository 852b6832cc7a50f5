package partial

import (
	"context"
	"math"
	"sync/atomic"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/balance"
	"github.com/nqueens/nqueens/internal/parallel"
)

// Options are the options of CountParallel.
type Options struct {
	// Workers is the number of search goroutines; 0 means one per core.
	Workers int
	// Start, if set, is called once before the search with the number of
	// its work units; Progress, if set, after each unit is searched, from
	// the goroutine that searched it.
	Start    func(units int)
	Progress func()
}

// unitRows is the number of empty rows whose queens make CountParallel's
// work units: up to n*n units, enough for the workers to share evenly.
const unitRows = 2

// unit is a work unit of CountParallel: the masks below its queens of
// the first unitRows empty rows.
type unit struct{ cols, ld, rd uint32 }

// CountParallel is CountContext on opts.Workers goroutines, with progress:
// its work units are the placements of the queens of the board's first
// two empty rows, searched in any order. It returns what CountContext
// returns, the nodes included. A board with too few empty rows to share
// is counted on one goroutine, as one unit.
func CountParallel(ctx context.Context, b Board, opts Options) (Count, error) {
	s := newSearch(b)
	if !s.ok || s.free <= unitRows+calmRows {
		if opts.Start != nil {
			opts.Start(1)
		}
		c, err := CountContext(ctx, b)
		if err == nil && opts.Progress != nil {
			opts.Progress()
		}
		return c, err
	}
	units, nodes := s.units()
	if opts.Start != nil {
		opts.Start(len(units))
	}
	var total, placed atomic.Uint64
	err := parallel.Each(ctx, len(units), opts.Workers, func(i int, stop *parallel.Stop) {
		w := *s
		w.halt, w.nodes = stop, 0
		u := units[i]
		k := w.count(unitRows, u.cols, u.ld, u.rd, math.MaxUint64)
		if w.cut {
			return
		}
		total.Add(k)
		placed.Add(w.nodes)
		if opts.Progress != nil {
			opts.Progress()
		}
	})
	if err != nil {
		return Count{Nodes: nodes + placed.Load()}, err
	}
	return Count{Completions: total.Load(), Nodes: nodes + placed.Load()}, nil
}

// units returns the work units of CountParallel, the placements of the
// queens of the first unitRows empty rows that attack no given queen nor
// each other, in lexicographic order, and the nodes that placing them
// takes. s must have more than unitRows empty rows.
func (s *search) units() ([]unit, uint64) {
	var units []unit
	var nodes uint64
	for a := s.all &^ s.block[0]; a != 0; a &= a - 1 {
		bit, d := a&-a, s.shift[1]
		nodes++
		cols, ld, rd := bit, bit<<d, bit>>d
		for a1 := s.all &^ (cols | ld | rd | s.block[1]); a1 != 0; a1 &= a1 - 1 {
			bit1, d1 := a1&-a1, s.shift[2]
			nodes++
			units = append(units, unit{cols | bit1, (ld | bit1) << d1, (rd | bit1) >> d1})
		}
	}
	return units, nodes
}

// Estimate returns how many nodes the search of b's completions places
// (Count.Nodes), estimated by Knuth's method from random paths down the
// tree below each placement of the first two empty rows, the same seeded
// paths each time: within about 10% for a board with many empty rows, and
// exact for one of at most two. It is 0 for a board whose queens attack
// each other.
func Estimate(b Board) float64 {
	s := newSearch(b)
	if !s.ok || s.free == 0 {
		return 0
	}
	if s.free <= unitRows {
		return float64(CountCompletions(b).Nodes)
	}
	children := func(i int, x unit, kids *[nqueens.MaxN]uint32) int {
		k := 0
		for a := s.all &^ (x.cols | x.ld | x.rd | s.block[unitRows+i]); a != 0; a &= a - 1 {
			kids[k] = a & -a
			k++
		}
		return k
	}
	child := func(i int, x unit, bit uint32) (unit, bool) {
		r := unitRows + i + 1
		if r >= s.free {
			return x, false
		}
		d := s.shift[r]
		return unit{x.cols | bit, (x.ld | bit) << d, (x.rd | bit) >> d}, true
	}
	units, nodes := s.units()
	sum := float64(nodes)
	for i, u := range units {
		_, mean := balance.Knuth(balance.SplitMix(uint64(i)), u, children, child)
		sum += mean - 1 // Knuth counts the unit's node, placed above
	}
	return sum
}

// rateBoard is the board MeasureRate counts: the empty board of 13, whose
// search places 4,674,889 queens (about 40 ms).
const rateBoard = 13

// MeasureRate returns how many nodes a second one goroutine's search of
// completions places on this machine, as it is loaded now: the rate of
// counting the completions of the empty board of 13. It returns ctx.Err()
// if ctx is cancelled first.
func MeasureRate(ctx context.Context) (float64, error) {
	b, err := Empty(rateBoard)
	if err != nil {
		panic("partial: " + err.Error())
	}
	start := time.Now()
	c, err := CountContext(ctx, b)
	if err != nil {
		return 0, err
	}
	return float64(c.Nodes) / max(time.Since(start).Seconds(), 1e-6), nil
}
