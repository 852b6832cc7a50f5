package canonical

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/enumerate"
	"github.com/nqueens/nqueens/internal/balance"
	"github.com/nqueens/nqueens/internal/testutil"
)

// TestShardsPartitionUnits splits the units of several n into k shards,
// from one shard to one unit a shard: the split is the same each time and
// holds every unit once, balance.Shard gives a shard's units, and the
// shards' counts add up to the whole board's.
func TestShardsPartitionUnits(t *testing.T) {
	for _, n := range []int{1, 4, 8, 11, 13} {
		units := Units(n)
		whole := countUnits(t, units)
		for _, k := range []int{1, 2, 3, 7, len(units)} {
			if k <= len(units) {
				checkShards(t, n, units, k, whole)
			}
		}
	}
}

// checkShards checks the split of units, those of a board of n, into k
// shards against the count of the whole board. balance.Shard splits the
// units afresh on each call, so with many shards it checks the first,
// the middle and the last.
func checkShards(t *testing.T, n int, units []enumerate.Unit, k int, whole nqueens.Counts) {
	t.Helper()
	shards, err := balance.Split(units, k, Cost)
	if err != nil {
		t.Fatalf("n=%d k=%d: %v", n, k, err)
	}
	if again, _ := balance.Split(units, k, Cost); !slices.EqualFunc(shards, again, slices.Equal) {
		t.Errorf("n=%d k=%d: two splits differ", n, k)
	}
	testutil.CheckPartition(t, n, k, shards, len(units))
	var sum nqueens.Counts
	for i, idx := range shards {
		if k <= 7 || i == 0 || i == k/2 || i == k-1 {
			sub, subIdx, err := balance.Shard(units, nqueens.Shard{Index: i, Count: k}, Cost)
			if err != nil || !slices.Equal(subIdx, idx) || !slices.Equal(sub, pick(units, idx)) {
				t.Fatalf("n=%d k=%d: balance.Shard(%d) = %v, %v; balance.Split gives %v", n, k, i, subIdx, err, idx)
			}
		}
		sum.Merge(countUnits(t, pick(units, idx)))
	}
	if sum != whole {
		t.Errorf("n=%d k=%d: shards count %+v, whole board %+v", n, k, sum, whole)
	}
}

// countUnits counts the solutions of units with CountUnits on
// two goroutines, failing t if it fails.
func countUnits(t *testing.T, units []enumerate.Unit) nqueens.Counts {
	t.Helper()
	c, err := CountUnits(context.Background(), units, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// pick returns the units at the indexes idx.
func pick(units []enumerate.Unit, idx []int) []enumerate.Unit {
	out := make([]enumerate.Unit, len(idx))
	for i, x := range idx {
		out[i] = units[x]
	}
	return out
}

// TestShardsBalanceRealWork splits the units by their estimated cost and
// measures what the split is for: the nodes each shard's search really
// visits (Nodes walks the tree). It also holds every shard's
// estimate to its real work, which an estimate unrelated to the tree (a
// constant, say) misses by far.
func TestShardsBalanceRealWork(t *testing.T) {
	units := Units(14)
	const k = 7
	shards, err := balance.Split(units, k, Cost)
	if err != nil {
		t.Fatal(err)
	}
	nodes := make([]uint64, len(units))
	for i, u := range units {
		nodes[i] = Nodes(u)
	}
	checkBalanced(t, "units n=14 k=7, nodes visited", shards, func(i int) uint64 { return nodes[i] })
	for s, idx := range shards {
		var est, real uint64
		for _, i := range idx {
			est += Cost(units[i])
			real += nodes[i]
		}
		t.Logf("shard %d/%d: %d units, %d nodes, estimated %d", s, k, len(idx), real, est)
		if r := float64(est) / float64(real); r < 0.95 || r > 1.05 {
			t.Errorf("shard %d/%d: estimated %d nodes, visits %d: more than 5%% apart", s, k, est, real)
		}
	}
}

// checkBalanced fails t if the costliest shard costs more than 5% above
// the mean.
func checkBalanced(t *testing.T, what string, shards [][]int, cost func(i int) uint64) {
	t.Helper()
	var costs []uint64
	var total uint64
	for _, idx := range shards {
		var c uint64
		for _, x := range idx {
			c += cost(x)
		}
		costs = append(costs, c)
		total += c
	}
	mean := float64(total) / float64(len(costs))
	if hi := float64(slices.Max(costs)); hi > 1.05*mean {
		t.Errorf("%s: costliest shard %.0f, mean %.0f: more than 5%% apart", what, hi, mean)
	}
}

func TestCostIsDeterministic(t *testing.T) {
	for _, u := range Units(12)[:50] {
		if a, b := Cost(u), Cost(u); a != b || a == 0 {
			t.Fatalf("unit %v: Cost %d then %d", u.Prefix(), a, b)
		}
	}
}

// TestShard checks the one split of the class search's units: each shard's
// units are those ShardSizes counts, every unit is in one shard, and
// CheckShard refuses what Shard refuses.
func TestShard(t *testing.T) {
	for _, tc := range []struct{ n, k int }{{8, 1}, {10, 3}, {12, 7}} {
		sizes, err := ShardSizes(tc.n, tc.k)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int]bool{}
		for i, size := range sizes {
			s := nqueens.Shard{Index: i, Count: tc.k}
			units, idx, err := Shard(tc.n, s)
			if err != nil || CheckShard(tc.n, s) != nil {
				t.Fatalf("n=%d shard %v: %v", tc.n, s, err)
			}
			if len(units) != size || len(idx) != size {
				t.Errorf("n=%d shard %v: %d units, ShardSizes says %d", tc.n, s, len(units), size)
			}
			for j, k := range idx {
				if seen[k] || Units(tc.n)[k] != units[j] {
					t.Errorf("n=%d shard %v: unit %d twice, or not the unit at its index", tc.n, s, k)
				}
				seen[k] = true
			}
		}
		if len(seen) != len(Units(tc.n)) {
			t.Errorf("n=%d: the %d shards hold %d of %d units", tc.n, tc.k, len(seen), len(Units(tc.n)))
		}
	}
	bad := nqueens.Shard{Index: 0, Count: len(Units(8)) + 1}
	if _, _, err := Shard(8, bad); !errors.Is(err, nqueens.ErrNoShard) || !errors.Is(CheckShard(8, bad), nqueens.ErrNoShard) {
		t.Errorf("more shards than units: Shard %v, CheckShard %v; want ErrNoShard", err, CheckShard(8, bad))
	}
}
