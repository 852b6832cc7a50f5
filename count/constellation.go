package count

import (
	"math/bits"
	"slices"
	"sync"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/parallel"
)

// Counting by constellations.
//
// Every solution has exactly one queen in each border line of the board:
// the top and bottom rows and the left and right columns (a corner queen
// stands in two). Those queens are its constellation, written (a, b, k, l):
// the columns of the queens of the top and bottom rows and the rows of the
// queens of the left and right columns. A symmetry of the square maps the
// solutions of a constellation one to one onto those of its image, so the
// total is the sum, over one constellation of each orbit, of the orbit's
// size times the solutions of that constellation. Constellations lists
// those representatives; each is searched with its border queens placed
// first, so that every row the search fills is already pruned by them.
//
// Which of the 8 images of a constellation is searched matters for speed,
// not for the count: the row-by-row search is far cheaper when the queen
// of its last row is near a corner (its long diagonal then prunes every
// row) and the queens of the side columns are low (the rows they fill are
// skipped where the search would branch most). Measured on n = 14 and 16,
// this choice searches 1.66 times fewer nodes than the lexicographically
// smallest image, within 6% of the best of the 8.
//
// The classes follow from the total and the numbers of solutions that the
// half and quarter turns leave unchanged (Burnside's lemma; no solution of
// n > 1 is its own mirror image), which a much smaller search finds.

// Constellation is one orbit of the queens a solution has on the border of
// the board, the unit of work of Solutions and Board. The constellations of a board, as
// Constellations returns them, partition its solutions' orbits.
type Constellation struct {
	n uint8
	// a, b, k, l: the top row's column, the bottom row's column, the left
	// column's row and the right column's row, in the image searched.
	a, b, k, l uint8
	// orbit is the number of distinct images of the constellation.
	orbit uint8
}

// N returns the board size of the constellation.
func (c Constellation) N() int { return int(c.n) }

// Queens returns the squares of the constellation's border queens, as
// {row, column} pairs, in the orientation its search uses: 4 queens, or
// fewer when a queen stands in a corner.
func (c Constellation) Queens() [][2]int {
	qs, k := c.queens()
	out := make([][2]int, k)
	for i := range k {
		out[i] = [2]int{int(qs[i].r), int(qs[i].c)}
	}
	return out
}

// Orbit returns the number of distinct images of the constellation under
// the 8 symmetries: 8, 4 (it is its own image under the half turn), 2 (the
// quarter turn) or 1 (n = 1).
func (c Constellation) Orbit() int { return int(c.orbit) }

type square struct{ r, c uint8 }

func (p square) attacks(q square) bool {
	dr, dc := int(p.r)-int(q.r), int(p.c)-int(q.c)
	return dr == 0 || dc == 0 || dr == dc || dr == -dc
}

// border is a constellation's tuple (a, b, k, l).
type border [4]uint8

// queens returns the distinct squares of the border queens of t on a board
// of n, and reports whether they are a possible constellation: a corner
// queen counts for both its lines, and no two queens attack each other.
func (t border) queens(n int) (qs [4]square, k int, ok bool) {
	m := uint8(n - 1)
	a, b, kk, l := t[0], t[1], t[2], t[3]
	if (a == 0) != (kk == 0) || (a == m) != (l == 0) || (b == 0) != (kk == m) || (b == m) != (l == m) {
		return qs, 0, false
	}
	for _, s := range [4]square{{0, a}, {m, b}, {kk, 0}, {l, m}} {
		dup := false
		for _, q := range qs[:k] {
			if q == s {
				dup = true
			} else if q.attacks(s) {
				return qs, 0, false
			}
		}
		if !dup {
			qs[k] = s
			k++
		}
	}
	return qs, k, true
}

// image returns the tuple of the image of the border queens qs under g:
// the mirror left-right if g&4, then g&3 quarter turns.
func image(n int, qs []square, g int) border {
	m := uint8(n - 1)
	var t border
	for _, q := range qs {
		r, c := q.r, q.c
		if g&4 != 0 {
			c = m - c
		}
		for range g & 3 {
			r, c = c, m-r
		}
		if r == 0 {
			t[0] = c
		}
		if r == m {
			t[1] = c
		}
		if c == 0 {
			t[2] = r
		}
		if c == m {
			t[3] = r
		}
	}
	return t
}

func (t border) less(u border) bool {
	for i := range t {
		if t[i] != u[i] {
			return t[i] < u[i]
		}
	}
	return false
}

// cost ranks the images of a constellation for the search, lower being
// faster: a weighted sum of the bottom queen's distance from its nearest
// corner (weight 20) and, against it, the rows of the side queens
// (weight 3), fitted on n = 14 and 16.
func (t border) cost(n int) int {
	m := n - 1
	b := int(t[1])
	return 20*min(b, m-b) - 3*(int(t[2])+int(t[3]))
}

func (c Constellation) queens() ([4]square, int) {
	qs, k, _ := border{c.a, c.b, c.k, c.l}.queens(int(c.n))
	return qs, k
}

// Constellations returns one constellation of each orbit of a board of n,
// in lexicographic order of the orbits' smallest tuples, each in the
// orientation its search is fastest in. It panics if n is outside
// 1..nqueens.MaxN.
func Constellations(n int) []Constellation {
	if err := nqueens.CheckN(n); err != nil {
		panic("count: " + err.Error())
	}
	var out []Constellation
	for a := range n {
		for b := range n {
			for k := range n {
				for l := range n {
					t := border{uint8(a), uint8(b), uint8(k), uint8(l)}
					qs, nq, ok := t.queens(n)
					if !ok {
						continue
					}
					var imgs [8]border
					canon := true
					best := 0
					for g := range imgs {
						imgs[g] = image(n, qs[:nq], g)
						if imgs[g].less(t) {
							canon = false
							break
						}
						if imgs[g].cost(n) < imgs[best].cost(n) {
							best = g
						}
					}
					if !canon {
						continue
					}
					orbit := 0
					for g := range imgs {
						if !contains(imgs[:g], imgs[g]) {
							orbit++
						}
					}
					s := imgs[best]
					out = append(out, Constellation{n: uint8(n), a: s[0], b: s[1], k: s[2], l: s[3], orbit: uint8(orbit)})
				}
			}
		}
	}
	return out
}

func contains(ts []border, t border) bool {
	for _, u := range ts {
		if u == t {
			return true
		}
	}
	return false
}

// step describes one free row of a constellation's search: a row the
// border queens leave empty, searched in order from the top.
type step struct {
	// block holds the squares of the next free row that the border queens
	// take (by column or diagonal) and the bits beyond the board.
	block uint32
	// shift is the number of rows from this free row to the next.
	shift uint32
	// last reports that the next free row is the last one.
	last bool
}

// place returns the child of a node of free row i, s being steps[i], for
// the queen on bit, one of the free squares of the row: the free squares
// of the next free row (0 if none), and the columns and diagonals the
// queens placed take (cols, ld and rd those above the queen), as the next
// free row holds them. Every walk of a plan's rows steps through it, but
// for deep's leaf row, whose step deep keeps in registers.
func (s *step) place(bit, cols, ld, rd uint32) (next, c, l, d uint32) {
	c, l, d = cols|bit, (ld|bit)<<(s.shift&31), (rd|bit)>>(s.shift&31)
	return ^(c | l | d | s.block), c, l, d
}

// quadRows is the number of free rows at the bottom of a search that a
// table lists the ways to fill: the search looks them up instead of
// branching four more times, where most of its nodes are. The table is
// indexed by the set of four columns those rows take (plan.index); a set
// allows 3.2 ways on average (measured on n = 16), at most 24.
const quadRows = 4

// directMaxN is the largest n whose table is indexed by the set of four
// columns itself, shifted right by one: the border queens always take
// columns 0 and n-1, so the set fits in n-2 bits, and quadSlots indexes
// hold every set up to n = 21. The index then costs a shift where
// quadIndex costs about a tenth of a count (measured on n = 16 to 21:
// the sets a constellation uses are few, and the table's size matters
// little). Larger boards use quadIndex, as the table would double with
// each n: at n = 21 it takes 2.5 MB of every plan.
const directMaxN = 21

// table says whether a plan has a table of its last quadRows free rows
// (not for the tree of Nodes and Cost), and how it is indexed: by the set
// of columns itself (n <= directMaxN), or by quadIndex (any n).
type table uint8

const (
	noTable table = iota
	directTable
	indexedTable
)

// quadIndexes is the number of sets of four columns of 0..MaxN-1 (the
// indexes quadIndex gives), and quadSlots the power of two above it and
// above the direct indexes of directMaxN, the size of a plan's index: a
// mask rather than a modulo spares the bounds check.
const (
	quadIndexes = nqueens.MaxN * (nqueens.MaxN - 1) * (nqueens.MaxN - 2) * (nqueens.MaxN - 3) / 24
	quadSlots   = 1 << (directMaxN - 2)
)

// choose2, choose3 and choose4 hold the binomial coefficients C(x, 2),
// C(x, 3) and C(x, 4).
var choose2, choose3, choose4 [nqueens.MaxN]uint32

func init() {
	for x := range uint32(nqueens.MaxN) {
		choose2[x] = x * (x - 1) / 2
		choose3[x] = x * (x - 1) * (x - 2) / 6
		choose4[x] = x * (x - 1) * (x - 2) * (x - 3) / 24
	}
}

// quadIndex returns the index in 0..quadIndexes-1 of a set of exactly four
// columns in the combinatorial number system: the sets of the columns
// 0..n-1 have the indexes below C(n, 4).
func quadIndex(cols uint32) uint32 {
	w := bits.TrailingZeros32(cols)
	cols &= cols - 1
	x := bits.TrailingZeros32(cols)
	cols &= cols - 1
	y := bits.TrailingZeros32(cols)
	cols &= cols - 1
	z := bits.TrailingZeros32(cols)
	return choose4[z&(nqueens.MaxN-1)] + choose3[y&(nqueens.MaxN-1)] + choose2[x&(nqueens.MaxN-1)] + uint32(w)
}

// noQuad pads the chunks of a plan's table: it fits no queens above, as
// the queen of the free row just above always stands on a diagonal of ld
// or rd.
const noQuad = ^uint64(0)

// quadFill is one way to fill the last quadRows free rows, as prepare
// finds it: the index of its columns, and its diagonals as the masks of
// the first of those rows would hold them, ld | rd<<32.
type quadFill struct {
	index uint32
	diags uint64
}

// plan is a constellation's search laid out row by row.
type plan struct {
	// free0 is the free squares of the first free row; rows the number of
	// free rows.
	free0 uint32
	rows  int
	// inner holds the columns the border queens leave free.
	inner uint32
	// stopRows is stopRows(n).
	stopRows int
	steps    [nqueens.MaxN]step
	// leaf is the free row whose children are the first of the last
	// quadRows, looked up in the table: rows-quadRows-1, or -1 if there
	// is no table (the board is too small for one, rows < quadRows+2, or
	// prepare was told not to build it).
	leaf   int
	direct bool // the table's index is the set of columns >> 1 (see index)
	// quadAt[i] locates the ways to fill the last quadRows free rows whose
	// columns have index i (see index): first<<3 | chunks, the ways being
	// the chunks quads[first : first+chunks]. A set of no ways has
	// first 0, a chunk of padding, and the chunk after a set's is always
	// there: quads[first] and quads[first+1] can be read for any set.
	quadAt [quadSlots]uint32
	used   []uint32 // the indexes whose quadAt is not 0, for prepare to clear
	// quads lists the ways, ld | rd<<32 as in quadFill, in chunks of 4
	// padded with noQuad, after a chunk of padding and before another.
	quads [][4]uint64
	// fills and ways are prepare's scratch: the ways found, and how many
	// of each index (all 0 between prepares).
	fills []quadFill
	ways  [quadSlots]uint8
}

// prepare lays out the search of c in p, with the table t of its last
// quadRows free rows (Solutions). With noTable p.leaf is -1: the tree that
// Nodes and Cost walk stops above the table, and building it took most of
// their time.
func (p *plan) prepare(c Constellation, t table) {
	n := int(c.n)
	qs, k := c.queens()
	var used [nqueens.MaxN]bool
	var attacked [nqueens.MaxN]uint32
	var cols uint32
	for _, q := range qs[:k] {
		used[q.r] = true
		cols |= 1 << q.c
		for r := range n {
			d := r - int(q.r)
			if c := int(q.c) + d; c >= 0 && c < n {
				attacked[r] |= 1 << uint(c)
			}
			if c := int(q.c) - d; c >= 0 && c < n {
				attacked[r] |= 1 << uint(c)
			}
		}
	}
	off := ^full(n)
	p.inner = full(n) &^ cols
	p.stopRows = stopRows(n)
	p.rows = 0
	p.leaf = -1
	var rows [nqueens.MaxN]int
	for r := range n {
		if !used[r] {
			rows[p.rows] = r
			p.rows++
		}
	}
	if p.rows == 0 {
		return
	}
	free := func(r int) uint32 { return ^(attacked[r] | cols | off) }
	p.free0 = free(rows[0])
	for i := 0; i+1 < p.rows; i++ {
		next := rows[i+1]
		p.steps[i] = step{
			block: attacked[next] | cols | off,
			shift: uint32(next - rows[i]),
			last:  i+2 == p.rows,
		}
	}
	if t == noTable || p.rows < quadRows+2 {
		return
	}
	p.leaf = p.rows - quadRows - 1
	p.direct = t == directTable
	// The ways to fill the last four free rows t0 < t1 < t2 < t3.
	t0, t1, t2, t3 := rows[p.rows-4], rows[p.rows-3], rows[p.rows-2], rows[p.rows-1]
	// hits returns the squares of row r that a queen on (r0, x), r0 < r,
	// takes. (A shift by a negative int converted to uint, or by 32 or
	// more, yields 0: a diagonal that leaves the board takes nothing.)
	hits := func(r, r0, x int) uint32 {
		d := r - r0
		return 1<<uint(x) | 1<<uint(x+d) | 1<<uint(x-d)
	}
	// diag returns the diagonals of a queen on (r, x), r >= t0, as the
	// masks of row t0 hold them, ld | rd<<32.
	diag := func(r, x int) uint64 {
		d := r - t0
		return uint64(uint32(1)<<uint(x-d)) | uint64(uint32(1)<<uint(x+d))<<32
	}
	p.fills = p.fills[:0]
	r1, r2, r3 := free(t1), free(t2), free(t3)
	for f0 := free(t0); f0 != 0; f0 &= f0 - 1 {
		x0 := bits.TrailingZeros32(f0)
		c0, g0 := f0&-f0, diag(t0, x0)
		for f1 := r1 &^ hits(t1, t0, x0); f1 != 0; f1 &= f1 - 1 {
			x1 := bits.TrailingZeros32(f1)
			c1, g1 := c0|f1&-f1, g0|diag(t1, x1)
			h2 := hits(t2, t0, x0) | hits(t2, t1, x1)
			h3 := hits(t3, t0, x0) | hits(t3, t1, x1)
			for f2 := r2 &^ h2; f2 != 0; f2 &= f2 - 1 {
				x2 := bits.TrailingZeros32(f2)
				c2, g2 := c1|f2&-f2, g1|diag(t2, x2)
				for f3 := r3 &^ (h3 | hits(t3, t2, x2)); f3 != 0; f3 &= f3 - 1 {
					p.fills = append(p.fills, quadFill{
						index: p.index(c2 | f3&-f3),
						diags: g2 | diag(t3, bits.TrailingZeros32(f3)),
					})
				}
			}
		}
	}
	// Lay the ways out by index, in chunks of 4. Chunk 0 is padding, where
	// the sets of no ways point, and so is the chunk after the last: deep
	// reads two chunks whatever the set.
	for _, i := range p.used {
		p.quadAt[i], p.ways[i] = 0, 0 // ways too, should the last prepare have stopped short
	}
	p.used = p.used[:0]
	for _, f := range p.fills {
		if p.ways[f.index] == 0 {
			p.used = append(p.used, f.index)
		}
		p.ways[f.index]++
	}
	at := uint32(1)
	for _, i := range p.used {
		chunks := (uint32(p.ways[i]) + 3) / 4
		p.quadAt[i] = at<<3 | chunks
		at += chunks
		p.ways[i] = 0
	}
	at++
	p.quads = slices.Grow(p.quads[:0], int(at))[:at]
	for i := range p.quads {
		p.quads[i] = [4]uint64{noQuad, noQuad, noQuad, noQuad}
	}
	for _, f := range p.fills {
		w := p.ways[f.index]
		p.quads[p.quadAt[f.index]>>3+uint32(w/4)][w%4] = f.diags
		p.ways[f.index]++
	}
	for _, i := range p.used {
		p.ways[i] = 0
	}
}

// index returns the index in the table of the set of four columns cols,
// which excludes columns 0 and n-1 (see directMaxN).
func (p *plan) index(cols uint32) uint32 {
	if !p.direct {
		return quadIndex(cols)
	}
	return cols >> 1
}

// plans reuses plans, which are large, across constellations.
var plans = sync.Pool{New: func() any { return new(plan) }}

// Solutions returns the number of solutions whose border queens are those
// of c, in the orientation c is searched in; the orbit of c holds
// c.Orbit() times as many.
func (c Constellation) Solutions() uint64 {
	return c.solutions(nil)
}

// stopRows returns how many free rows from the top check the Stop on
// a board of n, so that a cancelled count stops within a small part of a
// constellation: 2 up to n = 18, one more for each n above (each n
// multiplies the work by about 7, about the branching of a row).
func stopRows(n int) int { return max(2, n-16) }

func (c Constellation) solutions(stop *parallel.Stop) uint64 {
	if c.n <= directMaxN {
		return c.search(stop, directTable)
	}
	return c.search(stop, indexedTable)
}

// search counts the solutions of c with the table t (not noTable).
func (c Constellation) search(stop *parallel.Stop, t table) uint64 {
	if c.n == 0 {
		return 0 // the zero Constellation is none
	}
	p := plans.Get().(*plan)
	defer plans.Put(p)
	p.prepare(c, t)
	switch {
	case p.rows == 0:
		return 1
	case p.free0 == 0:
		return 0
	case p.rows == 1:
		return 1 // one column is left, and free0 says it is open
	case p.leaf <= p.stopRows+1:
		// No table (p.leaf < 0), or a board so small (n <= 12) that the
		// rows that check stop reach deep's last two: cancelled in no time.
		return p.plain(0, p.free0, 0, 0, 0)
	}
	return p.top(0, p.free0, 0, 0, 0, stop)
}

// plain counts the ways to fill free row i and the free rows below it of
// a small board, with no table: free is the non-empty set of free squares
// of row i, cols, ld and rd the columns and diagonals the queens placed
// above take.
func (p *plan) plain(i int, free, cols, ld, rd uint32) uint64 {
	s := &p.steps[i]
	var t uint64
	for ; free != 0; free &= free - 1 {
		switch next, c, l, d := s.place(free&-free, cols, ld, rd); {
		case next == 0:
		case s.last:
			t++ // one column is left, and next says it is open
		default:
			t += p.plain(i+1, next, c, l, d)
		}
	}
	return t
}

// top searches the first stopRows free rows, checking stop before each
// square, and hands the rows below to deep; p.leaf > p.stopRows+1.
func (p *plan) top(i int, free, cols, ld, rd uint32, stop *parallel.Stop) uint64 {
	if i >= p.stopRows {
		return p.deep(uint(i), free, cols, ld, rd)
	}
	s := &p.steps[i]
	var t uint64
	for ; free != 0; free &= free - 1 {
		if stop.Stopped() {
			return t
		}
		if next, c, l, d := s.place(free&-free, cols, ld, rd); next != 0 {
			t += p.top(i+1, next, c, l, d, stop)
		}
	}
	return t
}

// frame is a free row of deep's search waiting for its next square: the
// squares of the row left to try, and the columns and diagonals the queens
// above it take.
type frame struct{ free, cols, ld, rd uint32 }

// deep returns the number of ways to fill free row i and the free rows
// below it, i < p.leaf-1, given free, the non-empty set of free squares of
// row i, and the columns and diagonals that the queens placed above take
// (the border queens are in steps). Above the leaf row it looks one row
// ahead: a square that leaves the next free row no free square is not
// descended into. This is the hot loop of Count. It keeps its own stack
// of frames rather than recursing, and runs the free row p.leaf, whose
// children it looks up in the table, and the row above it as two loops of
// their own, one in the other: most of its nodes are there.
// Indexes &(MaxN-1) and %quadSlots spare the bounds checks; ps, the steps
// of those two rows, is read from memory to spare registers.
func (p *plan) deep(i uint, free, cols, ld, rd uint32) uint64 {
	var stack [nqueens.MaxN]frame
	top, leaf := i, uint(p.leaf)
	ps := (*[2]step)(p.steps[leaf-1 : leaf+1])
	var t uint64
	for {
		if free == 0 {
			if i == top {
				return t
			}
			i--
			f := &stack[i&(nqueens.MaxN-1)]
			free, cols, ld, rd = f.free, f.cols, f.ld, f.rd
			continue
		}
		bit := free & -free
		free &= free - 1
		next, c, l, d := p.steps[i&(nqueens.MaxN-1)].place(bit, cols, ld, rd)
		if next == 0 {
			continue
		}
		if i+2 != leaf {
			stack[i&(nqueens.MaxN-1)] = frame{free, cols, ld, rd}
			i++
			free, cols, ld, rd = next, c, l, d
			continue
		}
		// next is the row above the leaf row, nx the leaf row: for each
		// square of the leaf row, the ways the table lists to fill the
		// last quadRows free rows below. The leaf row does not look ahead:
		// a third of its squares leave the next row no free square, a
		// branch too hard to predict to be worth what the lookup costs (a
		// set of no ways fits none).
		for next != 0 {
			bit := next & -next
			next &= next - 1
			nx, c, l, d := ps[0].place(bit, c, l, d)
			for nx != 0 {
				bit := nx & -nx
				nx &= nx - 1
				c2, l2, d2 := c|bit, (l|bit)<<(ps[1].shift&31), (d|bit)>>(ps[1].shift&31)
				at := p.quadAt[p.index(p.inner&^c2)%quadSlots]
				q := uint64(l2) | uint64(d2)<<32
				// A set has at most 2 chunks of ways in 98% of the lookups
				// (n = 16), and a way fits in 6% of them: test the first 2
				// chunks without a branch (the second counts only if the set
				// has it), the rest in a loop, and count the ways only if one
				// fits.
				o, k := at>>3, at&7
				e, f := &p.quads[o], &p.quads[o+1]
				one := -((uint64(k) - 2) >> 63) // all ones if k < 2, else 0
				m := min(e[0]&q, e[1]&q, e[2]&q, e[3]&q, min(f[0]&q, f[1]&q, f[2]&q, f[3]&q)|one)
				for o += 2; o < at>>3+k; o++ {
					es := &p.quads[o]
					m = min(m, es[0]&q, es[1]&q, es[2]&q, es[3]&q)
				}
				if m == 0 {
					t += p.ways4(at, q)
				}
			}
		}
	}
}

// ways4 returns the number of ways of the chunks at (first<<3 | chunks, as
// in quadAt) that fit the diagonals q (ld | rd<<32).
func (p *plan) ways4(at uint32, q uint64) uint64 {
	var miss uint64
	for o, end := at>>3, at>>3+at&7; o < end; o++ {
		es := &p.quads[o]
		miss += taken(es[0], q) + taken(es[1], q) + taken(es[2], q) + taken(es[3], q)
	}
	return 4*uint64(at&7) - miss
}

// taken returns 1 if a queen of the way e stands on a diagonal of q (both
// ld | rd<<32), and 0 otherwise, without a branch.
func taken(e, q uint64) uint64 {
	x := e & q
	return (x | -x) >> 63
}
