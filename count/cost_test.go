package count_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/balance"
	"github.com/nqueens/nqueens/internal/testutil"
)

// TestConstellationShardsPartition splits the constellations of several n
// into k shards by their cost: the split is the same each time and holds
// every constellation once, balance.Shard gives a shard's constellations,
// and the shards' counts add up to the whole board's.
func TestConstellationShardsPartition(t *testing.T) {
	for _, n := range []int{1, 4, 8, 11, 13} {
		cs := count.Constellations(n)
		want, err := count.Solutions(context.Background(), cs, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []int{1, 2, 3, 7, len(cs)} {
			if k > len(cs) {
				continue
			}
			shards, err := balance.Split(cs, k, count.Constellation.Cost)
			if err != nil {
				t.Fatalf("n=%d k=%d: %v", n, k, err)
			}
			again, _ := balance.Split(cs, k, count.Constellation.Cost)
			if !slices.EqualFunc(shards, again, slices.Equal) {
				t.Errorf("n=%d k=%d: two splits differ", n, k)
			}
			testutil.CheckPartition(t, n, k, shards, len(cs))
			var sum uint64
			for i, idx := range shards {
				var sub []count.Constellation
				for _, x := range idx {
					sub = append(sub, cs[x])
				}
				if i == 0 || i == k-1 {
					got, gotIdx, err := balance.Shard(cs, nqueens.Shard{Index: i, Count: k}, count.Constellation.Cost)
					if err != nil || !slices.Equal(gotIdx, idx) || !slices.Equal(got, sub) {
						t.Fatalf("n=%d k=%d: balance.Shard(%d) = %v, %v; balance.Split gives %v", n, k, i, gotIdx, err, idx)
					}
				}
				c, err := count.Solutions(context.Background(), sub, 2, nil)
				if err != nil {
					t.Fatal(err)
				}
				sum += c
			}
			if sum != want {
				t.Errorf("n=%d k=%d: shards count %d solutions, whole board %d", n, k, sum, want)
			}
		}
	}
}

func TestConstellationCost(t *testing.T) {
	cs := count.Constellations(14)
	for _, c := range cs {
		if a, b := c.Cost(), c.Cost(); a != b || a == 0 {
			t.Fatalf("constellation %v: Cost %d then %d", c.Queens(), a, b)
		}
	}
}

// TestConstellationShardsBalanceWork checks that shards balanced by the
// estimate are balanced in the work the search does, the nodes it visits
// (Nodes), not in the estimate that made the split, which a constant
// estimator would pass. With 20 and 40 shards of the 730 constellations of
// n = 12 the costliest shard visits 3% and 6% more nodes than the mean;
// split by a constant cost instead, 16% and 37% more.
func TestConstellationShardsBalanceWork(t *testing.T) {
	cs := count.Constellations(12)
	nodes := make([]uint64, len(cs))
	var total uint64
	for i, c := range cs {
		nodes[i] = c.Nodes()
		total += nodes[i]
	}
	for _, k := range []int{20, 40} {
		shards, err := balance.Split(cs, k, count.Constellation.Cost)
		if err != nil {
			t.Fatal(err)
		}
		var most uint64
		for _, idx := range shards {
			var work uint64
			for _, x := range idx {
				work += nodes[x]
			}
			most = max(most, work)
		}
		if mean := float64(total) / float64(k); float64(most) > 1.12*mean {
			t.Errorf("n=12 k=%d: the busiest shard visits %d nodes, the mean is %.0f: more than 12%% apart", k, most, mean)
		}
	}
}

// TestSplitIsStable pins how the constellations of n = 16 and 19 split into
// shards by Cost: saved parts and count states name their shard's
// constellations, so a change to the split tree (splitTailRows) or to the
// order of Constellations must be a deliberate one, made with this test.
func TestSplitIsStable(t *testing.T) {
	for _, tc := range []struct {
		n, k int
		want string
	}{
		{16, 8, "21e3ba272e720c3f"},
		{19, 64, "481433902a609ca4"},
	} {
		split, err := balance.Split(count.Constellations(tc.n), tc.k, count.Constellation.Cost)
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		for _, shard := range split {
			fmt.Fprintln(h, shard)
		}
		if got := hex.EncodeToString(h.Sum(nil))[:16]; got != tc.want {
			t.Errorf("the split of n=%d into %d shards hashes to %s, want %s: saved parts and count states of this split no longer match", tc.n, tc.k, got, tc.want)
		}
	}
}
