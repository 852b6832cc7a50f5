package count_test

import (
	"context"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/testutil"
)

// The published classes by orbit, n = 1..20: OEIS A260320, the classes of
// 8 solutions ("asymmetric characteristic solutions"), and A260318, those
// of 2 ("doubly symmetric"; n = 1's one class is its own, of 1); A033148
// is the solutions a quarter turn leaves as they are. With A002562 they
// give the rest: classes of 4 = unique - of 8 - of 2, and the solutions a
// half turn leaves = 4 (classes of 4) + A033148.
var (
	a260320 = [...]uint64{0, 0, 0, 0, 0, 1, 0, 4, 11, 42, 89, 329, 1765, 9197, 45647, 284743, 1846189, 11975869, 83259065, 621001708, 4878630533}
	a260318 = [...]uint64{0, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 4, 4, 0, 0, 32, 64, 0, 0, 240}
	a033148 = [...]uint64{0, 1, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 8, 8, 0, 0, 64, 128, 0, 0, 480}
)

// published returns the published counts of n = 1..20, orbits included.
func published(n int) nqueens.Counts {
	k, _ := nqueens.KnownCounts(n)
	c := nqueens.Counts{Total: k.Total, Unique: k.Unique, Orbit8: a260320[n], Orbit2: a260318[n]}
	if n == 1 {
		c.Orbit2, c.Orbit1 = 0, 1
	}
	c.Orbit4 = c.Unique - c.Orbit8 - c.Orbit2 - c.Orbit1
	return c
}

// TestJoinBoardPublished counts n = 1..16 with the join, n = 17 to 19
// too with NQUEENS_LONG (15 with -short, as the race detector runs it):
// every count, classes by orbit included, is the published one.
func TestJoinBoardPublished(t *testing.T) {
	t.Parallel()
	last := 16
	switch {
	case testutil.Long():
		last = 19
	case testing.Short():
		last = 15
	}
	for n := 1; n <= last; n++ {
		got, err := count.Board(context.Background(), n, count.Options{By: count.ByJoin})
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if want := published(n); got != want {
			t.Errorf("n=%d: %+v, want %+v", n, got, want)
		}
	}
}

// TestSymmetricPublished checks the solutions the half and the quarter
// turn leave as they are, n = 1..20, against OEIS.
func TestSymmetricPublished(t *testing.T) {
	t.Parallel()
	for n := 1; n <= 20; n++ {
		half, quarter, err := count.Symmetric(context.Background(), n, 0)
		if err != nil {
			t.Fatal(err)
		}
		wantHalf := 4*published(n).Orbit4 + a033148[n]
		if n == 1 {
			wantHalf = 1
		}
		if half != wantHalf || quarter != a033148[n] {
			t.Errorf("n=%d: %d solutions under the half turn, %d under the quarter; want %d, %d", n, half, quarter, wantHalf, a033148[n])
		}
	}
}

// TestJoinFits checks the join's memory rule: n above 25 never, others
// where the memory is there or not known.
func TestJoinFits(t *testing.T) {
	tests := []struct {
		n         int
		available int64
		ok        bool
	}{
		{18, -1, true},
		{18, 1 << 30, true},
		{20, 32 << 20, false}, // 80 MiB needed
		{24, 4 << 30, false},
		{24, 8 << 30, true},
		{25, -1, true},
		{26, -1, false},
		{26, 1 << 50, false},
	}
	for _, tt := range tests {
		if err := count.JoinFits(tt.n, 2, tt.available); (err == nil) != tt.ok {
			t.Errorf("JoinFits(%d, 2, %d) = %v, want ok %t", tt.n, tt.available, err, tt.ok)
		}
	}
}

// TestJoinFaster checks where the join is the default.
func TestJoinFaster(t *testing.T) {
	for n, want := range map[int]bool{1: false, 5: false, 6: false, 7: false, 8: true, 15: false, 16: true, 17: true, 25: true, 26: false, 32: false} {
		if count.JoinFaster(n) != want {
			t.Errorf("JoinFaster(%d) = %t, want %t", n, !want, want)
		}
	}
}
