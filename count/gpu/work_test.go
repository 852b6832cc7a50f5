package gpu

import (
	"flag"
	"fmt"
	"math/bits"
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

// workRange returns the boards -work-n names, N or N-M.
func workRange(t *testing.T) (first, last int) {
	t.Helper()
	lo, hi, _ := strings.Cut(*workN, "-")
	first, err := strconv.Atoi(lo)
	last = first
	if err == nil && hi != "" {
		last, err = strconv.Atoi(hi)
	}
	if err != nil {
		t.Fatalf("-work-n %q: want N or N-M", *workN)
	}
	return first, last
}

// TestWork prints the work of the kernel's search of the boards -work-n
// names: items, loop trips, tail lookups and ways compared, per item and
// estimated in total from the items measured, and the tail tables' size
// and time to build. It skips without -work-n.
func TestWork(t *testing.T) {
	if *workN == "" {
		t.Skip("no -work-n boards to measure")
	}
	first, last := workRange(t)
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

// The paths of a trip of the kernel's loop, for simt: a row gone back up,
// a square placed or passed over (look-ahead), a square of the stop row
// counted with no lookup (no free square below it in the first tail row,
// or the plain search's second-to-last row), a lookup, and the end of an
// item (the next one taken).
const (
	pathPop = iota
	pathPlace
	pathCount
	pathLookup
	pathNext
	paths
)

// pathCost is a static count of the PTX instructions of each path
// (kernel.ptx, by hand): a model, not a profile. A lookup costs
// pathCost[pathLookup] and wayCost for each way compared.
var pathCost = [paths]float64{pathPop: 27, pathPlace: 28, pathCount: 15, pathLookup: 80, pathNext: 20}

const wayCost = 6

// lane is one thread of the kernel's search, stepped a trip at a time: the
// twin's loop (Twin.search) as a state machine, for simt.
type lane struct {
	t                    *Twin
	con                  []uint32
	index, ways          []uint64
	row, top, free, cols uint32
	ld, rd               uint64
	stack                [32]uint32
	n                    uint64
	stop, inner, tail    uint32
	border               uint64
}

func (ln *lane) start(it Item) {
	t := ln.t
	ln.con = t.cons[conWords*int(it.Con):][:conWords]
	ln.stop, ln.inner, ln.tail = ln.con[1], ln.con[2], ln.con[5]
	ln.border = uint64(ln.con[6]) | uint64(ln.con[7])<<32
	ln.index, ln.ways = t.index[ln.con[3]:], t.ways[ln.con[4]:]
	ln.row, ln.top = uint32(it.Row), uint32(it.Row)
	ln.free, ln.cols, ln.ld, ln.rd = it.Free, it.Cols, it.LD, it.RD
	ln.n = 0
}

// step runs one trip and returns its path and the ways a lookup compared.
func (ln *lane) step() (int, int) {
	blocks, shifts := ln.con[conBlocks:][:32], ln.con[conShifts:][:32]
	if ln.free == 0 {
		if ln.row == ln.top {
			return pathNext, 0
		}
		ln.row--
		a := ln.stack[ln.row&31]
		bit := a & -a
		sh := shifts[ln.row&31] & 63
		ln.cols ^= bit
		ln.ld = ln.ld>>sh ^ uint64(bit)
		ln.rd = ln.rd<<sh ^ uint64(bit)<<rdOffset
		ln.free = a & (a - 1)
		return pathPop, 0
	}
	bit := ln.free & -ln.free
	sh := shifts[ln.row&31] & 63
	l, d := (ln.ld|uint64(bit))<<sh, (ln.rd|uint64(bit)<<rdOffset)>>sh
	if ln.row == ln.stop {
		ln.free &= ln.free - 1
		if ln.tail == 0 {
			if ^(ln.cols | bit | uint32(l) | uint32(d>>rdOffset) | blocks[ln.row&31]) != 0 {
				ln.n++
			}
			return pathCount, 0
		}
		set := ln.inner &^ (ln.cols | bit)
		f0 := set &^ (uint32(l) | uint32(d>>rdOffset) | blocks[ln.row&31])
		if f0 == 0 {
			return pathCount, 0
		}
		e := ln.index[rank4(set)]
		c := uint32(e >> 32)
		lo := bits.OnesCount32(set & (f0&-f0 - 1))
		hi := bits.OnesCount32(set & (1<<(31-bits.LeadingZeros32(f0)) - 1))
		start, end := (c<<8)>>(8*lo)&0xff, c>>(8*hi)&0xff
		q := uint64(uint32(l)<<tailLD) | d&^0xffffffff | ln.border
		for _, w := range ln.ways[uint32(e)+start : uint32(e)+end] {
			if w&q == 0 {
				ln.n++
			}
		}
		return pathLookup, int(end - start)
	}
	next := ^(ln.cols | bit | uint32(l) | uint32(d>>rdOffset) | blocks[ln.row&31])
	if next == 0 {
		ln.free &= ln.free - 1
		return pathPlace, 0
	}
	ln.stack[ln.row&31] = ln.free
	ln.cols |= bit
	ln.ld, ln.rd = l, d
	ln.row++
	ln.free = next
	return pathPlace, 0
}

// simt runs items on one warp of 32 lanes in lockstep, each lane taking
// the next item when its own ends, as the kernel's persistent threads do,
// and returns the warp's trips and its cost under pathCost: at each trip
// the warp runs every path one of its lanes takes (a divergent branch is
// run for the lanes that take it, the others waiting), and a lookup's
// ways for as long as the lane with the most. It checks each item's count
// against the twin's.
//
// With batch > 0 a lane whose trip is a lookup waits for it (idle) until
// batch lanes of the warp wait, or all do, and the warp then runs their
// lookups together: the lookups a kernel could gather with a warp vote.
func simt(t *testing.T, tw *Twin, items []Item, batch int) (trips uint64, cost float64) {
	var lanes [32]lane
	next := 0
	busy := 0
	item := [32]int{}
	for k := range lanes {
		lanes[k].t = tw
		if next < len(items) {
			lanes[k].start(items[next])
			item[k] = next
			next++
			busy++
		} else {
			item[k] = -1
		}
	}
	var waiting [32]int // the ways of a lane's lookup waiting, plus 1
	for busy > 0 {
		var taken [paths]bool
		most := 0
		wait := 0
		for k := range lanes {
			if item[k] >= 0 && waiting[k] > 0 {
				wait++
			}
		}
		if batch > 0 && wait > 0 && (wait >= batch || wait == busy) {
			// The lookup pass: the lanes waiting run their lookups.
			for k := range lanes {
				if waiting[k] > 0 {
					most = max(most, waiting[k]-1)
					waiting[k] = 0
				}
			}
			trips++
			cost += pathCost[pathLookup] + wayCost*float64(most)
			continue
		}
		for k := range lanes {
			if item[k] < 0 || waiting[k] > 0 {
				continue
			}
			p, w := lanes[k].step()
			if batch > 0 && p == pathLookup {
				waiting[k] = w + 1
				continue
			}
			taken[p] = true
			most = max(most, w)
			if p == pathNext {
				if got, want := lanes[k].n, tw.Count(items[item[k]]); got != want {
					t.Fatalf("item %d: the lane counts %d, the twin %d", item[k], got, want)
				}
				if next < len(items) {
					lanes[k].start(items[next])
					item[k] = next
					next++
				} else {
					item[k] = -1
					busy--
				}
			}
		}
		trips++
		for p, ok := range taken {
			if ok {
				cost += pathCost[p]
			}
		}
		cost += wayCost * float64(most)
	}
	return trips, cost
}

// TestSIMT prints, for the boards -work-n names, the model of a warp's
// work (simt) with the tail tables and with the plain search, on the
// items -work-stride samples: warp trips and instructions per item.
func TestSIMT(t *testing.T) {
	if *workN == "" {
		t.Skip("no -work-n boards to measure")
	}
	first, last := workRange(t)
	for n := first; n <= last; n++ {
		cs := count.Constellations(n)
		s := SplitFor(n)
		items := s.Items(nil, cs)
		var sample []Item
		for i := 0; i < len(items); i += *workStride {
			sample = append(sample, items[i])
		}
		k := float64(len(sample))
		tt, tc := simt(t, NewTwin(s.Tables(cs)), sample, 0)
		bt, bc := simt(t, NewTwin(s.Tables(cs)), sample, 16)
		pt, pc := simt(t, NewTwin(s.PlainTables(cs)), sample, 0)
		t.Logf("n=%d, %d items: per item, warp trips and instructions: tail %.1f, %.0f; tail with lookups batched by 16 %.1f, %.0f; plain %.1f, %.0f; tail/plain %.2f, batched/plain %.2f",
			n, len(sample), float64(tt)/k, tc/k, float64(bt)/k, bc/k, float64(pt)/k, pc/k, tc/pc, bc/pc)
	}
}
