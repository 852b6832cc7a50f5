package enumerate_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/enumerate"
)

// totals is OEIS A000170 for n = 1..14 (../shared/oeis/counts.tsv).
var totals = []struct {
	n     int
	total uint64
}{
	{1, 1}, {2, 0}, {3, 0}, {4, 2}, {5, 10}, {6, 4}, {7, 40}, {8, 92}, {9, 352},
	{10, 724}, {11, 2680}, {12, 14200}, {13, 73712}, {14, 365596},
}

func TestSolutionsCountsValidOrdered(t *testing.T) {
	for _, tt := range totals {
		if tt.n > 12 && testing.Short() {
			continue
		}
		var got uint64
		var prev nqueens.Placement
		for p := range enumerate.Solutions(tt.n) {
			if p.N() != tt.n {
				t.Fatalf("n=%d: placement of size %d", tt.n, p.N())
			}
			if err := p.Valid(); err != nil {
				t.Fatalf("n=%d: %v is not a solution: %v", tt.n, p, err)
			}
			if got > 0 && prev.Compare(p) >= 0 {
				t.Fatalf("n=%d: %v after %v: not in strictly increasing order", tt.n, p, prev)
			}
			prev = p
			got++
		}
		if got != tt.total {
			t.Errorf("Solutions(%d) yielded %d, want %d", tt.n, got, tt.total)
		}
	}
}

func TestCount(t *testing.T) {
	for _, tt := range totals {
		for _, workers := range []int{1, 3} {
			got, err := enumerate.Count(context.Background(), tt.n, workers)
			if err != nil || got != tt.total {
				t.Errorf("Count(%d, workers=%d) = %d, %v; want %d", tt.n, workers, got, err, tt.total)
			}
		}
	}
}

func TestParallelSolutionsSameAsSequential(t *testing.T) {
	for _, n := range []int{1, 4, 6, 8, 10, 11} {
		want := slices.Collect(enumerate.Solutions(n))
		got := slices.Collect(enumerate.ParallelSolutions(context.Background(), n, 4))
		if !slices.Equal(got, want) {
			t.Errorf("n=%d: parallel order differs from sequential (%d vs %d solutions)", n, len(got), len(want))
		}
	}
}

func TestSolutionsStopsEarly(t *testing.T) {
	k := 0
	for range enumerate.Solutions(10) {
		k++
		if k == 5 {
			break
		}
	}
	k = 0
	for range enumerate.ParallelSolutions(context.Background(), 12, 2) {
		k++
		if k == 5 {
			break
		}
	}
	if k != 5 {
		t.Fatalf("k = %d", k)
	}
}

func TestUnitsPartition(t *testing.T) {
	for _, n := range []int{1, 5, 8, 12} {
		var all []nqueens.Placement
		for _, u := range enumerate.Units(n) {
			for p := range u.Solutions() {
				all = append(all, p)
			}
			if u.N() != n {
				t.Fatalf("unit of size %d", u.N())
			}
		}
		want := slices.Collect(enumerate.Solutions(n))
		if !slices.Equal(all, want) {
			t.Errorf("n=%d: units in order give %d solutions, Solutions gives %d, or order differs", n, len(all), len(want))
		}
	}
}

func TestOrderedKeepsOrderAndStops(t *testing.T) {
	work := func(_ context.Context, i int) int { return i * i }
	var got []int
	for i, v := range enumerate.Ordered(context.Background(), 1000, 4, work) {
		if v != i*i {
			t.Fatalf("index %d got %d", i, v)
		}
		got = append(got, i)
	}
	if len(got) != 1000 || !slices.IsSorted(got) {
		t.Fatalf("got %d results, sorted=%v", len(got), slices.IsSorted(got))
	}
	for i := range enumerate.Ordered(context.Background(), 1000, 4, work) {
		if i == 10 {
			break
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	for range enumerate.Ordered(ctx, 1000, 3, work) {
		n++
		if n == 7 {
			cancel()
		}
	}
	if n > 7+6 {
		t.Errorf("cancel: %d results yielded, want about 7", n)
	}
}

func ExampleSolutions() {
	for p := range enumerate.Solutions(4) {
		fmt.Println(p)
		for _, row := range p.Grid() {
			fmt.Println(row)
		}
	}
	// Output:
	// 1 3 0 2
	// .Q..
	// ...Q
	// Q...
	// ..Q.
	// 2 0 3 1
	// ..Q.
	// Q...
	// ...Q
	// .Q..
}

func BenchmarkCount(b *testing.B) {
	for _, n := range []int{12, 14} {
		b.Run(fmt.Sprint("n=", n), func(b *testing.B) {
			for b.Loop() {
				enumerate.Count(context.Background(), n, 0)
			}
		})
	}
}

func BenchmarkSolutions(b *testing.B) {
	for b.Loop() {
		for range enumerate.Solutions(12) {
		}
	}
}
