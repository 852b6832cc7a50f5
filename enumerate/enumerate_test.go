package enumerate

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/testutil"
)

func TestSolutionsCountsValidOrdered(t *testing.T) {
	for n, want := range testutil.Known() {
		if n > 12 && testing.Short() {
			continue
		}
		var got uint64
		var prev nqueens.Placement
		for p := range Solutions(n) {
			if p.N() != n {
				t.Fatalf("n=%d: placement of size %d", n, p.N())
			}
			if err := p.Valid(); err != nil {
				t.Fatalf("n=%d: %v is not a solution: %v", n, p, err)
			}
			if got > 0 && prev.Compare(p) >= 0 {
				t.Fatalf("n=%d: %v after %v: not in strictly increasing order", n, p, prev)
			}
			prev = p
			got++
		}
		if got != want.Total {
			t.Errorf("Solutions(%d) yielded %d, want %d", n, got, want.Total)
		}
	}
}

func TestCount(t *testing.T) {
	for n, want := range testutil.Known() {
		for _, workers := range []int{1, 3} {
			got, err := countSolutions(context.Background(), n, workers)
			if err != nil || got != want.Total {
				t.Errorf("Count(%d, workers=%d) = %d, %v; want %d", n, workers, got, err, want.Total)
			}
		}
	}
}

func TestParallelSolutionsSameAsSequential(t *testing.T) {
	for _, n := range []int{1, 4, 6, 8, 10, 11} {
		want := slices.Collect(Solutions(n))
		got := slices.Collect(parallelSolutions(context.Background(), n, 4))
		if !slices.Equal(got, want) {
			t.Errorf("n=%d: parallel order differs from sequential (%d vs %d solutions)", n, len(got), len(want))
		}
	}
}

// TestSolutionsStopsEarly breaks out of each iterator after a few
// solutions: it yields the first solutions in order and, as range over
// func requires, yields nothing after the break.
func TestSolutionsStopsEarly(t *testing.T) {
	for _, tt := range []struct {
		name string
		n    int
		seq  iter.Seq[nqueens.Placement]
	}{
		{"Solutions(10)", 10, Solutions(10)},
		{"ParallelSolutions(12, 2)", 12, parallelSolutions(context.Background(), 12, 2)},
	} {
		const stop = 5
		first := slices.Collect(Solutions(tt.n))[:stop]
		var got []nqueens.Placement
		for p := range tt.seq {
			got = append(got, p)
			if len(got) == stop {
				break
			}
		}
		if !slices.Equal(got, first) {
			t.Errorf("%s: broke after %v, want the first %d solutions %v", tt.name, got, stop, first)
		}
	}
}

func TestUnitsPartition(t *testing.T) {
	for _, n := range []int{1, 5, 8, 12} {
		var all []nqueens.Placement
		for _, u := range Units(n) {
			for p := range u.Solutions() {
				all = append(all, p)
			}
			if u.N() != n {
				t.Fatalf("unit of size %d", u.N())
			}
		}
		want := slices.Collect(Solutions(n))
		if !slices.Equal(all, want) {
			t.Errorf("n=%d: units in order give %d solutions, Solutions gives %d, or order differs", n, len(all), len(want))
		}
	}
}

func ExampleSolutions() {
	for p := range Solutions(4) {
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

// TestSolutionsAllocateNothingPerSolution runs the plain search to the
// end on boards with 10 to 724 solutions: it allocates the same few
// values whatever the number of solutions, and nothing per solution or
// per node.
func TestSolutionsAllocateNothingPerSolution(t *testing.T) {
	allocs := func(n int) float64 {
		return testing.AllocsPerRun(5, func() {
			for range Solutions(n) {
			}
		})
	}
	small, large := allocs(5), allocs(10)
	t.Logf("allocations per search: n=5 %v, n=10 %v", small, large)
	if large != small || large > 4 {
		t.Errorf("Solutions allocates %v times for n=5, %v for n=10: want the same few", small, large)
	}
	units := Units(10)
	if a := testing.AllocsPerRun(5, func() {
		for _, u := range units {
			u.Count()
		}
	}); a != 0 {
		t.Errorf("Unit.Count allocates %v times per run over the units of n=10, want 0", a)
	}
}

func BenchmarkCount(b *testing.B) {
	for _, n := range []int{12, 14} {
		b.Run(fmt.Sprint("n=", n), func(b *testing.B) {
			for b.Loop() {
				countSolutions(context.Background(), n, 0)
			}
		})
	}
}

func BenchmarkSolutions(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for range Solutions(12) {
		}
	}
}
