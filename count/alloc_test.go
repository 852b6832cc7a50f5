package count

import (
	"context"
	"fmt"
	"testing"

	"github.com/nqueens/nqueens/internal/parallel"
	"github.com/nqueens/nqueens/internal/testutil"
)

// TestSearchesAllocateNothing checks the hot loops: the search of a
// constellation and the searches for symmetric solutions allocate nothing
// per node, whatever the size of the tree.
func TestSearchesAllocateNothing(t *testing.T) {
	if testutil.Race {
		t.Skip("the race detector allocates")
	}
	for _, n := range []int{8, 16} {
		cs := Constellations(n)
		c := cs[len(cs)/2]
		if a := testing.AllocsPerRun(10, func() { c.Solutions() }); a != 0 {
			t.Errorf("n=%d: Constellation.Solutions allocates %.1f times, want 0", n, a)
		}
		if a := testing.AllocsPerRun(10, func() { c.Nodes() }); a != 0 {
			t.Errorf("n=%d: Constellation.Nodes allocates %.1f times, want 0", n, a)
		}
		var stop parallel.Stop
		h := halfBoard{n: n, m: n - 1, all: full(n)}
		if a := testing.AllocsPerRun(3, func() { h.from(0, &stop) }); a != 0 {
			t.Errorf("n=%d: the half-turn search allocates %.1f times, want 0", n, a)
		}
		q := quarterSearch{n: n, m: uint8(n - 1)}
		if a := testing.AllocsPerRun(3, func() { q.from(0) }); a != 0 {
			t.Errorf("n=%d: the quarter-turn search allocates %.1f times, want 0", n, a)
		}
	}
	// Symmetric allocates for its work units and goroutines only: as
	// often for n = 16 as for n = 12, with 16 times the nodes.
	small := testing.AllocsPerRun(3, func() { Symmetric(context.Background(), 12, 1) })
	large := testing.AllocsPerRun(3, func() { Symmetric(context.Background(), 16, 1) })
	if large > small+10 {
		t.Errorf("Symmetric allocates %.0f times for n=16, %.0f for n=12: want about as often", large, small)
	}
}

// BenchmarkConstellations measures the count by constellations alone,
// on one goroutine, up to n = 16, where the engine's choices were made (its
// baseline: testdata/bench.txt, for benchstat).
func BenchmarkConstellations(b *testing.B) {
	for _, n := range []int{12, 14, 16} {
		b.Run(fmt.Sprint("n=", n), func(b *testing.B) {
			cs := Constellations(n)
			b.ReportAllocs()
			for b.Loop() {
				Solutions(context.Background(), cs, 1, nil)
			}
		})
	}
}

// BenchmarkSymmetric measures the searches for symmetric solutions, on
// one goroutine.
func BenchmarkSymmetric(b *testing.B) {
	for _, n := range []int{16, 20} {
		b.Run(fmt.Sprint("n=", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Symmetric(context.Background(), n, 1)
			}
		})
	}
}

// BenchmarkBoardSerial measures Board on one goroutine each way: by
// constellations (count's default) and by classes (canonical's search,
// Options.By ByClasses, count --class-search).
func BenchmarkBoardSerial(b *testing.B) {
	for _, engine := range []string{"constellations", "classes"} {
		for _, n := range []int{12, 14, 16} {
			b.Run(fmt.Sprintf("engine=%s/n=%d", engine, n), func(b *testing.B) {
				o := Options{Workers: 1}
				if engine == "classes" {
					o.By = ByClasses
				}
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Board(context.Background(), n, o); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
