package partial

import (
	"context"
	"runtime"
	"slices"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/enumerate"
	"github.com/nqueens/nqueens/internal/parallel"
)

// eachBoard calls f with every board of n with at most k given queens
// (attacking ones included), each once.
func eachBoard(n, k int, f func(Board)) {
	b, _ := Empty(n)
	var rec func(from, left int)
	rec = func(from, left int) {
		f(b)
		if left == 0 {
			return
		}
		for r := from; r < n; r++ {
			for c := range n {
				b = b.With(r, c)
				rec(r+1, left-1)
				b = b.Without(r)
			}
		}
	}
	rec(0, k)
}

// TestCompletionsBruteForce compares, for every board of n <= 8 with up to
// 3 given queens, the completions and their count with the solutions of n
// that hold the givens, found by filtering enumerate.Solutions.
func TestCompletionsBruteForce(t *testing.T) {
	for n := 1; n <= 8; n++ {
		all := slices.Collect(enumerate.Solutions(n))
		boards := 0
		eachBoard(n, 3, func(b Board) {
			boards++
			var want []nqueens.Placement
			for _, p := range all {
				if b.Extends(p) {
					want = append(want, p)
				}
			}
			got := slices.Collect(Completions(b))
			if !slices.Equal(got, want) {
				t.Fatalf("n=%d board %q: completions %v, want %v", n, b, got, want)
			}
			c := CountCompletions(b)
			if c.Completions != uint64(len(want)) {
				t.Fatalf("n=%d board %q: count %d, want %d", n, b, c.Completions, len(want))
			}
			if u := CountUpTo(b, 2); u.Completions != min(uint64(len(want)), 2) {
				t.Fatalf("n=%d board %q: CountUpTo 2 = %d, want %d", n, b, u.Completions, min(len(want), 2))
			}
		})
		t.Logf("n=%d: %d boards", n, boards)
	}
}

// TestCompletionsKnownCounts: the empty board's completions are every
// solution (OEIS A000170).
func TestCompletionsKnownCounts(t *testing.T) {
	for n := 1; n <= 11; n++ {
		b, _ := Empty(n)
		k, _ := nqueens.KnownCounts(n)
		if got := CountCompletions(b).Completions; got != k.Total {
			t.Errorf("n=%d: %d completions of the empty board, want %d", n, got, k.Total)
		}
	}
}

// TestRemovedQueens is the property that a solution with any queens
// removed has at least one completion, and that its completions list the
// solution, for solutions of n = 4..12 and random rows removed.
func TestRemovedQueens(t *testing.T) {
	seed := uint64(1)
	for n := 4; n <= 12; n++ {
		i := 0
		for p := range enumerate.Solutions(n) {
			i++
			if i%37 != 1 {
				continue
			}
			seed = seed*6364136223846793005 + 1442695040888963407
			var rows []int
			for r := range n {
				if seed>>(r+20)&1 == 1 {
					rows = append(rows, r)
				}
			}
			b := FromPlacement(p, rows)
			if c := CountCompletions(b); c.Completions < 1 {
				t.Fatalf("n=%d: %v with rows %v kept: %d completions", n, p, rows, c.Completions)
			}
			if !slices.Contains(slices.Collect(Completions(b)), p) {
				t.Fatalf("n=%d: %q does not list %v", n, b, p)
			}
		}
	}
}

// TestCompletionsLarge checks a board of n = 32 with many givens: every
// completion is a valid solution extending the board.
func TestCompletionsLarge(t *testing.T) {
	cols, _ := nqueens.Construct(32)
	ints := make([]int, 32)
	for i, c := range cols {
		ints[i] = int(c)
	}
	p := nqueens.MustNew(ints...)
	b := FromPlacement(p, []int{0, 2, 4, 5, 7, 9, 11, 13, 15, 16, 18, 20, 22, 24, 26, 28, 30})
	k := 0
	for q := range Completions(b) {
		k++
		if err := q.Valid(); err != nil || !b.Extends(q) {
			t.Fatalf("completion %v of %q: valid %v, extends %v", q, b, err, b.Extends(q))
		}
	}
	if c := CountCompletions(b); c.Completions != uint64(k) || k < 1 {
		t.Fatalf("count %d, listed %d", c.Completions, k)
	}
}

func TestCompletionsAllocs(t *testing.T) {
	b, _ := Parse("_ _ 0 _ _ _ _ _ _ _")
	allocs := testing.AllocsPerRun(5, func() {
		for range Completions(b) {
		}
	})
	if allocs > 3 {
		t.Errorf("Completions allocates %.0f times per run, want a few per search, none per solution", allocs)
	}
}

func TestClassesOf(t *testing.T) {
	for n := 4; n <= 9; n++ {
		eachBoard(n, 1, func(b Board) {
			var total uint64
			tallies, _ := ClassesOf(context.Background(), b)
			for i, c := range tallies {
				total += c.Count
				if i > 0 && tallies[i-1].Canonical.Compare(c.Canonical) >= 0 {
					t.Fatalf("%q: classes out of order", b)
				}
				if c.Symmetry != canonical.SymmetryOf(c.Canonical) || !canonical.IsCanonical(c.Canonical) {
					t.Fatalf("%q: class %v wrong", b, c)
				}
			}
			if total != CountCompletions(b).Completions {
				t.Fatalf("%q: classes hold %d completions", b, total)
			}
		})
	}
}

// TestSearchStops checks that the counts and the classes of completions
// stop with the error of a cancelled context, even where the search would
// run for years (an empty board of 32), and run to their end with a live
// one.
func TestSearchStops(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	empty32, _ := Empty(32)
	b8, _ := Parse("1 _ _ _ _ _ _ 3")
	tests := []struct {
		name    string
		ctx     context.Context
		b       Board
		count   uint64
		classes int
		err     error
	}{
		{"empty 32, cancelled", cancelled, empty32, 0, 0, context.Canceled},
		{"three givens of 32, cancelled", cancelled, empty32.With(0, 1).With(5, 9).With(31, 20), 0, 0, context.Canceled},
		{"two givens of 8, live", context.Background(), b8, 3, 2, nil},
		{"attacking givens, cancelled", cancelled, b8.With(1, 1), 0, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := CountContext(tt.ctx, tt.b)
			if err != tt.err || c.Completions != tt.count { // 0 when cancelled
				t.Errorf("CountContext = %+v, %v; want %d, %v", c, err, tt.count, tt.err)
			}
			tallies, err := ClassesOf(tt.ctx, tt.b)
			if err != tt.err || len(tallies) != tt.classes { // none when cancelled
				t.Errorf("ClassesOf = %d classes, %v; want %d, %v", len(tallies), err, tt.classes, tt.err)
			}
		})
	}
}

// TestSearchStopsMidway cancels a search from inside it, once it has
// found completions: the walk stops at its next node and marks the search
// cut short, which CountContext and ClassesOf turn into no count, no
// tallies and ctx.Err() (TestSearchStops).
func TestSearchStopsMidway(t *testing.T) {
	b, _ := Empty(16)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := newSearch(b)
	var release func()
	s.halt, release = parallel.Watch(ctx)
	defer release()
	found := 0
	s.walk(func(*[nqueens.MaxN]uint8) bool {
		if found++; found == 100 {
			cancel()
			for !s.halt.Stopped() {
				runtime.Gosched() // until the Stop is raised
			}
		}
		return true
	})
	if !s.cut || found != 100 {
		t.Errorf("search cancelled at completion 100: cut %v after %d completions", s.cut, found)
	}
}
