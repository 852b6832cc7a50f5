package canonical

import (
	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/enumerate"
	"github.com/nqueens/nqueens/internal/balance"
)

// Cost returns an estimate of the size of the search tree of the unit of
// the class search (one of those Units returns), in nodes: the mean of
// Knuth's estimator (balance.Knuth) over random paths from the prefix
// down, each multiplying the numbers of choices met on its way. The paths
// are drawn from a generator seeded by the unit alone, so the estimate is
// the same on every machine and in every run: the cost by which the units
// of a build are split into shards (balance.Split).
func Cost(u enumerate.Unit) uint64 {
	var s searcher
	start, root, ok := s.tree(u)
	if !ok {
		return 1
	}
	seed := balance.SplitMix(uint64(u.N()))
	for r := range u.Depth() {
		seed = balance.SplitMix(seed ^ uint64(u.Queen(r)))
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
	sum, _ := balance.Knuth(seed, root, children, child)
	return sum
}

// tree prepares s for the search below the unit and returns the row the
// search starts at and the node there. It reports false if the tree is a
// single node: n = 1, a prefix the pruning rules out, or one that leaves
// at most the last row.
func (s *searcher) tree(u enumerate.Unit) (start int, root node, ok bool) {
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

// Shard returns the units of shard s of the class search of a board of n,
// in unit order, with their indexes among Units(n): the units split into
// s.Count shards balanced by Cost (balance.Shard), the one split every
// build, merge and verification of a sharded catalog uses. The whole
// board (the zero Shard) is every unit. It returns an error wrapping
// nqueens.ErrNoShard if n's units cannot make s.Count shards or s.Index is
// not one of them; it panics if n is outside 1..nqueens.MaxN.
func Shard(n int, s nqueens.Shard) ([]enumerate.Unit, []int, error) {
	return balance.Shard(Units(n), s, Cost)
}

// ShardSizes returns the number of units of each of k shards of the class
// search of a board of n, as Shard splits them. It returns Shard's errors.
func ShardSizes(n, k int) ([]int, error) {
	split, err := balance.Split(Units(n), k, Cost)
	if err != nil {
		return nil, err
	}
	sizes := make([]int, len(split))
	for i, idx := range split {
		sizes[i] = len(idx)
	}
	return sizes, nil
}

// CheckShard returns Shard's error for s on a board of n, without
// splitting: whether n's units make s.Count shards and s.Index is one.
func CheckShard(n int, s nqueens.Shard) error {
	return balance.Check(len(Units(n)), s)
}
