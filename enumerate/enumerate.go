// Package enumerate is the N-Queens search: a bitmask backtracking over the
// rows of the board that keeps the occupied columns and both diagonals as
// bit sets in machine words and tries the free squares of a row lowest bit
// (leftmost column) first, so solutions come out in lexicographic order of
// their column sequences.
//
// Solutions streams every solution of a board; Count counts them on several
// goroutines. The search splits into work units, one per valid placement of
// the queens of the first rows (Units), that run independently;
// ParallelSolutions runs them in parallel and hands back their solutions
// in unit order, which keeps parallel output deterministic.
package enumerate

import (
	"context"
	"fmt"
	"iter"
	"math/bits"
	"sync/atomic"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/parallel"
)

// mustN panics unless n is a board size the search accepts: the functions of
// this package treat a bad n as a programming error, since the edges of the
// program (the command) check it with nqueens.CheckN first.
func mustN(n int) {
	if err := nqueens.CheckN(n); err != nil {
		panic("enumerate: " + err.Error())
	}
}

// full returns the bit set of the n columns of a row.
func full(n int) uint32 {
	return uint32(1<<uint(n) - 1)
}

// Unit is one independent part of a search: the solutions whose first
// Depth rows hold the queens of its prefix. It is a small comparable value.
// The units Units returns, in that order, partition the solutions of a
// board and list them in lexicographic order; other searches pick their
// own units with UnitsWhere (canonical.Units, for one, leaves out the
// prefixes no canonical representative starts with).
type Unit struct {
	n      uint8
	depth  uint8
	prefix [MaxDepth]uint8
}

// MaxDepth bounds the number of rows a unit fixes.
const MaxDepth = 10

// N returns the board size of the unit.
func (u Unit) N() int { return int(u.n) }

// Depth returns the number of rows the unit fixes.
func (u Unit) Depth() int { return int(u.depth) }

// Queen returns the column of the queen the unit fixes in row r, which
// must be below Depth.
func (u Unit) Queen(r int) int { return int(u.prefix[r]) }

// Prefix returns the columns of the queens the unit fixes, row by row, in a
// new slice.
func (u Unit) Prefix() []int {
	out := make([]int, u.depth)
	for i := range out {
		out[i] = int(u.prefix[i])
	}
	return out
}

// NewUnit returns the unit of a board of n whose first rows hold the
// queens of prefix, row by row: what Prefix returns, made a Unit again. It
// does not check that the queens leave each other be (the searches below
// the unit find no solution if they do not). It panics if n is outside
// 1..nqueens.MaxN, prefix is longer than min(n, MaxDepth), or a column is
// outside 0..n-1.
func NewUnit(n int, prefix []uint8) Unit {
	mustN(n)
	if len(prefix) > min(n, MaxDepth) {
		panic(fmt.Sprintf("enumerate: a prefix of %d rows for n=%d: want at most %d", len(prefix), n, min(n, MaxDepth)))
	}
	u := Unit{n: uint8(n), depth: uint8(len(prefix))}
	for r, c := range prefix {
		if int(c) >= n {
			panic(fmt.Sprintf("enumerate: column %d in a prefix of n=%d", c, n))
		}
		u.prefix[r] = c
	}
	return u
}

// UnitDepth returns how many rows the units of a board of n fix: enough
// for many more units than cores, so the search balances across them, and
// few enough that each unit does real work. It grows with n, so that the
// time of one unit stays in milliseconds to seconds up to n = 22 or so,
// and stops at 8 rows.
func UnitDepth(n int) int {
	d := (n - 5) / 3
	d = max(d, 1)
	d = min(d, n-1, 8)
	return max(d, 0)
}

// Units returns the work units of a board of n in lexicographic order of
// their prefixes, each fixing UnitDepth(n) rows. Prefixes that already hold
// attacking queens are left out. It panics if n is outside 1..nqueens.MaxN.
func Units(n int) []Unit {
	mustN(n)
	return UnitsWhere(n, UnitDepth(n), nil)
}

// UnitsWhere returns the units of a board of n that fix its first depth
// rows, in lexicographic order of their prefixes: every placement of
// queens that do not attack each other in those rows where, row by row,
// each queen's column is one of those allowed returns. allowed receives the
// unit fixing the rows above (its Depth is the row being filled) and
// returns a bit set of columns, bit c for column c; a nil allowed allows
// every column. It panics if n is outside 1..nqueens.MaxN or depth outside
// 0..min(n, MaxDepth).
func UnitsWhere(n, depth int, allowed func(above Unit) uint32) []Unit {
	mustN(n)
	if depth < 0 || depth > min(n, MaxDepth) {
		panic(fmt.Sprintf("enumerate: unit depth %d for n=%d: want 0 to %d", depth, n, min(n, MaxDepth)))
	}
	var units []Unit
	u := Unit{n: uint8(n)}
	all := full(n)
	var rec func(cols, ld, rd uint32)
	rec = func(cols, ld, rd uint32) {
		row := int(u.depth)
		if row == depth {
			units = append(units, u)
			return
		}
		avail := all &^ (cols | ld | rd)
		if allowed != nil {
			avail &= allowed(u)
		}
		u.depth++
		for ; avail != 0; avail &= avail - 1 {
			bit := avail & -avail
			u.prefix[row] = uint8(bits.TrailingZeros32(bit))
			rec(cols|bit, (ld|bit)<<1, (rd|bit)>>1)
		}
		u.depth--
		u.prefix[row] = 0
	}
	rec(0, 0, 0)
	return units
}

// state returns the occupied columns and diagonals after the unit's prefix,
// and false if the prefix holds attacking queens.
func (u Unit) state() (cols, ld, rd uint32, ok bool) {
	for r := range int(u.depth) {
		bit := uint32(1) << u.prefix[r]
		if (cols|ld|rd)&bit != 0 || int(u.prefix[r]) >= int(u.n) {
			return 0, 0, 0, false
		}
		cols, ld, rd = cols|bit, (ld|bit)<<1, (rd|bit)>>1
	}
	return cols, ld, rd, true
}

// walk runs the backtracking search below the unit's prefix and calls yield
// with the board (its first n entries) for every solution, in lexicographic
// order, until yield returns false. The array is reused: yield must copy
// what it keeps. walk reports whether it ran to the end.
func (u Unit) walk(yield func(p *[nqueens.MaxN]uint8) bool) bool {
	n := int(u.n)
	var p [nqueens.MaxN]uint8
	copy(p[:], u.prefix[:u.depth])
	cols, ld, rd, ok := u.state()
	if !ok {
		return true
	}
	start := int(u.depth)
	if start == n {
		return yield(&p)
	}
	all := full(n)
	var avail, cs, ls, rs [nqueens.MaxN]uint32
	r := start
	cs[r], ls[r], rs[r] = cols, ld, rd
	avail[r] = all &^ (cols | ld | rd)
	last := n - 1
	for {
		a := avail[r]
		if a == 0 {
			if r == start {
				return true
			}
			r--
			continue
		}
		bit := a & -a
		avail[r] = a ^ bit
		p[r] = uint8(bits.TrailingZeros32(bit))
		if r == last {
			if !yield(&p) {
				return false
			}
			continue
		}
		c, l, d := cs[r]|bit, (ls[r]|bit)<<1, (rs[r]|bit)>>1
		r++
		cs[r], ls[r], rs[r] = c, l, d
		avail[r] = all &^ (c | l | d)
	}
}

// Solutions returns an iterator over the solutions below the unit's
// prefix, in lexicographic order. The iterator can be used more than once;
// each use searches again.
func (u Unit) Solutions() iter.Seq[nqueens.Placement] {
	n := int(u.n)
	return func(yield func(nqueens.Placement) bool) {
		u.walk(func(p *[nqueens.MaxN]uint8) bool {
			return yield(nqueens.FromBytes(p[:n]))
		})
	}
}

// Count returns the number of solutions below the unit's prefix.
func (u Unit) Count() uint64 {
	n := int(u.n)
	cols, ld, rd, ok := u.state()
	if !ok {
		return 0
	}
	if int(u.depth) == n {
		return 1
	}
	return countFrom(full(n), cols, ld, rd)
}

// countFrom counts the completions of a partial board whose occupied
// columns and diagonals (for the next row) are cols, ld and rd.
func countFrom(all, cols, ld, rd uint32) uint64 {
	if cols == all {
		return 1
	}
	free := all &^ (cols | ld | rd)
	if free == 0 {
		return 0
	}
	return count(all, free, cols, ld, rd)
}

// count counts the completions of a partial board given free, the
// non-empty set of free squares of the next row. It looks one row ahead:
// a square that leaves the row after no free square is not descended into.
func count(all, free, cols, ld, rd uint32) uint64 {
	var total uint64
	for free != 0 {
		bit := free & -free
		free ^= bit
		c := cols | bit
		if c == all {
			return 1 // the last row has exactly one free square
		}
		l, d := (ld|bit)<<1, (rd|bit)>>1
		if next := all &^ (c | l | d); next != 0 {
			total += count(all, next, c, l, d)
		}
	}
	return total
}

// Solutions returns an iterator over every solution of the n-queens puzzle
// on one goroutine, in lexicographic order of the column sequences. It
// allocates nothing per solution. The iterator can be used more than once;
// each use searches again, and the search stops as soon as yield returns
// false. It panics if n is outside 1..nqueens.MaxN.
func Solutions(n int) iter.Seq[nqueens.Placement] {
	mustN(n)
	return Unit{n: uint8(n)}.Solutions()
}

// parallelSolutions is like Solutions but searches the units of the board
// on workers goroutines (all cores when workers < 1). The order is the
// same as that of Solutions. At most a few units' solutions are held in
// memory at once. Cancelling ctx or breaking out of the loop stops the
// workers.
func parallelSolutions(ctx context.Context, n, workers int) iter.Seq[nqueens.Placement] {
	mustN(n)
	units := Units(n)
	return func(yield func(nqueens.Placement) bool) {
		work := func(i int, _ *parallel.Stop) []nqueens.Placement {
			var out []nqueens.Placement
			for p := range units[i].Solutions() {
				out = append(out, p)
			}
			return out
		}
		for _, batch := range parallel.Ordered(ctx, len(units), workers, work) {
			for _, p := range batch {
				if !yield(p) {
					return
				}
			}
		}
	}
}

// countSolutions returns the number of solutions of the n-queens puzzle, searched on
// workers goroutines (all cores when workers < 1), using the mirror
// symmetry of the first row to search only half of the board. It returns
// ctx.Err() if ctx is cancelled first. It panics if n is outside
// 1..nqueens.MaxN.
func countSolutions(ctx context.Context, n, workers int) (uint64, error) {
	mustN(n)
	units := Units(n)
	half := (n + 1) / 2 // first-row columns 0..half-1; the middle one of odd n counts once
	var total atomic.Uint64
	err := parallel.Each(ctx, len(units), workers, func(i int, _ *parallel.Stop) {
		u := units[i]
		c := int(u.prefix[0])
		if u.depth == 0 || c >= half {
			if u.depth == 0 {
				total.Add(u.Count())
			}
			return
		}
		k := u.Count()
		if n%2 == 0 || c != n/2 {
			k *= 2
		}
		total.Add(k)
	})
	return total.Load(), err
}
