package balance_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/balance"
	"github.com/nqueens/nqueens/internal/testutil"
)

// weight is an item of a synthetic board: its cost, spread over orders of
// magnitude as the costs of real units are.
func weight(i int) uint64 { return balance.SplitMix(uint64(i)) % 1_000_000 >> (i % 17) }

// TestSplitPartitions splits items into k shards, from one shard to one
// item a shard: every index is in one shard, in increasing order, the
// split is the same each time, Shard gives each shard's items with their
// indexes, and with many items to a shard the costliest shard is within
// 5% of the mean.
func TestSplitPartitions(t *testing.T) {
	items := make([]int, 5000)
	for i := range items {
		items[i] = i
	}
	cost := func(i int) uint64 { return weight(i) }
	for _, k := range []int{1, 2, 7, 50, len(items)} {
		shards, err := balance.Split(items, k, cost)
		if err != nil {
			t.Fatalf("k=%d: %v", k, err)
		}
		if again, _ := balance.Split(items, k, cost); !slices.EqualFunc(shards, again, slices.Equal) {
			t.Errorf("k=%d: two splits differ", k)
		}
		testutil.CheckPartition(t, len(items), k, shards, len(items))
		var total, most uint64
		for i, idx := range shards {
			var c uint64
			for _, x := range idx {
				c += cost(x)
			}
			total, most = total+c, max(most, c)
			if i == 0 || i == k-1 {
				got, gotIdx, err := balance.Shard(items, nqueens.Shard{Index: i, Count: k}, cost)
				if err != nil || !slices.Equal(gotIdx, idx) || !slices.Equal(got, idx) {
					t.Fatalf("k=%d: Shard(%d) = %v, %v; Split gives %v", k, i, gotIdx, err, idx)
				}
			}
		}
		if mean := float64(total) / float64(k); k <= 50 && float64(most) > 1.05*mean {
			t.Errorf("k=%d: costliest shard %d, mean %.0f: more than 5%% apart", k, most, mean)
		}
	}
}

func TestShardOfTheWholeBoard(t *testing.T) {
	items := []string{"a", "b", "c"}
	got, idx, err := balance.Shard(items, nqueens.Shard{}, func(string) uint64 { t.Error("a cost asked for the whole board"); return 1 })
	if err != nil || !slices.Equal(got, items) || !slices.Equal(idx, []int{0, 1, 2}) {
		t.Errorf("Shard(whole) = %v, %v, %v", got, idx, err)
	}
	// A board without work is one empty shard.
	if shards, err := balance.Split([]string{}, 1, nil); err != nil || len(shards) != 1 || len(shards[0]) != 0 {
		t.Errorf("Split(none, 1) = %v, %v", shards, err)
	}
}

// TestNoSuchShard checks the errors of shards that do not exist: each
// matches nqueens.ErrNoShard and says what is allowed, and Check, which
// estimates no cost, agrees with Shard.
func TestNoSuchShard(t *testing.T) {
	items := make([]int, 8)
	one := func(int) uint64 { return 1 }
	tests := []struct {
		s    nqueens.Shard
		want string
	}{
		{nqueens.Shard{Index: 3, Count: 3}, "shard 3/3: want an index from 0 to 2"},
		{nqueens.Shard{Index: -1, Count: 3}, "shard -1/3: want an index from 0 to 2"},
		{nqueens.Shard{Index: 2, Count: 0}, "shard 2/0: want a count from 1 to 1000000"},
		{nqueens.Shard{Index: 0, Count: 9}, "shard count 9: want 1 to 8, the number of work units"},
	}
	for _, tt := range tests {
		_, _, err := balance.Shard(items, tt.s, one)
		if err == nil || err.Error() != tt.want || !errors.Is(err, nqueens.ErrNoShard) {
			t.Errorf("Shard(%d/%d) = %v, want %q matching ErrNoShard", tt.s.Index, tt.s.Count, err, tt.want)
		}
		if cerr := balance.Check(len(items), tt.s); cerr == nil || cerr.Error() != tt.want {
			t.Errorf("Check(%d/%d) = %v, want %q", tt.s.Index, tt.s.Count, cerr, tt.want)
		}
	}
	for _, k := range []int{0, -1, len(items) + 1} {
		if _, err := balance.Split(items, k, one); !errors.Is(err, nqueens.ErrNoShard) {
			t.Errorf("Split(k=%d) = %v, want ErrNoShard", k, err)
		}
	}
	if err := balance.Check(0, nqueens.Shard{Index: 0, Count: 2}); err == nil {
		t.Error("a board without work splits into 2 shards")
	}
}

// TestKnuthCountsAUniformTree checks the estimator on a tree where every
// path sees the same numbers of children, so that every estimate is
// exact: a complete binary tree of depth 10 holds 2^11-1 nodes, which the
// mean gives whole and the sum as 16 shares of 2047/16 rounded down.
func TestKnuthCountsAUniformTree(t *testing.T) {
	children := func(i int, x int, kids *[nqueens.MaxN]uint32) int {
		if x == 10 {
			return 0
		}
		kids[0], kids[1] = 1, 2
		return 2
	}
	child := func(i int, x int, bit uint32) (int, bool) { return x + 1, true }
	sum, mean := balance.Knuth(7, 0, children, child)
	if sum != 16*(2047/16) || mean != 2047 {
		t.Errorf("Knuth = %d, %g; want %d, 2047", sum, mean, 16*(2047/16))
	}
}
