package count

import (
	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/balance"
)

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
