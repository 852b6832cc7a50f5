package count

import (
	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/balance"
)

// How a count is split into shards is a contract of saved files: a part of
// a sharded count (count/parts) and the state of a resumed count
// (count/resume) each name the constellations they hold, which
// balance.Split chose by Cost, and the calibration of count/estimate counts
// the same trees (Nodes). So Cost and Nodes walk a tree of their own, the
// split tree, which the search does not decide: the search's free rows,
// with the look-ahead that drops a square whose next free row has no free
// square, down to but not including the last splitTailRows free rows (or
// the last free row, on a board with fewer). However the search handles
// its last rows, the split stays the same.

// splitTailRows is the number of free rows at the bottom of a
// constellation that its split tree leaves out. Changing it changes every
// shard and calibration.
const splitTailRows = 3

// splitLeaf reports whether the split tree ends at the children of free
// row i of p: whether the next free row is the first of the last
// splitTailRows, or the last.
func (p *plan) splitLeaf(i int) bool {
	return i+1+splitTailRows == p.rows || i+2 == p.rows
}

// node is a node of a constellation's search tree as Cost walks it: the
// free squares of its row and the columns and diagonals the rows above
// take.
type node struct{ free, cols, ld, rd uint32 }

// Cost returns an estimate of the size of the constellation's split tree
// (see splitTailRows), in nodes, as canonical.Cost does for a unit: the
// mean of Knuth's estimator (balance.Knuth) over random paths, seeded by
// the constellation alone. It is the cost by which the constellations of a
// count are split into shards (balance.Split).
func (c Constellation) Cost() uint64 {
	sum, _ := c.knuth()
	return sum
}

// knuth returns Cost and the same estimate in floating point, neither
// rounded nor saturated (see balance.Knuth).
func (c Constellation) knuth() (sum uint64, mean float64) {
	p := plans.Get().(*plan)
	defer plans.Put(p)
	p.prepare(c, noTable)
	if p.rows < 2 || p.free0 == 0 {
		return 1, 1
	}
	seed := balance.SplitMix(uint64(c.n)<<32 | uint64(c.a)<<24 | uint64(c.b)<<16 | uint64(c.k)<<8 | uint64(c.l))
	children := func(i int, x node, kids *[nqueens.MaxN]uint32) int {
		// The children that pass the look-ahead, as solve sees them.
		s := &p.steps[i]
		k := 0
		for f := x.free; f != 0; f &= f - 1 {
			if next, _, _, _ := s.place(f&-f, x.cols, x.ld, x.rd); next != 0 {
				kids[k] = f & -f
				k++
			}
		}
		return k
	}
	child := func(i int, x node, bit uint32) (node, bool) {
		s := &p.steps[i]
		next, c, l, d := s.place(bit, x.cols, x.ld, x.rd)
		return node{next, c, l, d}, !p.splitLeaf(i)
	}
	return balance.Knuth(seed, node{free: p.free0}, children, child)
}
