package count

import (
	"errors"
	"fmt"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
)

// Sharding splits the constellations of a board into k disjoint slices,
// the shards, that separate processes or machines can count on their own
// (Shard), balanced by an estimate of each constellation's search tree.

// node is a node of a constellation's search tree as Cost walks it: the
// free squares of its row and the columns and diagonals the rows above
// take.
type node struct{ free, cols, ld, rd uint32 }

// Cost returns an estimate of the size of the constellation's search tree,
// in nodes, as canonical.Cost does for a unit: the mean of Knuth's estimator
// over random paths, seeded by the constellation alone, down to the rows
// the search looks up.
func (c Constellation) Cost() uint64 {
	sum, _ := c.knuth()
	return sum
}

// knuth returns Cost and the same estimate in floating point, neither
// rounded nor saturated (see canonical.Knuth).
func (c Constellation) knuth() (sum uint64, mean float64) {
	p := plans.Get().(*plan)
	defer plans.Put(p)
	p.prepare(c, noTable)
	if p.rows < 2 || p.free0 == 0 {
		return 1, 1
	}
	seed := canonical.SplitMix(uint64(c.n)<<32 | uint64(c.a)<<24 | uint64(c.b)<<16 | uint64(c.k)<<8 | uint64(c.l))
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
		return node{next, c, l, d}, !s.tail && !s.last
	}
	return canonical.Knuth(seed, node{free: p.free0}, children, child)
}

// ConstellationShards splits constellations into k shards balanced by
// Cost, as canonical.Shards does units, and returns for each shard the
// indexes of its constellations in increasing order. The split depends on
// the constellations and k alone. It returns an error if k is not between
// 1 and len(cs).
func ConstellationShards(cs []Constellation, k int) ([][]int, error) {
	return canonical.Split(len(cs), k, func(i int) uint64 { return cs[i].Cost() })
}

// ErrNoShard is matched by the error of ShardConstellations for a shard
// the constellations of a board cannot be split into.
var ErrNoShard = errors.New("no such shard")

// marked is an error that reads as err and matches kind too.
type marked struct{ err, kind error }

func (m marked) Error() string   { return m.err.Error() }
func (m marked) Unwrap() []error { return []error{m.err, m.kind} }

// ShardConstellations returns the constellations of shard i of k of a
// board of n (see ConstellationShards), with their indexes in
// Constellations(n). It returns an error matching ErrNoShard if there is
// no shard i of k: i is not in 0..k-1, or k not in 1..len(Constellations(n)).
func ShardConstellations(n, i, k int) ([]Constellation, []int, error) {
	if i < 0 || i >= k {
		return nil, nil, marked{fmt.Errorf("shard %d/%d: want an index from 0 to %d", i, k, k-1), ErrNoShard}
	}
	cs := Constellations(n)
	all, err := ConstellationShards(cs, k)
	if err != nil {
		return nil, nil, marked{err, ErrNoShard}
	}
	out := make([]Constellation, len(all[i]))
	for j, x := range all[i] {
		out[j] = cs[x]
	}
	return out, all[i], nil
}
