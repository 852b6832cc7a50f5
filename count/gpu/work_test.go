package gpu

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens/count"
)

// The work of the kernel, measured with the twin (docs/gpu.md): -work
// names the boards, -work-stride samples every k-th item (1: all), and
// -work-dir, if set, receives for each n the tables and the items sampled
// (cons-N, index-N, ways-N, items-N) for the host build of the kernel
// (testdata/host.cc) to be timed on.
var (
	workN      = flag.String("work-n", "", "measure the kernel's work on these boards (16-20 or 18)")
	workStride = flag.Int("work-stride", 1, "measure every k-th item")
	workDir    = flag.String("work-dir", "", "write the tables and the items measured here")
)

// TestWork prints the work of the kernel's search of the boards -work-n
// names: items, loop trips, tail lookups and ways compared, per item and
// estimated in total from the items measured, and the tail tables' size
// and time to build. It skips without -work-n.
func TestWork(t *testing.T) {
	if *workN == "" {
		t.Skip("no -work-n boards to measure")
	}
	lo, hi, _ := strings.Cut(*workN, "-")
	first, err := strconv.Atoi(lo)
	last := first
	if err == nil && hi != "" {
		last, err = strconv.Atoi(hi)
	}
	if err != nil {
		t.Fatalf("-work-n %q: want N or N-M", *workN)
	}
	for n := first; n <= last; n++ {
		cs := count.Constellations(n)
		s := SplitFor(n)
		start := time.Now()
		tables := s.Tables(cs)
		build := time.Since(start)
		items := s.Items(nil, cs)
		tw := NewTwin(tables)
		var w Work
		var most uint64
		var sample []Item
		for i := 0; i < len(items); i += *workStride {
			x := tw.Work(items[i])
			w.Add(x)
			most = max(most, x.Trips)
			sample = append(sample, items[i])
		}
		k := float64(len(sample))
		scale := float64(len(items)) / k
		t.Logf("n=%d: %d constellations, %d items, %d measured; tables %d KB (index %d KB, ways %d KB) built in %v",
			n, len(cs), len(items), len(sample), (len(tables.Cons)+len(tables.Index)+len(tables.Ways))>>10, len(tables.Index)>>10, len(tables.Ways)>>10, build.Round(time.Millisecond))
		t.Logf("n=%d: per item %.1f trips (most %d), %.1f lookups, %.1f ways; in all about %.4g trips, %.4g lookups, %.4g ways",
			n, float64(w.Trips)/k, most, float64(w.Lookups)/k, float64(w.Ways)/k, float64(w.Trips)*scale, float64(w.Lookups)*scale, float64(w.Ways)*scale)
		if *workDir != "" {
			for name, data := range map[string][]byte{"cons": tables.Cons, "index": tables.Index, "ways": tables.Ways, "items": EncodeItems(sample)} {
				if err := os.WriteFile(filepath.Join(*workDir, fmt.Sprintf("%s-%d", name, n)), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
