package gpu

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/nqueens/nqueens/count"
)

// RequireEnv names the environment variable that turns the GPU tests'
// skip, on a machine without a GPU, into a failure.
const RequireEnv = "NQUEENS_REQUIRE_GPU"

// openGPU opens the GPU engine, closed when tb ends. Without a GPU it
// skips tb, saying what Open looked for, or fails it with
// NQUEENS_REQUIRE_GPU=1.
func openGPU(tb testing.TB) *Engine {
	tb.Helper()
	e, err := Open()
	switch {
	case errors.Is(err, ErrNoDevice) && os.Getenv(RequireEnv) != "1":
		tb.Skipf("no GPU (%v); %s=1 makes this a failure", err, RequireEnv)
	case err != nil:
		tb.Fatalf("open the GPU engine: %v", err)
	}
	tb.Cleanup(func() {
		if err := e.Close(); err != nil {
			tb.Errorf("close the GPU engine: %v", err)
		}
	})
	tb.Logf("engine: %s", e)
	return e
}

// TestGPUOEIS counts n = 1 to 16 on the GPU (12 with -short) against OEIS,
// classes included.
func TestGPUOEIS(t *testing.T) {
	e := openGPU(t)
	maxN := 16
	if testing.Short() {
		maxN = 12
	}
	for n := 1; n <= maxN; n++ {
		board(t, e, n)
	}
}

// TestGPUItemByItem runs the kernel on the GPU over every item of n = 8
// to 14 and checks each count against the twin's.
func TestGPUItemByItem(t *testing.T) {
	e := openGPU(t)
	for n := 8; n <= 14; n++ {
		cs := count.Constellations(n)
		items := SplitFor(n).Items(nil, cs)
		tables := SplitFor(n).Tables(cs)
		if err := e.b.load(tables, EncodeItems(items)); err != nil {
			t.Fatalf("n=%d: load: %v", n, err)
		}
		got := make([]uint64, len(items))
		// Two launches, to check that a launch counts from its first item.
		half := len(items) / 2
		if err := e.b.run(0, half, got); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if err := e.b.run(half, len(items), got); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		tw := NewTwin(tables)
		for i, it := range items {
			if want := tw.Count(it); got[i] != want {
				t.Fatalf("n=%d item %d %+v: the GPU counts %d, the twin %d", n, i, it, got[i], want)
			}
		}
	}
}

// TestGPUMatchesCPU checks the GPU against the CPU engine constellation by
// constellation for n = 15 and 16, with tail tables and without.
func TestGPUMatchesCPU(t *testing.T) {
	e := openGPU(t)
	for _, n := range []int{15, 16} {
		cs := count.Constellations(n)
		for _, tails := range []bool{false, true} {
			e.Tails = tails
			for i, s := range found(t, e, cs) {
				if want := cs[i].Solutions(); s != want {
					t.Errorf("n=%d tails=%v constellation %d: the GPU counts %d, the CPU %d", n, tails, i, s, want)
				}
			}
		}
	}
}

// BenchmarkGPU measures the GPU engine's search of all constellations of
// n = 16 to 22 (the classes are the CPU's, and left out), with the tail
// tables (tail, Engine.Tails) and without (plain), and reports the items
// a second.
func BenchmarkGPU(b *testing.B) {
	e := openGPU(b)
	for n := 16; n <= 22; n++ {
		cs := count.Constellations(n)
		items := len(SplitFor(n).Items(nil, cs))
		for _, tails := range []bool{false, true} {
			name := map[bool]string{false: "plain", true: "tail"}[tails]
			b.Run(fmt.Sprintf("n=%d/%s", n, name), func(b *testing.B) {
				e.Tails = tails
				start := time.Now()
				for b.Loop() {
					if _, err := (count.Options{Engine: e}).Search(context.Background(), cs); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(items)*float64(b.N)/time.Since(start).Seconds(), "items/s")
			})
		}
	}
}

// BenchmarkTwin measures the twin engine on n = 12, one goroutine: the
// kernel's algorithm on a CPU core, against BenchmarkConstellations in
// count.
func BenchmarkTwin(b *testing.B) {
	cs := count.Constellations(12)
	e := NewTwinEngine(MinBatch)
	for b.Loop() {
		if _, err := (count.Options{Engine: e}).Search(context.Background(), cs); err != nil {
			b.Fatal(err)
		}
	}
}
