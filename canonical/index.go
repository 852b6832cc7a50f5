package canonical

import (
	"bytes"
	"context"
	"iter"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/enumerate"
	"github.com/nqueens/nqueens/internal/parallel"
)

// The index of the classes of a board.
//
// Units lists the classes unit by unit, each unit's in lexicographic order,
// so the number of classes below each prefix of the search, cumulated, says
// which prefix holds class K and which class of it K is: a catalog's index
// keeps those numbers for the prefixes of IndexDepth rows (Below splits a
// work unit into them) and finds class K by searching one small subtree
// (UnitClass), and a canonical placement's number by searching the subtree
// of its prefix up to it (UnitRank).

// IndexDepth returns how many rows the prefixes of the index of a board of
// n fix: those of the work units (UnitDepth) up to n = 20, whose prefixes
// hold about 800 classes on average at n = 18 and 2,600 at n = 20 (one
// subtree search of a few milliseconds), and one more row beyond, where
// the units hold ten times as many.
func IndexDepth(n int) int {
	d := UnitDepth(n)
	if n > 20 {
		d = min(d+1, n, MaxIndexDepth)
	}
	return d
}

// MaxIndexDepth bounds the rows a prefix fixes.
const MaxIndexDepth = enumerate.MaxDepth

// below returns the prefixes of depth rows that begin with the prefix of
// u and that the pruning leaves, in lexicographic order: the units of the
// same search, split finer. Their classes, in that order, are u's. A depth
// at most u's gives u alone. It panics if depth is above
// min(u.N(), MaxIndexDepth).
func below(u enumerate.Unit, depth int) []enumerate.Unit {
	if depth <= u.Depth() {
		return []enumerate.Unit{u}
	}
	return unitsBelow(u.N(), depth, u)
}

// UnitClass returns the k-th class (from 1) of the unit in lexicographic
// order, with its symmetry and Class k, searching the unit's subtree up to
// it; false if the unit has fewer than k classes.
func UnitClass(u enumerate.Unit, k int64) (nqueens.Layout, bool) {
	var s searcher
	var out nqueens.Layout
	n := u.N()
	if k < 1 {
		return out, false
	}
	s.emit = func(p [nqueens.MaxN]uint8, sym nqueens.Symmetry) {
		if int64(s.counts.Unique) == k {
			out = nqueens.Layout{Class: k, Placement: nqueens.FromBytes(p[:n]), Symmetry: sym}
			s.stop = true
		}
	}
	s.run(u)
	return out, s.stop
}

// UnitRank returns the rank (from 1) of the canonical placement c among
// the classes of the unit, in lexicographic order, and its symmetry,
// searching the unit's subtree up to it; false if c is not one of the
// unit's classes (not canonical, not a solution, or of another prefix).
func UnitRank(u enumerate.Unit, c nqueens.Placement) (int64, nqueens.Symmetry, bool) {
	var s searcher
	n := u.N()
	if c.N() != n {
		return 0, 0, false
	}
	key := c.Bytes()
	var sym nqueens.Symmetry
	found := false
	s.emit = func(p [nqueens.MaxN]uint8, got nqueens.Symmetry) {
		switch cmp := bytes.Compare(p[:n], key); {
		case cmp == 0:
			found, sym = true, got
			s.stop = true
		case cmp > 0:
			s.stop = true
		}
	}
	s.run(u)
	if !found {
		return 0, 0, false
	}
	return int64(s.counts.Unique), sym, true
}

// Tally is what the class search finds below one prefix of the index.
type Tally struct {
	Unit enumerate.Unit
	// Counts are the prefix's classes by orbit and the solutions they hold.
	Counts nqueens.Counts
	// Symmetric lists the prefix's classes with a symmetry (orbit 4, 2 or
	// 1: few), in lexicographic order, each with Class its rank among all
	// the prefix's classes (from 1).
	Symmetric []nqueens.Layout
}

// TallyUnit searches the unit's subtree and returns its Tally.
func TallyUnit(u enumerate.Unit) Tally {
	var s searcher
	n := u.N()
	t := Tally{Unit: u}
	s.symmetricOnly = true
	s.emit = func(p [nqueens.MaxN]uint8, sym nqueens.Symmetry) {
		t.Symmetric = append(t.Symmetric, nqueens.Layout{Class: int64(s.counts.Unique), Placement: nqueens.FromBytes(p[:n]), Symmetry: sym})
	}
	s.run(u)
	t.Counts = s.counts
	return t
}

// Tallies splits each of units[from:] into its prefixes of depth rows
// (Below), searches them on workers goroutines (all cores when workers <
// 1) and yields, in unit order, each unit's index in units and the Tally
// of each of its prefixes, in order. A goroutine searches tallyChunk units
// at a time, so that a slow unit seldom holds the others up. The yielded
// slice is the caller's. Memory is bounded by a few chunks' tallies.
// Breaking out of the loop or cancelling ctx stops the search. The
// iterator is single-use.
func Tallies(ctx context.Context, units []enumerate.Unit, from, depth, workers int) iter.Seq2[int, []Tally] {
	return func(yield func(int, []Tally) bool) {
		rest := units[from:]
		chunks := (len(rest) + tallyChunk - 1) / tallyChunk
		work := func(c int, stop *parallel.Stop) [][]Tally {
			var out [][]Tally
			for _, u := range rest[c*tallyChunk : min(len(rest), (c+1)*tallyChunk)] {
				below := below(u, depth)
				tallies := make([]Tally, 0, len(below))
				for _, v := range below {
					if stop.Stopped() {
						return nil
					}
					tallies = append(tallies, TallyUnit(v))
				}
				out = append(out, tallies)
			}
			return out
		}
		for c, batch := range parallel.Ordered(ctx, chunks, workers, work) {
			for i, tallies := range batch {
				if !yield(from+c*tallyChunk+i, tallies) {
					return
				}
			}
		}
	}
}

// tallyChunk is the number of units Tallies hands a goroutine at once.
const tallyChunk = 32
