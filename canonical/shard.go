package canonical

import (
	"cmp"
	"container/heap"
	"context"
	"fmt"
	"math/bits"
	"slices"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/parallel"
)

// Sharding splits the work units of a board into k disjoint slices, the
// shards, that separate processes or machines can search on their own. The
// split depends only on n and k, so every process computes the same one.
// Units differ in cost by orders of magnitude (a unit whose first queen is
// near the middle of the top row is pruned early), so shards are balanced
// by an estimate of each unit's cost rather than by their number.

// costProbes is the number of random paths Cost follows per unit.
const costProbes = 16

// Cost returns an estimate of the size of the search tree of the unit of
// the class search (one of those Units returns), in nodes: the mean of Knuth's estimator over random paths from the prefix
// down, each multiplying the numbers of choices met on its way. The paths
// are drawn from a generator seeded by the unit alone, so the estimate is
// the same on every machine and in every run.
func Cost(u Unit) uint64 {
	var s searcher
	start, root, ok := s.tree(u)
	if !ok {
		return 1
	}
	seed := SplitMix(uint64(u.N()))
	for r := range u.Depth() {
		seed = SplitMix(seed ^ uint64(u.Queen(r)))
	}
	children := func(i int, x node, kids *[nqueens.MaxN]uint32) int {
		// The children that pass the look-ahead, as place sees them.
		block, need := s.block[start+i+1], s.need[start+i+1]
		k := 0
		for f := x.free; f != 0; f &= f - 1 {
			bit := f & -f
			c, l, d := x.cols|bit, (x.ld|bit)<<1, (x.rd|bit)>>1
			if ^(c|l|d|block) != 0 && c&need == need {
				kids[k] = bit
				k++
			}
		}
		return k
	}
	child := func(i int, x node, bit uint32) (node, bool) {
		r := start + i
		c, l, d := x.cols|bit, (x.ld|bit)<<1, (x.rd|bit)>>1
		return node{^(c | l | d | s.block[r+1]), c, l, d}, r+1 < s.last
	}
	sum, _ := Knuth(seed, root, children, child)
	return sum
}

// tree prepares s for the search below the unit and returns the row the
// search starts at and the node there. It reports false if the tree is a
// single node: n = 1, a prefix the pruning rules out, or one that leaves
// at most the last row.
func (s *searcher) tree(u Unit) (start int, root node, ok bool) {
	if u.N() == 1 {
		return 0, node{}, false
	}
	start, free, cols, ld, rd, ok := s.init(u)
	if !ok || start >= s.last {
		return 0, node{}, false
	}
	return start, node{free, cols, ld, rd}, true
}

// node is a node of a search tree as Cost walks it: the free squares of
// its row and the columns and diagonals the rows above take.
type node struct{ free, cols, ld, rd uint32 }

// Knuth returns an estimate of the size of a search tree, in nodes: the
// mean of Knuth's estimator over 16 random paths from root down, each
// multiplying the numbers of children met on its way. The paths are drawn
// from a SplitMix64 generator (SplitMix) seeded with seed, so the estimate
// depends on the tree and the seed alone. children stores the children of
// node x at depth i in kids (as the bits of the squares placed) and
// returns how many; child returns the node that placing bit below x
// reaches, and false if the walk stops there. Cost and the costs of
// the count package's constellations both call it.
//
// It returns the estimate twice: sum, in whole nodes, adds each path's
// share rounded down and saturates at 2^64-1 (the cost that sharding
// balances, which must not change between versions); mean is the same
// mean in floating point, neither rounded nor saturated (for estimates of
// a whole count, which small trees and n = 32 would otherwise bias).
func Knuth[Node any](seed uint64, root Node, children func(i int, x Node, kids *[nqueens.MaxN]uint32) int, child func(i int, x Node, bit uint32) (Node, bool)) (sum uint64, mean float64) {
	rng := seed
	for range costProbes {
		est, nodes := uint64(1), uint64(1)
		estF, nodesF := 1.0, 1.0
		x := root
		for i := 0; ; i++ {
			var kids [nqueens.MaxN]uint32
			k := children(i, x, &kids)
			if k == 0 {
				break
			}
			est = satMul(est, uint64(k))
			nodes = satAdd(nodes, est)
			estF *= float64(k)
			nodesF += estF
			rng = SplitMix(rng)
			var more bool
			if x, more = child(i, x, kids[rng%uint64(k)]); !more {
				break
			}
		}
		sum = satAdd(sum, nodes/costProbes)
		mean += nodesF / costProbes
	}
	return max(sum, 1), mean
}

// SplitMix returns the next state of a SplitMix64 generator, which is also
// its output: the generator of Knuth's paths, and a hash that seeds them.
func SplitMix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

func satMul(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		return ^uint64(0)
	}
	return lo
}

func satAdd(a, b uint64) uint64 {
	s, carry := bits.Add64(a, b, 0)
	if carry != 0 {
		return ^uint64(0)
	}
	return s
}

// Shards splits units into k shards balanced by Cost and returns, for each
// shard, the indexes of its units in increasing order. Every index is in
// exactly one shard. The split is greedy: units in decreasing order of
// cost each go to the shard with the least cost so far (the lowest-numbered
// one on a tie). It returns an error if k is not between 1 and len(units).
func Shards(units []Unit, k int) ([][]int, error) {
	return Split(len(units), k, func(i int) uint64 { return Cost(units[i]) })
}

// Split splits the items 0..count-1 into k shards balanced by cost, as
// Shards describes, and returns the indexes of each shard's items in
// increasing order. It calls cost once for each item, on all cores. The
// constellations of the count package are split by it too. It returns an
// error if k is not between 1 and count (k = 1 for count = 0 gives one
// empty shard).
func Split(count, k int, cost func(i int) uint64) ([][]int, error) {
	if count == 0 && k == 1 {
		return [][]int{nil}, nil // a board without work (n = 2, 3) is one empty shard
	}
	if err := checkSplit(count, k); err != nil {
		return nil, err
	}
	costs := make([]uint64, count)
	const chunk = 1024
	parallel.Each(context.Background(), (count+chunk-1)/chunk, 0, func(c int, _ *parallel.Stop) {
		for i := c * chunk; i < min(count, (c+1)*chunk); i++ {
			costs[i] = cost(i)
		}
	})
	order := make([]int, count)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(costs[b], costs[a]) })
	h := make(loads, k)
	for i := range h {
		h[i].shard = i
	}
	out := make([][]int, k)
	for _, i := range order {
		out[h[0].shard] = append(out[h[0].shard], i)
		h[0].cost = satAdd(h[0].cost, costs[i])
		heap.Fix(&h, 0)
	}
	for _, s := range out {
		slices.Sort(s)
	}
	return out, nil
}

// checkSplit returns Split's error for count items in k shards, if any.
func checkSplit(count, k int) error {
	if count == 0 && k == 1 {
		return nil
	}
	if k < 1 || k > count {
		return fmt.Errorf("shard count %d: want 1 to %d, the number of work units", k, max(count, 1))
	}
	return nil
}

// CheckShard returns the error ShardUnits would return for shard i of k
// of a board of n, without splitting the work (which takes seconds for
// n of 18 and more): nil if the shard exists.
func CheckShard(n, i, k int) error {
	if i < 0 || i >= k {
		return fmt.Errorf("shard %d/%d: want an index from 0 to %d", i, k, k-1)
	}
	return checkSplit(len(Units(n)), k)
}

// Shard returns the indexes of the units of shard i of k, in increasing
// order (see Shards).
func Shard(units []Unit, i, k int) ([]int, error) {
	if i < 0 || i >= k {
		return nil, fmt.Errorf("shard %d/%d: want an index from 0 to %d", i, k, k-1)
	}
	all, err := Shards(units, k)
	if err != nil {
		return nil, err
	}
	return all[i], nil
}

// ShardUnits returns the work units of shard i of k of a board of n (see
// Shards), with their indexes in Units(n).
func ShardUnits(n, i, k int) ([]Unit, []int, error) {
	units := Units(n)
	idx, err := Shard(units, i, k)
	if err != nil {
		return nil, nil, err
	}
	out := make([]Unit, len(idx))
	for j, x := range idx {
		out[j] = units[x]
	}
	return out, idx, nil
}

// UnitsOf returns the work units of shard s of a board of n: all of
// Units(n) for the whole board.
func UnitsOf(n int, s nqueens.Shard) ([]Unit, error) {
	if err := nqueens.CheckN(n); err != nil {
		return nil, err
	}
	if s.IsWhole() {
		return Units(n), nil
	}
	units, _, err := ShardUnits(n, s.Index, s.Count)
	if err != nil {
		return nil, fmt.Errorf("n=%d: %w", n, err)
	}
	return units, nil
}

// loads is a min-heap of shards by cost so far, then by number.
type loads []struct {
	cost  uint64
	shard int
}

func (h loads) Len() int { return len(h) }
func (h loads) Less(i, j int) bool {
	if h[i].cost != h[j].cost {
		return h[i].cost < h[j].cost
	}
	return h[i].shard < h[j].shard
}
func (h loads) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *loads) Push(x any)   { panic("loads: fixed size") }
func (h *loads) Pop() any     { panic("loads: fixed size") }
