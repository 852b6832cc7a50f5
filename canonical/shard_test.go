package canonical_test

import (
	"context"
	"slices"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/internal/testutil"
)

func TestShardsPartitionUnits(t *testing.T) {
	for _, n := range []int{1, 4, 8, 11, 13} {
		units := canonical.Units(n)
		want, err := canonical.CountUnits(context.Background(), units, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []int{1, 2, 3, 7, len(units)} {
			if k > len(units) {
				continue
			}
			shards, err := canonical.Shards(units, k)
			if err != nil {
				t.Fatalf("n=%d k=%d: %v", n, k, err)
			}
			again, _ := canonical.Shards(units, k)
			if !slices.EqualFunc(shards, again, slices.Equal) {
				t.Errorf("n=%d k=%d: two splits differ", n, k)
			}
			testutil.CheckPartition(t, n, k, shards, len(units))
			var sum nqueens.Counts
			for i, idx := range shards {
				sub, subIdx, err := canonical.ShardUnits(n, i, k)
				if err != nil || !slices.Equal(subIdx, idx) || len(sub) != len(idx) {
					t.Fatalf("n=%d k=%d: ShardUnits(%d) = %v, %v; Shards gives %v", n, k, i, subIdx, err, idx)
				}
				c, err := canonical.CountUnits(context.Background(), sub, 2, nil)
				if err != nil {
					t.Fatal(err)
				}
				sum.Merge(c)
			}
			if sum != want {
				t.Errorf("n=%d k=%d: shards count %+v, whole board %+v", n, k, sum, want)
			}
		}
	}
}

// TestShardsBalanceRealWork splits the units by their estimated cost and
// measures what the split is for: the nodes each shard's search really
// visits (canonical.Nodes walks the tree). It also holds every shard's
// estimate to its real work, which an estimate unrelated to the tree (a
// constant, say) misses by far.
func TestShardsBalanceRealWork(t *testing.T) {
	units := canonical.Units(14)
	const k = 7
	shards, err := canonical.Shards(units, k)
	if err != nil {
		t.Fatal(err)
	}
	nodes := make([]uint64, len(units))
	for i, u := range units {
		nodes[i] = canonical.Nodes(u)
	}
	checkBalanced(t, "units n=14 k=7, nodes visited", shards, func(i int) uint64 { return nodes[i] })
	for s, idx := range shards {
		var est, real uint64
		for _, i := range idx {
			est += canonical.Cost(units[i])
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

func TestShardsRejectBadCounts(t *testing.T) {
	units := canonical.Units(8)
	for _, k := range []int{0, -1, len(units) + 1} {
		if _, err := canonical.Shards(units, k); err == nil {
			t.Errorf("Shards(k=%d) succeeded", k)
		}
	}
	for _, c := range []struct{ i, k int }{{-1, 3}, {3, 3}, {0, 0}} {
		if _, _, err := canonical.ShardUnits(8, c.i, c.k); err == nil {
			t.Errorf("ShardUnits(8, %d, %d) succeeded", c.i, c.k)
		}
	}
}

func TestCostIsDeterministic(t *testing.T) {
	for _, u := range canonical.Units(12)[:50] {
		if a, b := canonical.Cost(u), canonical.Cost(u); a != b || a == 0 {
			t.Fatalf("unit %v: Cost %d then %d", u.Prefix(), a, b)
		}
	}
}
