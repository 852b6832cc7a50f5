// Package join counts the solutions of a board of n by meeting in the
// middle: it lists the partial boards of each quarter, joins them into
// half boards, and counts the pairs of halves whose diagonals do not
// meet, never placing a whole board.
//
// Cut the board into a west and an east half by columns and into north
// and south by rows. A solution puts h = n/2 queens in each column half
// (odd n: see below), and the rows those of the east half take, R, decide
// the rest: the east half is a placement of R's rows on the east columns,
// itself a north quarter's piece beside a south quarter's on the other
// columns, and the west half places the other rows on the west columns.
// Two halves of one R make a solution exactly when no diagonal holds a
// queen of each, so the solutions of R are the pairs of R's east and west
// halves whose diagonal masks are disjoint: Board counts them 64 pairs a
// word, the shorter list's masks sliced bit by bit in blocks of 64, the
// other's grouped by the diagonals nearest the middle, where most pairs
// meet, so that a group skips the blocks it meets whole; with AVX-512, 8
// blocks are matched at once (wide.go).
//
// The square's symmetries save almost all of a factor 8. For even n, the
// mirror top to bottom maps R to R read backwards, so one R of each such
// pair is counted twice. A mirror in a long diagonal maps a solution
// whose east half has a queen on that diagonal to one whose west half
// has: east halves with a queen on either long diagonal are dropped, and
// each west half counts 2 for each long diagonal it holds a queen on. The
// solutions with no queen on a long diagonal are as many for R as for the
// other rows, read either way: they are counted with the least of those
// four.
// For odd n the middle row and column are placed first, one queen in
// each (one queen if it stands in the centre): each such pair of queens
// is counted once for its orbit under the 8 symmetries, and the four
// quarters beside them are joined as for even n; the centre queen's
// boards are counted once for each orbit of R under the two mirrors.
//
// The work of a board is cut into units, each a stride of the list of
// (middle queens, R) items, so that the units cost about the same and
// are independent: a count can be kept unit by unit, resumed and split
// into shards. The quarters' pieces take memory that grows about 9 times
// for each two n (Memory).
package join

import (
	"context"
	"fmt"
	"math/bits"
	"sync"

	"github.com/nqueens/nqueens/internal/parallel"
)

// MaxN is the largest board the join counts: its quarters (side 12) take
// 4.8 GiB.
const MaxN = 25

// maxUnits is the most units a board is cut into.
const maxUnits = 4096

// Board is the join of a board of n: its quarters' pieces and its list
// of items, cut into units. It is read-only once made, and safe for
// concurrent use by Counters.
type Board struct {
	n, h int
	// s is the offset of the south rows and of the east columns: h, or
	// h+1 past the middle line of an odd board.
	s     uint
	q     *quarters
	cfgs  []middle
	items []int // items[i]: the items of cfgs[:i] (prefix sums)
	units int
	cuts  cuts
}

// middle is a placement of the middle row's and column's queens of an
// odd board, one of its orbit under the 8 symmetries: the middle row's
// queen in column a, the middle column's in row b (a = b = h: one queen,
// in the centre). Even boards have one middle, with nothing placed.
type middle struct {
	a, b  int
	orbit uint64
	// rows and cols are the lines left to the quarters, as board masks;
	// e1, e2 the diagonals the middle queens take (global: r+c and
	// r-c+n-1).
	rows, cols uint32
	e1, e2     uint64
	k          int // the queens of the east half: |R|
	combos     int // the number of R: C(free rows, k)
}

// New returns the join of a board of n, listing its quarters' pieces
// (Memory says how much that takes). It returns an error if n is outside
// 1..MaxN.
func New(n int) (*Board, error) {
	b, err := layout(n)
	if err != nil {
		return nil, err
	}
	b.q = newQuarters(b.h)
	return b, nil
}

// layout returns the join of a board of n without its quarters' pieces:
// its items and units.
func layout(n int) (*Board, error) {
	if n < 1 || n > MaxN {
		return nil, fmt.Errorf("the join counts n from 1 to %d, got %d", MaxN, n)
	}
	h := n / 2
	b := &Board{n: n, h: h, s: uint(h + n%2)}
	b.cfgs = middles(n)
	b.items = make([]int, len(b.cfgs)+1)
	for i, m := range b.cfgs {
		b.items[i+1] = b.items[i] + m.combos
	}
	b.units = min(b.items[len(b.cfgs)], maxUnits)
	b.cuts = newCuts(h, n%2 == 0)
	return b, nil
}

// UnitsOf returns the number of units the work of a board of n is cut
// into (Board.Units), without listing its pieces; 0 if n is outside
// 1..MaxN.
func UnitsOf(n int) int {
	b, err := layout(n)
	if err != nil {
		return 0
	}
	return b.units
}

// Units returns the number of units the board's work is cut into: one
// for each item, up to 4096 (as n = 13 and every n from 15 have).
func (b *Board) Units() int { return b.units }

// Items returns the number of items of the board's work, which its units
// share out.
func (b *Board) Items() int { return b.items[len(b.cfgs)] }

// middles returns the placements of the middle queens of a board of n,
// one of each orbit, with the lines and diagonals they leave: for even n,
// the one empty placement.
func middles(n int) []middle {
	h := n / 2
	all := uint32(1)<<uint(n) - 1
	if n%2 == 0 {
		return []middle{{a: -1, b: -1, orbit: 1, rows: all, cols: all, k: h, combos: binomial(n, h)}}
	}
	var out []middle
	for a := range n {
		for b := range n {
			if (a == h) != (b == h) || a != h && abs(a-h) == abs(b-h) {
				continue
			}
			orbit, least := middleOrbit(n, a, b)
			if !least {
				continue
			}
			m := middle{a: a, b: b, orbit: orbit,
				rows: all &^ (1 << uint(h)) &^ (1 << uint(b)),
				cols: all &^ (1 << uint(h)) &^ (1 << uint(a)),
				e1:   1<<uint(h+a) | 1<<uint(b+h),
				e2:   1<<uint(h-a+n-1) | 1<<uint(b-h+n-1)}
			m.k = bits.OnesCount32(m.cols >> uint(h+1))
			m.combos = binomial(bits.OnesCount32(m.rows), m.k)
			out = append(out, m)
		}
	}
	return out
}

// middleOrbit returns the number of distinct images of the middle queens
// (h, a) and (b, h) of a board of n under the 8 symmetries, and whether
// (a, b) is the least of them.
func middleOrbit(n, a, b int) (orbit uint64, least bool) {
	h, m := n/2, n-1
	seen := map[[2]int]bool{}
	least = true
	for g := range 8 {
		// The image of the middle row's queen and the middle column's.
		r1, c1, r2, c2 := h, a, b, h
		if g&4 != 0 {
			c1, c2 = m-c1, m-c2
		}
		for range g & 3 {
			r1, c1 = c1, m-r1
			r2, c2 = c2, m-r2
		}
		if r1 != h { // the turn took each queen to the other's line
			r1, c1, r2, c2 = r2, c2, r1, c1
		}
		img := [2]int{c1, r2}
		seen[img] = true
		if img[0] < a || img[0] == a && img[1] < b {
			least = false
		}
	}
	return uint64(len(seen)), least
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// binomial returns C(n, k).
func binomial(n, k int) int {
	if k < 0 || k > n {
		return 0
	}
	r := 1
	for i := range k {
		r = r * (n - i) / (i + 1)
	}
	return r
}

// count returns the solutions of unit u, counted with c, each weighted
// by the number of solutions it stands for, and true; or false if stop
// is raised first.
func (b *Board) count(u int, c *counter, stop *parallel.Stop) (uint64, bool) {
	var total uint64
	for i := u; i < b.Items(); i += b.units {
		if stop.Stopped() {
			return 0, false
		}
		total += b.item(i, c)
	}
	return total, true
}

// decode returns the middle queens and the east rows of item i.
func (b *Board) decode(i int) (*middle, uint32) {
	ci := 0
	for b.items[ci+1] <= i {
		ci++
	}
	m := &b.cfgs[ci]
	return m, unrank(i-b.items[ci], m.k, m.rows)
}

// item returns the weighted solutions of item i.
func (b *Board) item(i int, c *counter) uint64 {
	m, rows := b.decode(i)
	weight, clean := m.orbit, keep
	switch {
	case b.n%2 == 0:
		// R and R read backwards have as many solutions: count the least
		// of the two, twice. The solutions with no queen on a long
		// diagonal are also as many for the other rows, read either way:
		// count them with the least of the four.
		rev := reverse(rows, b.n)
		if rev < rows {
			return 0
		} else if rev > rows {
			weight = 2
		}
		other := rows ^ m.rows
		if o := min(other, reverse(other, b.n)); o > rows {
			clean = double
		} else if o < rows {
			clean = drop
		}
	case m.a == b.h:
		// The centre queen: R's orbit under the mirrors top to bottom
		// (R read backwards) and east to west (the other free rows).
		other := rows ^ m.rows
		images := [4]uint32{rows, reverse(rows, b.n), other, reverse(other, b.n)}
		for _, r := range images {
			if r < rows {
				return 0
			}
		}
		weight = uint64(distinct(images))
	}
	return weight * b.pairs(m, rows, clean, c)
}

// reverse returns the rows of a board of n read from the bottom up.
func reverse(rows uint32, n int) uint32 {
	return bits.Reverse32(rows) >> uint(32-n)
}

// distinct returns the number of distinct values of v.
func distinct(v [4]uint32) int {
	d := 0
	for i := range v {
		dup := false
		for j := range i {
			dup = dup || v[j] == v[i]
		}
		if !dup {
			d++
		}
	}
	return d
}

// unrank returns the rank-th subset, in colexicographic order, of k of
// the lines of mask.
func unrank(rank, k int, mask uint32) uint32 {
	// Positions of the lines of mask, in order.
	var pos [32]int
	m := 0
	for x := mask; x != 0; x &= x - 1 {
		pos[m] = bits.TrailingZeros32(x)
		m++
	}
	var out uint32
	for j := m - 1; k > 0 && j >= 0; j-- {
		// Subsets of k whose top line is below j: C(j, k).
		if c := binomial(j, k); rank >= c {
			rank -= c
			out |= 1 << uint(pos[j])
			k--
		}
	}
	return out
}

// pairs returns the number of pairs of compatible east and west halves
// for the middle m and east rows rows.
func (b *Board) pairs(m *middle, rows uint32, clean int, c *counter) uint64 {
	h, s := uint(b.h), b.s
	full := uint32(1)<<h - 1
	rt, rb := rows&full, rows>>s&full
	ft, fb := m.rows&full, m.rows>>s&full
	east := c.east.build(b, side{rt, rb, m.cols >> s & full, east, m.e1 >> s, m.e2, keep})
	west := c.west.build(b, side{ft &^ rt, fb &^ rb, m.cols & full, west, m.e1, m.e2 >> s, clean})
	return c.m.count(b, east, west)
}

// Memory returns the bytes a count of n by the join takes on workers
// goroutines (all cores when workers < 1): its quarters' pieces, each
// worker's lists of halves (workerBytes), and 24 MiB for the rest of the
// process (the search for symmetric solutions among it); 0 if n is
// outside 1..MaxN. The peak measured for n = 20 on 2 cores, 95 MiB, is
// under the 101 MiB it gives.
func Memory(n, workers int) int64 {
	if n < 1 || n > MaxN {
		return 0
	}
	h := n / 2
	return pieceCounts[h]*8 + 4<<(2*h) + int64(parallel.Workers(workers))*workerBytes[h] + 24<<20
}

// workerBytes is, by h = n/2, a bound on the memory a worker's lists of
// halves take: the longest lists of a sample of units measured 3 MB for n
// = 20, 2 MB for 21 and 16 MB for 22, each n 2 up about 6 times the one
// before; the bounds leave room for the longest units of all.
var workerBytes = [...]int64{8 << 20, 8 << 20, 8 << 20, 8 << 20, 8 << 20, 8 << 20, 8 << 20,
	8 << 20, 8 << 20, 8 << 20, 8 << 20, 48 << 20, 384 << 20}

// pieceCounts is the number of pieces of a quarter of side h, h = 0..12.
var pieceCounts = [...]int64{1, 2, 5, 18, 87, 462, 2635, 16870, 118969, 915442, 7535369, 66807234, 633443407}

// counter holds what a goroutine needs to count units: its lists of
// halves and its sieve. The zero counter is ready to use; a counter is
// used by one goroutine at a time.
type counter struct {
	east, west halves
	m          matcher
}

// Count counts the units of the board numbered units on workers
// goroutines (all cores when workers < 1), and calls done with the index
// in units of each one counted and its solutions, one call at a time, in
// any order. It returns ctx.Err() if ctx is cancelled before every unit
// is counted; a unit cut short is not reported. It panics if a unit is
// not between 0 and Units()-1.
func (b *Board) Count(ctx context.Context, units []int, workers int, done func(i int, solutions uint64)) error {
	for _, u := range units {
		if u < 0 || u >= b.units {
			panic(fmt.Sprintf("join: unit %d of %d", u, b.units))
		}
	}
	pool := sync.Pool{New: func() any { return new(counter) }}
	var mu sync.Mutex
	return parallel.Each(ctx, len(units), workers, func(i int, stop *parallel.Stop) {
		c := pool.Get().(*counter)
		defer pool.Put(c)
		s, ok := b.count(units[i], c, stop)
		if !ok {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		done(i, s)
	})
}

// total returns the number of solutions of a board of n, counted by the
// join on workers goroutines (all cores when workers < 1). It returns
// an error if n is outside 1..MaxN, and ctx.Err() if ctx is cancelled
// first.
func total(ctx context.Context, n, workers int) (uint64, error) {
	b, err := New(n)
	if err != nil {
		return 0, err
	}
	all := make([]int, b.Units())
	for i := range all {
		all[i] = i
	}
	var total uint64
	err = b.Count(ctx, all, workers, func(_ int, s uint64) { total += s })
	return total, err
}
