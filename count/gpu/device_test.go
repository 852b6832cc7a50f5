package gpu

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/count"
)

// requireEnv names the environment variable that turns the GPU tests'
// skip, on a machine without a GPU, into a failure.
const requireEnv = "NQUEENS_REQUIRE_GPU"

// openGPU opens the GPU engine, closed when tb ends. Without a GPU it
// skips tb, saying what Open looked for, or fails it with
// NQUEENS_REQUIRE_GPU=1.
func openGPU(tb testing.TB) *Engine {
	tb.Helper()
	e, err := Open()
	switch {
	case errors.Is(err, ErrNoDevice) && os.Getenv(requireEnv) != "1":
		tb.Skipf("no GPU (%v); %s=1 makes this a failure", err, requireEnv)
	case err != nil:
		tb.Fatalf("open the GPU engine: %v", err)
	}
	tb.Cleanup(func() {
		if err := e.Close(); err != nil {
			tb.Errorf("close the GPU engine: %v", err)
		}
	})
	tb.Logf("engine: %s", e)
	tb.Logf("kernel: %s", e.kernel())
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
// to 15, in chunks of about 20,000 items two at a time, and checks each
// count against the twin's.
func TestGPUItemByItem(t *testing.T) {
	e := openGPU(t)
	for n := 8; n <= 15; n++ {
		p, _, _ := newTestPlan(t, n)
		cons := encodeCons(p.rows)
		if err := e.b.load(cons); err != nil {
			t.Fatalf("n=%d: load: %v", n, err)
		}
		tw := newTwin(cons)
		quit := make(chan struct{})
		var running []*chunk
		check := func(c *chunk) {
			for {
				end, err := e.b.ended(c)
				if err != nil {
					t.Fatalf("n=%d: %v", n, err)
				}
				if end {
					break
				}
				time.Sleep(time.Millisecond)
			}
			if err := e.b.read(c); err != nil {
				t.Fatalf("n=%d: %v", n, err)
			}
			for i, it := range c.items {
				if want := tw.count(it); c.counts[i] != want {
					t.Fatalf("n=%d item %d %+v: the GPU counts %d, the twin %d", n, i, it, c.counts[i], want)
				}
			}
		}
		for c := range p.chunks(20000, taskSize(p.items, e.b.warps()), quit) {
			if len(running) == inFlight {
				check(running[0])
				running = running[1:]
			}
			if err := e.b.launch(c); err != nil {
				t.Fatalf("n=%d: launch: %v", n, err)
			}
			running = append(running, c)
		}
		close(quit)
		for _, c := range running {
			check(c)
		}
	}
}

// TestGPUMatchesCPU checks the GPU against the CPU engine constellation by
// constellation for n = 15 and 16.
func TestGPUMatchesCPU(t *testing.T) {
	e := openGPU(t)
	for _, n := range []int{15, 16} {
		cs := count.Constellations(n)
		for i, s := range found(t, e, cs) {
			if want := cs[i].Solutions(); s != want {
				t.Errorf("n=%d constellation %d: the GPU counts %d, the CPU %d", n, i, s, want)
			}
		}
	}
}

// TestGPUStops cancels a count of n = 20 on the GPU once the first
// constellation the GPU counted is found: the engine returns the
// context's error within a second (the lanes leave their items), and
// every constellation found has its whole count.
func TestGPUStops(t *testing.T) {
	e := openGPU(t)
	cs := count.Constellations(20)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := map[int]uint64{}
	launched := false
	e.launched = func(*chunk) { launched = true }
	defer func() { e.launched = nil }()
	var cancelled time.Time
	err := e.Search(ctx, cs, func(i int, s uint64) {
		got[i] = s
		if launched && cancelled.IsZero() {
			cancelled = time.Now()
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	took := time.Since(cancelled)
	t.Logf("stopped %v after the cancel, %d of %d constellations found", took, len(got), len(cs))
	if took > time.Second {
		t.Errorf("the engine took %v to stop", took)
	}
	for i, s := range got {
		if want := cs[i].Solutions(); s != want {
			t.Errorf("constellation %d: found %d solutions, want %d", i, s, want)
		}
	}
	// The engine counts again after a stop.
	for i, s := range found(t, e, count.Constellations(12)) {
		if want := count.Constellations(12)[i].Solutions(); s != want {
			t.Fatalf("after a stop, n=12 constellation %d: %d, want %d", i, s, want)
		}
	}
}

// TestCountFile checks the output of `nqueens count N-M --json` in the
// file NQUEENS_COUNT_JSON names, which must hold every n of
// NQUEENS_COUNT_RANGE (N-M): totals and classes against OEIS A000170 and
// A002562, and the classes by orbit against those of the OEIS total and
// the symmetric solutions (count.Symmetric, on this machine's CPU); and,
// if NQUEENS_COUNT_ENGINE is set, the engine that counted each. It
// skips without NQUEENS_COUNT_JSON: scripts/gpu-check.sh runs it on the
// output of the GPU engine, on a machine with no Go.
func TestCountFile(t *testing.T) {
	path := os.Getenv("NQUEENS_COUNT_JSON")
	if path == "" {
		t.Skip("no NQUEENS_COUNT_JSON to check")
	}
	lo, hi, _ := strings.Cut(os.Getenv("NQUEENS_COUNT_RANGE"), "-")
	first, err1 := strconv.Atoi(lo)
	last, err2 := strconv.Atoi(hi)
	if err1 != nil || err2 != nil || first > last {
		t.Fatalf("NQUEENS_COUNT_RANGE %q: want N-M", os.Getenv("NQUEENS_COUNT_RANGE"))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		N                                             int
		Total, Unique, Orbit8, Orbit4, Orbit2, Orbit1 uint64
		Engine                                        string
		Seconds                                       float64
	}
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(rows) != last-first+1 {
		t.Fatalf("%s holds %d rows, want n = %d to %d", path, len(rows), first, last)
	}
	for k, r := range rows {
		known, _ := nqueens.KnownCounts(first + k)
		half, quarter, err := count.Symmetric(context.Background(), r.N, 0)
		if err != nil {
			t.Fatal(err)
		}
		want, err := count.Tally(r.N, known.Total, half, quarter)
		if err != nil {
			t.Fatal(err)
		}
		got := nqueens.Counts{Total: r.Total, Unique: r.Unique, Orbit8: r.Orbit8, Orbit4: r.Orbit4, Orbit2: r.Orbit2, Orbit1: r.Orbit1}
		if e := os.Getenv("NQUEENS_COUNT_ENGINE"); e != "" && r.Engine != e {
			t.Errorf("n=%d: counted by %q, want %q", r.N, r.Engine, e)
		}
		if r.N != first+k || got != want {
			t.Errorf("n=%d (row %d): %+v; want n=%d %+v", r.N, k, got, first+k, want)
		}
		t.Logf("n=%d: %d solutions, %d classes, engine %s, %.3f s", r.N, r.Total, r.Unique, r.Engine, r.Seconds)
	}
}

// BenchmarkGPU measures the GPU engine's search of all constellations of
// n = 16 to 21 (the classes are the CPU's, and left out), and reports the
// items a second.
func BenchmarkGPU(b *testing.B) {
	e := openGPU(b)
	for n := 16; n <= 21; n++ {
		cs := count.Constellations(n)
		s := splitFor(n)
		items := 0
		for _, c := range cs {
			r := c.Rows()
			items += s.countItems(&r)
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
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

// BenchmarkTwin measures the twin engine on n = 12: the kernel's
// algorithm on a CPU core, against BenchmarkConstellations in count.
func BenchmarkTwin(b *testing.B) {
	cs := count.Constellations(12)
	e := newTwinEngine(1 << 20)
	for b.Loop() {
		if _, err := (count.Options{Engine: e}).Search(context.Background(), cs); err != nil {
			b.Fatal(err)
		}
	}
}
