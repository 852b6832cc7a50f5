package partial

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
)

// TestCountParallel checks that the parallel count of a board finds what
// the count on one goroutine finds, completions and nodes alike, for
// boards that it splits into units and boards it does not, and that it
// reports each unit's progress once.
func TestCountParallel(t *testing.T) {
	var boards []Board
	k := 0
	eachBoard(12, 1, func(b Board) {
		if k%5 == 0 {
			boards = append(boards, b)
		}
		k++
	})
	for _, s := range []string{"_ _ _ _ _ 3 _ _ _ 0 _ _ _", "0 _ _ _ _ _ _ _ _ _ _ _ _", "_ _ _ _ _ _ _ _ _ _ _", "1 3 _ _ _ _ _ _", "0 1 _ _ _ _ _ _ _ _ _ _"} {
		b, err := Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		boards = append(boards, b)
	}
	split := 0
	for _, b := range boards {
		want, err := CountContext(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		var units, done atomic.Int64
		for _, workers := range []int{1, 3} {
			units.Store(0)
			done.Store(0)
			got, err := CountParallel(context.Background(), b, Options{Workers: workers,
				Start: func(u int) { units.Add(int64(u)) }, Progress: func() { done.Add(1) }})
			if err != nil || got != want {
				t.Fatalf("board %q, %d workers: CountParallel = %+v, %v; CountContext = %+v", b, workers, got, err, want)
			}
			if units.Load() != done.Load() || units.Load() < 1 {
				t.Fatalf("board %q: %d units started, %d reported done", b, units.Load(), done.Load())
			}
		}
		if units.Load() > 1 {
			split++
		}
	}
	if split < len(boards)/2 {
		t.Errorf("only %d of %d boards were split into units", split, len(boards))
	}
}

// TestCountParallelStops checks that a cancelled count returns at once
// with the context's error, not a count.
func TestCountParallelStops(t *testing.T) {
	b, _ := Empty(32)
	ctx, cancel := context.WithCancel(context.Background())
	var once atomic.Bool
	got, err := CountParallel(ctx, b, Options{Workers: 2, Progress: func() {}, Start: func(int) {
		if once.CompareAndSwap(false, true) {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || got.Completions != 0 {
		t.Errorf("cancelled count of the empty board of 32 = %+v, %v; want no completions and context.Canceled", got, err)
	}
}

// TestEstimate checks Knuth's estimate of a search's nodes against the
// nodes the search places: exact with one empty row, and near for larger
// trees.
func TestEstimate(t *testing.T) {
	for _, tc := range []struct {
		board string
		tol   float64
	}{
		{"1 3 0 _", 0},
		{"_ _ _ _ _ _ _ _ _ _ _ _", 0.1},
		{"_ _ _ _ _ _ _ _ _ _ _ _ _", 0.1},
		{"_ _ _ 5 _ _ _ _ _ _ _ _ _ _", 0.1},
	} {
		b, err := Parse(tc.board)
		if err != nil {
			t.Fatal(err)
		}
		want := float64(CountCompletions(b).Nodes)
		if got := Estimate(b); got < want*(1-tc.tol) || got > want*(1+tc.tol) {
			t.Errorf("Estimate(%q) = %.0f, want %.0f within %.0f%%", tc.board, got, want, 100*tc.tol)
		}
	}
	if b, _ := Parse("0 1 _ _"); Estimate(b) != 0 {
		t.Errorf("Estimate of a board whose queens attack = %v, want 0", Estimate(b))
	}
}
