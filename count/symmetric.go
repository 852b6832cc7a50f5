package count

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/parallel"
	"github.com/nqueens/nqueens/internal/phrase"
)

// Symmetric returns the numbers of solutions of a board of n that the half
// turn and the quarter turn leave unchanged, searched on workers
// goroutines (all cores when workers < 1). Each search places with every
// queen its images under the turn, so it fills a half or a quarter of the
// rows itself: n = 20 takes 0.07 s, and each n above about 3 times more.
// It returns ctx.Err() if ctx is cancelled first. It panics if n is
// outside 1..nqueens.MaxN.
func Symmetric(ctx context.Context, n, workers int) (half, quarter uint64, err error) {
	if err := nqueens.CheckN(n); err != nil {
		panic("count: " + err.Error())
	}
	half, err = halfTurn(ctx, n, workers)
	if err != nil {
		return 0, 0, err
	}
	s := quarterSearch{n: n, m: uint8(n - 1)}
	return half, s.from(0), nil
}

// halfTurn returns the number of solutions of a board of n that the half
// turn leaves unchanged. Such a solution is fixed by its queens in the top
// n/2 rows, each of which brings its image (m-r, m-c) in the bottom rows
// (and, when n is odd, the centre square holds a queen of its own). The
// search fills the top rows with bit masks, one work unit per placement of
// the first two rows; since the mirror image of such a solution is one
// too, it places the first queen in the left half and doubles.
func halfTurn(ctx context.Context, n, workers int) (uint64, error) {
	if n == 1 {
		return 1, nil
	}
	root := halfBoard{n: n, m: n - 1, all: full(n)}
	if n%2 == 1 {
		c := n / 2
		if !root.fits(c, c) {
			return 0, nil
		}
		root.put(c, c)
	}
	// The units: the boards after the first rows, up to two.
	units := []halfBoard{root}
	for r := 0; r < min(2, n/2); r++ {
		var next []halfBoard
		for _, h := range units {
			free := h.free(r)
			if r == 0 {
				free &= full(n / 2)
			}
			for ; free != 0; free &= free - 1 {
				if g, ok := h.place(r, bits.TrailingZeros32(free)); ok {
					next = append(next, g)
				}
			}
		}
		units = next
	}
	from := min(2, n/2)
	var total atomic.Uint64
	err := parallel.Each(ctx, len(units), workers, func(i int, stop *parallel.Stop) {
		total.Add(units[i].from(from, stop))
	})
	return 2 * total.Load(), err
}

// halfBoard is the state of halfTurn's search: the columns taken, and the
// diagonals by c-r+m (down-right) and r+c (down-left), over the whole board.
type halfBoard struct {
	n, m       int
	all        uint32
	cols       uint32
	down, anti uint64
}

// fits reports whether (r, c) is free of the queens placed.
func (h halfBoard) fits(r, c int) bool {
	return h.cols&(1<<uint(c)) == 0 && h.down&(1<<uint(c-r+h.m)) == 0 && h.anti&(1<<uint(r+c)) == 0
}

// pairFits reports whether the image (m-r, m-c) of (r, c) is free of the
// queens placed and of (r, c) itself.
func (h halfBoard) pairFits(r, c int) bool {
	if c == r || r+c == h.m || c == h.m-c {
		return false // same down-right or down-left diagonal, or column
	}
	return h.fits(h.m-r, h.m-c)
}

func (h *halfBoard) put(r, c int) {
	h.cols |= 1 << uint(c)
	h.down |= 1 << uint(c-r+h.m)
	h.anti |= 1 << uint(r+c)
}

// free returns the free squares of row r: bit c is taken if column c is,
// or the diagonals c-r+m or r+c.
func (h halfBoard) free(r int) uint32 {
	return h.all &^ (h.cols | uint32(h.down>>uint(h.m-r)) | uint32(h.anti>>uint(r)))
}

// halfStopRows is how many rows of halfTurn check the Stop.
const halfStopRows = 3

// from counts the ways to fill rows r..n/2-1 and their images, checking
// stop in the first rows, where it returns 0 once stop is set. Its
// receiver is a value, so that the boards of the search stay on the
// stack: with a pointer one would escape to the heap at every node
// (42,693 allocations for n = 16, against about 24 with a value).
func (h halfBoard) from(r int, stop *parallel.Stop) uint64 {
	if r >= h.n/2 {
		return 1
	}
	if r < halfStopRows && stop.Stopped() {
		return 0
	}
	var total uint64
	for free := h.free(r); free != 0; free &= free - 1 {
		if g, ok := h.place(r, bits.TrailingZeros32(free)); ok {
			total += g.from(r+1, stop)
		}
	}
	return total
}

// place returns the board with queens on (r, c) and its image (m-r, m-c),
// and false if the image is not free; (r, c) must be.
func (h halfBoard) place(r, c int) (halfBoard, bool) {
	if !h.pairFits(r, c) {
		return halfBoard{}, false
	}
	g := h
	g.put(r, c)
	g.put(g.m-r, g.m-c)
	return g, true
}

// quarterSearch counts the solutions invariant under the quarter turn. It
// places each orbit of four squares (or the centre, of one) square by
// square, which costs little: such solutions are few, and each orbit fills
// four rows at once (n = 27 takes about a millisecond).
type quarterSearch struct {
	n    int
	m    uint8
	rows uint32
	cols uint32
	// diagonals by r-c+MaxN-1 and by r+c.
	diag, anti uint64
}

// rotate returns the image of q under a quarter turn.
func (s *quarterSearch) rotate(q square) square { return square{q.c, s.m - q.r} }

// from counts the ways to complete the board from row r on, rows above r
// being filled.
func (s *quarterSearch) from(r int) uint64 {
	for r < s.n && s.rows&(1<<uint(r)) != 0 {
		r++
	}
	if r == s.n {
		return 1
	}
	var total uint64
	for c := range s.n {
		var orbit [4]square
		k := 0
		q := square{uint8(r), uint8(c)}
		for {
			orbit[k] = q
			k++
			q = s.rotate(q)
			if q == orbit[0] || k == len(orbit) {
				break
			}
		}
		saved := *s
		ok := true
		for _, q := range orbit[:k] {
			if !s.put(q) {
				ok = false
				break
			}
		}
		if ok {
			total += s.from(r + 1)
		}
		*s = saved
	}
	return total
}

// put places a queen on q and reports whether it was free of the queens
// already placed.
func (s *quarterSearch) put(q square) bool {
	row, col := uint32(1)<<q.r, uint32(1)<<q.c
	d := uint64(1) << (int(q.r) - int(q.c) + nqueens.MaxN - 1)
	a := uint64(1) << (q.r + q.c)
	if s.rows&row != 0 || s.cols&col != 0 || s.diag&d != 0 || s.anti&a != 0 {
		return false
	}
	s.rows, s.cols, s.diag, s.anti = s.rows|row, s.cols|col, s.diag|d, s.anti|a
	return true
}

// TallyTotal returns the classes of a board of n by orbit size, given its
// total number of solutions: it counts the symmetric solutions (Symmetric,
// on workers goroutines) and hands them to Tally. If a search of the whole
// board on another device (Options.Search) counted them beside it, it
// takes those. It returns ctx.Err() if ctx is cancelled first, and Tally's
// error if the numbers cannot form whole classes.
func TallyTotal(ctx context.Context, n int, total uint64, workers int) (nqueens.Counts, error) {
	if v, ok := beside.LoadAndDelete(n); ok {
		b := v.(*symmetricBeside)
		select {
		case <-b.done:
		case <-ctx.Done():
			return nqueens.Counts{}, ctx.Err()
		}
		if b.err == nil {
			return Tally(n, total, b.half, b.quarter)
		}
	}
	half, quarter, err := Symmetric(ctx, n, workers)
	if err != nil {
		return nqueens.Counts{}, err
	}
	return Tally(n, total, half, quarter)
}

// beside holds, by n, the symmetric counts of a board searched on the CPU
// while another device searches its constellations, for TallyTotal to
// take: the CPU's work beside a GPU's.
var beside sync.Map // int -> *symmetricBeside

// symmetricBeside is Symmetric's result for a board, once done is closed.
type symmetricBeside struct {
	done          chan struct{}
	half, quarter uint64
	err           error
}

// searchBeside starts Symmetric for the board of cs on workers goroutines
// under ctx, if cs are all of the board's constellations (a shard has no
// classes to tally) and no such search of the board is kept already.
func searchBeside(ctx context.Context, cs []Constellation, workers int) {
	if len(cs) == 0 {
		return
	}
	n := cs[0].N()
	b := &symmetricBeside{done: make(chan struct{})}
	if _, kept := beside.LoadOrStore(n, b); kept {
		return
	}
	go func() {
		defer close(b.done)
		if len(Constellations(n)) != len(cs) {
			b.err = errors.New("not a whole board")
			return
		}
		b.half, b.quarter, b.err = Symmetric(ctx, n, workers)
	}()
}

// Tally returns the classes of a board of n by orbit size, given its total
// number of solutions and the numbers half and quarter of them invariant
// under the half and the quarter turn (Burnside's lemma: a class of orbit
// 2 holds 2 solutions invariant under the quarter turn, one of orbit 4
// holds 4 invariant under the half turn only, and one of orbit 8 holds 8
// invariant under neither). It returns an error if the numbers cannot come
// from one board, which would mean a broken search.
func Tally(n int, total, half, quarter uint64) (nqueens.Counts, error) {
	if n == 1 {
		if total != 1 || half != 1 || quarter != 1 {
			return nqueens.Counts{}, fmt.Errorf("tally n=1: want 1, 1, 1 solutions, got %d, %d, %d", total, half, quarter)
		}
		var c nqueens.Counts
		c.Add(nqueens.SymFull)
		return c, nil
	}
	if quarter > half || half > total || quarter%2 != 0 || (half-quarter)%4 != 0 || (total-half)%8 != 0 {
		return nqueens.Counts{}, fmt.Errorf("tally n=%d: %s with %s invariant under the half turn and %s under the quarter turn cannot form whole classes", n, phrase.Plural(total, "solution"), phrase.Count(half), phrase.Count(quarter))
	}
	c := nqueens.Counts{
		Total:  total,
		Orbit8: (total - half) / 8,
		Orbit4: (half - quarter) / 4,
		Orbit2: quarter / 2,
	}
	c.Unique = c.Orbit8 + c.Orbit4 + c.Orbit2
	return c, nil
}
