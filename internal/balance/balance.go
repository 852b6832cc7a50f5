// Package balance splits the work of a board into shards balanced by cost:
// disjoint slices that separate processes or machines can search on their
// own, whatever the items of work are (the class search's units, the
// count's constellations).
//
// Items differ in cost by orders of magnitude (a unit whose first queen is
// near the middle of the top row is pruned early), so shards are balanced
// by an estimate of each item's cost rather than by their number: the size
// of the item's search tree by Knuth's estimator (Knuth), over paths drawn
// from a generator seeded by the item alone (SplitMix). The split depends
// only on the items, their costs and the number of shards, so every
// process computes the same one.
//
// A shard names itself with nqueens.Shard; whether I/K names a shard at all
// is Shard.Check, and whether a board's items split into K shards is the
// rule of this package (Check, Split).
package balance

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

// Check returns the error Shard returns for shard s of a board of items
// items, without estimating any cost (which takes seconds for the units of
// n = 18 and more): nil for the whole board or a shard I/K that exists, an
// error matching nqueens.ErrNoShard otherwise (s.Check's error, or K not
// between 1 and items; K = 1 for no items at all).
func Check(items int, s nqueens.Shard) error {
	if err := s.Check(); err != nil || s.IsWhole() {
		return err
	}
	return checkCount(items, s.Count)
}

// checkCount returns an error matching nqueens.ErrNoShard if items do not
// split into k shards.
func checkCount(items, k int) error {
	if items == 0 && k == 1 {
		return nil // a board without work (n = 2, 3) is one empty shard
	}
	if k < 1 || k > items {
		return noShard(fmt.Sprintf("shard count %d: want 1 to %d, the number of work units", k, max(items, 1)))
	}
	return nil
}

// noShard is an error that reads as its text and matches
// nqueens.ErrNoShard.
type noShard string

func (e noShard) Error() string        { return string(e) }
func (e noShard) Is(target error) bool { return target == nqueens.ErrNoShard }

// Split splits items into k shards balanced by cost and returns, for each
// shard, the indexes in items of its items in increasing order. Every index
// is in exactly one shard. The split is greedy: items in decreasing order
// of cost (in order of index on a tie) each go to the shard with the least
// cost so far (the lowest-numbered one on a tie). It calls cost once for
// each item, on all cores. It returns an error matching nqueens.ErrNoShard
// if k is not between 1 and len(items) (k = 1 for no items gives one empty
// shard).
func Split[T any](items []T, k int, cost func(T) uint64) ([][]int, error) {
	if err := checkCount(len(items), k); err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return [][]int{nil}, nil
	}
	costs := make([]uint64, len(items))
	const chunk = 1024
	parallel.Each(context.Background(), (len(items)+chunk-1)/chunk, 0, func(c int, _ *parallel.Stop) {
		for i := c * chunk; i < min(len(items), (c+1)*chunk); i++ {
			costs[i] = cost(items[i])
		}
	})
	order := make([]int, len(items))
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

// Shard returns the items of shard s as Split splits items into s.Count
// shards, in the order of items, with their indexes in items: all items
// and every index for the whole board. The slices are new. It returns
// Check's error if s is no shard of items.
func Shard[T any](items []T, s nqueens.Shard, cost func(T) uint64) ([]T, []int, error) {
	if err := Check(len(items), s); err != nil {
		return nil, nil, err
	}
	var idx []int
	if s.IsWhole() {
		idx = make([]int, len(items))
		for i := range idx {
			idx[i] = i
		}
	} else {
		all, err := Split(items, s.Count, cost)
		if err != nil {
			return nil, nil, err
		}
		idx = all[s.Index]
	}
	out := make([]T, len(idx))
	for j, x := range idx {
		out[j] = items[x]
	}
	return out, idx, nil
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

// probes is the number of random paths Knuth follows.
const probes = 16

// Knuth returns an estimate of the size of a search tree, in nodes: the
// mean of Knuth's estimator over 16 random paths from root down, each
// multiplying the numbers of children met on its way. The paths are drawn
// from a SplitMix64 generator (SplitMix) seeded with seed, so the estimate
// depends on the tree and the seed alone. children stores the children of
// node x at depth i in kids (as the bits of the squares placed) and
// returns how many; child returns the node that placing bit below x
// reaches, and false if the walk stops there. The costs of the class
// search's units (canonical.Cost) and of the count's constellations
// (count.Constellation.Cost) both call it.
//
// It returns the estimate twice: sum, in whole nodes, adds each path's
// share rounded down and saturates at 2^64-1 (the cost that Split
// balances, which must not change between versions); mean is the same
// mean in floating point, neither rounded nor saturated (for estimates of
// a whole count, which small trees and n = 32 would otherwise bias).
func Knuth[Node any](seed uint64, root Node, children func(i int, x Node, kids *[nqueens.MaxN]uint32) int, child func(i int, x Node, bit uint32) (Node, bool)) (sum uint64, mean float64) {
	rng := seed
	for range probes {
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
		sum = satAdd(sum, nodes/probes)
		mean += nodesF / probes
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
