package canonical

import (
	"context"
	"iter"
	"math/bits"
	"sync"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/enumerate"
	"github.com/nqueens/nqueens/internal/parallel"
)

// The search for canonical representatives.
//
// Let p be canonical and c = p[0]. Every image's first entry is one of the
// 8 distances of a border queen from a corner along its side: p[0] and
// m-p[0] (top row), p[m] and m-p[m] (bottom row), q[0] and m-q[0] (left
// column), q[m] and m-q[m] (right column). Since p is the smallest image,
// c is the smallest of them, which the search enforces as it goes:
//   - c <= m-c: the first-row queen is in the left half;
//   - the queens of the left and right columns lie in rows c..m-c;
//   - the queen of the bottom row lies in columns c..m-c.
// When c = 0 (a corner queen) no other queen can sit in a corner, so the
// only image that can tie on the first entry is the transpose, and
// p < transpose(p) holds exactly when the queen of column 1 lies below row
// p[1]. No solution of n > 1 is symmetric under the transpose, so every
// corner candidate is canonical with orbit 8. Other candidates are
// compared with their 7 images when complete, which also yields the orbit.

// UnitDepth returns how many rows the units of a board of n fix: one more
// than the plain search's units (enumerate.UnitDepth), since this search
// prunes about seven eighths of the tree, and at least 2, so that a unit
// fixes the rows that shape the pruning.
func UnitDepth(n int) int {
	return min(max(enumerate.UnitDepth(n)+1, 2), n, enumerate.MaxDepth)
}

// forbidden returns, for every row, the columns the pruning rules out for a
// board of n whose first two queens are in columns c and p1.
func forbidden(n, c, p1 int) [nqueens.MaxN]uint32 {
	var f [nqueens.MaxN]uint32
	m := n - 1
	if n < 2 {
		return f
	}
	if c == 0 {
		for r := 2; r < p1 && r < n; r++ {
			f[r] = 1 << 1
		}
		return f
	}
	sides := uint32(1) | uint32(1)<<uint(m)
	for r := 1; r < n; r++ {
		if r < c || r > m-c {
			f[r] |= sides
		}
	}
	var mid uint32
	for col := c; col <= m-c; col++ {
		mid |= 1 << uint(col)
	}
	f[m] |= full(n) &^ mid
	return f
}

func full(n int) uint32 { return uint32(1<<uint(n) - 1) }

// Units returns the work units of a board of n in lexicographic order of
// their prefixes, each fixing UnitDepth(n) rows. Prefixes the pruning
// rules out are left out. It panics if n is outside 1..nqueens.MaxN.
func Units(n int) []enumerate.Unit {
	if err := nqueens.CheckN(n); err != nil {
		panic("canonical: " + err.Error())
	}
	return unitsBelow(n, UnitDepth(n), enumerate.Unit{})
}

// unitsBelow returns the prefixes of depth rows of a board of n that the
// pruning leaves and that begin with the queens of top (the zero enumerate.Unit for
// none), in lexicographic order.
func unitsBelow(n, depth int, top enumerate.Unit) []enumerate.Unit {
	// The rules for the first queen's column c apply from row 1 on,
	// whatever the second queen's column turns out to be; those of the
	// corner (c = 0) need it.
	var f [nqueens.MaxN]uint32
	key := [2]int{-1, -1}
	return enumerate.UnitsWhere(n, depth, func(above enumerate.Unit) uint32 {
		row := above.Depth()
		only := ^uint32(0)
		if row < top.Depth() {
			only = 1 << uint(top.Queen(row))
		}
		if row == 0 {
			return full((n+1)/2) & only
		}
		k := [2]int{above.Queen(0), n}
		if row > 1 {
			k[1] = above.Queen(1)
		}
		if k != key {
			f, key = forbidden(n, k[0], k[1]), k
		}
		return ^f[row] & only
	})
}

// searcher runs the pruned search below one unit's prefix.
type searcher struct {
	n    int
	last int
	// block holds, for every row, the squares the pruning rules out plus
	// every bit beyond the board, so that ^(cols|ld|rd|block[r]) is exactly
	// the free squares of row r.
	block [nqueens.MaxN]uint32
	// need holds, for every row, the columns the rows above it must
	// already occupy: the queens of the side columns lie in rows c..m-c,
	// so from row m-c+1 on both side columns must be taken.
	need   [nqueens.MaxN]uint32
	corner bool
	p      [nqueens.MaxN]uint8
	counts nqueens.Counts
	// emit, when set, receives every canonical solution found, as a copy
	// of p, so that the searcher itself does not escape to the heap.
	emit func(p [nqueens.MaxN]uint8, s nqueens.Symmetry)
	// symmetricOnly limits emit to the classes with a symmetry.
	symmetricOnly bool
	// stop, once set (by emit), ends the search: nothing more is found.
	stop bool
}

// run searches the unit's subtree, adding what it finds to s.counts and
// calling s.emit.
func (s *searcher) run(u enumerate.Unit) {
	if u.N() == 1 {
		s.n, s.last = 1, 0
		s.p[0] = 0
		s.found(nqueens.SymFull)
		return
	}
	start, free, cols, ld, rd, ok := s.init(u)
	switch {
	case !ok:
	case start == s.n:
		s.leaf()
	default:
		s.place(start, free, cols, ld, rd)
	}
}

// init prepares s for the search below the unit's prefix (of n > 1) and
// returns the row the search starts at with its free squares, and the
// columns and diagonals the prefix occupies. It reports false if the
// prefix rules itself out, or leaves the next row no free square. When
// the prefix fills the board, start is n.
func (s *searcher) init(u enumerate.Unit) (start int, free, cols, ld, rd uint32, ok bool) {
	n := u.N()
	s.n, s.last = n, n-1
	c := u.Queen(0)
	p1 := n
	if u.Depth() > 1 {
		p1 = u.Queen(1)
	}
	s.corner = c == 0
	f := forbidden(n, c, p1)
	off := ^full(n)
	for r := range f {
		s.block[r] = f[r] | off
		s.need[r] = 0
		if c > 0 && r > n-1-c {
			s.need[r] = 1 | 1<<uint(n-1)
		}
	}
	for r := range u.Depth() {
		bit := uint32(1) << u.Queen(r)
		if (cols|ld|rd|s.block[r])&bit != 0 {
			return 0, 0, 0, 0, 0, false
		}
		s.p[r] = uint8(u.Queen(r))
		cols, ld, rd = cols|bit, (ld|bit)<<1, (rd|bit)>>1
	}
	start = u.Depth()
	if start == n {
		return start, 0, cols, ld, rd, true
	}
	free = ^(cols | ld | rd | s.block[start])
	return start, free, cols, ld, rd, free != 0
}

// place tries every square of free, the non-empty set of free squares of
// row r, given the columns and diagonals the rows above occupy. It looks
// one row ahead: a square that leaves the next row no free square is not
// descended into.
func (s *searcher) place(r int, free, cols, ld, rd uint32) {
	if r == s.last {
		// One column is left, and free says it is open.
		s.p[r] = uint8(bits.TrailingZeros32(free))
		s.leaf()
		return
	}
	block, need := s.block[r+1], s.need[r+1]
	for free != 0 {
		bit := free & -free
		free ^= bit
		c, l, d := cols|bit, (ld|bit)<<1, (rd|bit)>>1
		if next := ^(c | l | d | block); next != 0 && c&need == need {
			s.p[r] = uint8(bits.TrailingZeros32(bit))
			s.place(r+1, next, c, l, d)
			if s.stop {
				return
			}
		}
	}
}

func (s *searcher) found(sym nqueens.Symmetry) {
	s.counts.Add(sym)
	if s.emit != nil && (sym != nqueens.SymNone || !s.symmetricOnly) {
		s.emit(s.p, sym)
	}
}

// leaf handles a complete candidate in s.p.
func (s *searcher) leaf() {
	if s.corner {
		s.found(nqueens.SymNone)
		return
	}
	if sym, ok := classify(&s.p, s.n); ok {
		s.found(sym)
	}
}

// classify reports whether the solution p of a board of n is the smallest
// of its images and, if so, its symmetry.
func classify(p *[nqueens.MaxN]uint8, n int) (nqueens.Symmetry, bool) {
	var q [nqueens.MaxN]uint8
	for r := range n {
		q[p[r]] = uint8(r)
	}
	m := uint8(n - 1)
	// cmp reports -1 if the image is smaller than p (p is not canonical),
	// 0 if equal, +1 if greater. Each case is spelled out so the compiler
	// inlines the arithmetic.
	var eq90, eq180 bool
	// 1: rotation by 90: m - q[r]
	res := 0
	for r := range n {
		if v := m - q[r]; v != p[r] {
			if v < p[r] {
				return 0, false
			}
			res = 1
			break
		}
	}
	eq90 = res == 0
	// 2: rotation by 180: m - p[m-r]
	res = 0
	for r := range n {
		if v := m - p[n-1-r]; v != p[r] {
			if v < p[r] {
				return 0, false
			}
			res = 1
			break
		}
	}
	eq180 = res == 0
	// 3: rotation by 270: q[m-r]
	for r := range n {
		if v := q[n-1-r]; v != p[r] {
			if v < p[r] {
				return 0, false
			}
			break
		}
	}
	// 4: mirror: m - p[r]
	for r := range n {
		if v := m - p[r]; v != p[r] {
			if v < p[r] {
				return 0, false
			}
			break
		}
	}
	// 5: flip: p[m-r]
	for r := range n {
		if v := p[n-1-r]; v != p[r] {
			if v < p[r] {
				return 0, false
			}
			break
		}
	}
	// 6: transpose: q[r]
	for r := range n {
		if v := q[r]; v != p[r] {
			if v < p[r] {
				return 0, false
			}
			break
		}
	}
	// 7: anti-transpose: m - q[m-r]
	for r := range n {
		if v := m - q[n-1-r]; v != p[r] {
			if v < p[r] {
				return 0, false
			}
			break
		}
	}
	switch {
	case eq90:
		return nqueens.SymRot90, true
	case eq180:
		return nqueens.SymRot180, true
	}
	return nqueens.SymNone, true
}

// countUnit returns the tallies of the unit of the class search (one of
// those Units returns): its classes by orbit size and the solutions they
// hold.
func countUnit(u enumerate.Unit) nqueens.Counts {
	var s searcher
	s.run(u)
	return s.counts
}

// collect appends the classes of the unit to buf and returns it.
func collect(u enumerate.Unit, buf []nqueens.Layout) []nqueens.Layout {
	var s searcher
	n := u.N()
	s.emit = func(p [nqueens.MaxN]uint8, sym nqueens.Symmetry) {
		buf = append(buf, nqueens.Layout{Placement: nqueens.FromBytes(p[:n]), Symmetry: sym})
	}
	s.run(u)
	return buf
}

// CountUnits returns the tallies of the given work units, on workers
// goroutines (all cores when workers < 1): total solutions, classes, and
// classes by orbit size. Given Units(n) it counts the whole board; given a
// shard's units, the shard. (The count package counts faster, by
// constellations; this search is its independent check.) If done is not
// nil it is called after each unit, from the worker goroutines.
func CountUnits(ctx context.Context, units []enumerate.Unit, workers int, done func()) (nqueens.Counts, error) {
	var mu sync.Mutex
	var total nqueens.Counts
	err := parallel.Each(ctx, len(units), workers, func(i int, _ *parallel.Stop) {
		c := countUnit(units[i])
		mu.Lock()
		total.Merge(c)
		mu.Unlock()
		if done != nil {
			done()
		}
	})
	return total, err
}

// UnitClasses searches units[from:] on workers goroutines (all cores when
// workers < 1) and yields, in unit order, each unit's index in units and
// its classes in lexicographic order (Class fields 0). The yielded slice is
// the caller's. Memory is bounded by a few units' classes. Breaking out of
// the loop or cancelling ctx stops the search. The iterator is single-use.
func UnitClasses(ctx context.Context, units []enumerate.Unit, from, workers int) iter.Seq2[int, []nqueens.Layout] {
	return func(yield func(int, []nqueens.Layout) bool) {
		rest := units[from:]
		work := func(i int, _ *parallel.Stop) []nqueens.Layout {
			return collect(rest[i], nil)
		}
		for i, batch := range parallel.Ordered(ctx, len(rest), workers, work) {
			if !yield(from+i, batch) {
				return
			}
		}
	}
}

// Classes returns an iterator over the classes of a board of n, in
// lexicographic order of their canonical representatives, numbered from 1
// in that order, searched on workers goroutines (all cores when workers <
// 1). Breaking out of the loop or cancelling ctx stops the search. It
// panics if n is outside 1..nqueens.MaxN.
func Classes(ctx context.Context, n, workers int) iter.Seq[nqueens.Layout] {
	units := Units(n)
	return func(yield func(nqueens.Layout) bool) {
		var k int64
		for _, batch := range UnitClasses(ctx, units, 0, workers) {
			for _, l := range batch {
				k++
				l.Class = k
				if !yield(l) {
					return
				}
			}
		}
	}
}
