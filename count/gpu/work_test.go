package gpu

import (
	"cmp"
	"container/heap"
	"context"
	"flag"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/count"
)

// The model of the kernel's work on a device, measured with the twin
// (docs/gpu.md): -work-n names the boards, -work-every samples every k-th
// constellation of the plan (1: all), and -work-sms the multiprocessors
// of the device modelled.
var (
	workN     = flag.String("work-n", "", "model the kernel's work on these boards (16-18 or 20)")
	workEvery = flag.Int("work-every", 1, "model every k-th constellation of the plan, on 1/k of the device")
	workSMs   = flag.Int("work-sms", 132, "the multiprocessors of the device modelled")
	atOnce    = flag.Bool("work-at-once", false, "model this kernel with the last two rows counted at once too")
)

// The blocks of the kernel's loop that the paths of a trip run (lane.step):
// the trip's head; a row gone back up; a square placed, then whether the
// next row has a free square (split, into push and dead), a push, a square
// dead; a square of the last-but-one row counted; the last two rows
// counted at once (lane.atOnce); the end of an item; a lane with no item
// taking one, or finding none.
const (
	blockHead = iota
	blockPop
	blockPlace
	blockSplit
	blockPush
	blockDead
	blockCount
	blockLast
	blockEnd
	blockTake
	blockIdle
	blocks
)

// pathBlocks are the blocks each path runs.
var pathBlocks = [paths][]int{
	pathPop:   {blockHead, blockPop},
	pathPush:  {blockHead, blockPlace, blockSplit, blockPush},
	pathDead:  {blockHead, blockPlace, blockSplit, blockDead},
	pathCount: {blockHead, blockPlace, blockCount},
	pathLast:  {blockHead, blockPlace, blockLast},
	pathNext:  {blockHead, blockEnd},
	pathTake:  {blockTake},
	pathIdle:  {blockIdle},
}

// kernelModel is a kernel as the model sees it: the PTX instructions of
// each block of its loop (a static count of its PTX, by hand: a model,
// not a profile; a block run by some lanes of a warp costs the warp as
// much as if all ran it), whether it counts the last two free rows at
// once (lane.atOnce), the lanes a multiprocessor runs at once, and the
// instructions of a meeting of a warp's lanes and of a task buffer
// refilled.
type kernelModel struct {
	name         string
	cost         [blocks]float64
	atOnce       bool
	lanesPerSM   int
	meet, refill float64
}

// pathCost returns the instructions of path p under m.
func (m kernelModel) pathCost(p int) float64 {
	var c float64
	for _, b := range pathBlocks[p] {
		c += m.cost[b]
	}
	return c
}

// Two kernels. Before: 64-bit diagonals undone by shifting back, each
// row's block and shift read from global memory, lanes taking items one
// by one from a device counter, in order of constellation, in launches of
// at least 2^20 items one after another; 16 KB of static shared memory a
// block of 128 allowed 13 blocks an SM of 228 KB (1,664 lanes); the end
// of an item and the start of the next one trip of 20 instructions.
// After: this kernel.ptx, whose 31,136 bytes of shared memory a block
// allow 7 blocks of 128 an SM (1 KB reserved a block): 896 lanes, if the
// registers allow it (73 a thread or fewer); a meeting costs a warp about
// 60 instructions, and 100 more for each task buffer refilled.
var (
	before = kernelModel{name: "before", lanesPerSM: 13 * 128,
		cost: [blocks]float64{blockHead: 5, blockPop: 27, blockPlace: 20, blockSplit: 9, blockPush: 10, blockDead: 3,
			blockCount: 15, blockEnd: 15}}
	after = kernelModel{name: "after", lanesPerSM: 7 * 128, meet: 60, refill: 100,
		cost: [blocks]float64{blockHead: 11, blockPop: 14, blockPlace: 16, blockSplit: 2, blockPush: 11, blockDead: 2,
			blockCount: 4, blockEnd: 10, blockTake: 90, blockIdle: 40}}
)

// atOnceKernel is this kernel as it was with the last two free rows
// counted at once from the row above (lane.atOnce): both squares of the
// last-but-one row tried in a block of 34 instructions, no trip of their
// own (that kernel's PTX, in git's history).
var atOnceKernel = func() kernelModel {
	m := after
	m.atOnce = true
	m.cost[blockLast] = 34
	return m
}()

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

// simt runs items on one warp of 32 lanes in lockstep, each lane taking
// the next item when its own ends (the tasks of this kernel; the whole
// launch's items for the kernel before, whose lanes took items one by
// one), and returns the warp's instructions under m (at each trip, the
// cost of every path one of its lanes takes: a divergent branch is run
// for the lanes that take it, the others waiting), the lanes'
// instructions (each its own paths), and the items' solutions.
func simt(tw *twin, items []item, m kernelModel) (warp, lanes float64, solutions []uint64) {
	var ls [32]lane
	item := [32]int{}
	next, busy := 0, 0
	solutions = make([]uint64, len(items))
	for k := range ls {
		ls[k].atOnce = m.atOnce
		item[k] = -1
		if next < len(items) {
			ls[k].start(tw, items[next])
			item[k] = next
			next++
			busy++
		}
	}
	for busy > 0 {
		var taken [blocks]bool
		for k := range ls {
			if item[k] < 0 {
				continue
			}
			p := ls[k].step()
			for _, b := range pathBlocks[p] {
				taken[b] = true
			}
			lanes += m.pathCost(p)
			if p != pathNext {
				continue
			}
			solutions[item[k]] = ls[k].n
			item[k] = -1
			if next < len(items) {
				ls[k].start(tw, items[next])
				item[k] = next
				next++
			} else {
				busy--
			}
		}
		for p, ok := range taken {
			if ok {
				warp += m.cost[p]
			}
		}
	}
	return warp, lanes, solutions
}

// warpSim is one warp of this kernel in the model: its lanes, the item
// of each (-1: none), its two task buffers (the task's number, -1 for
// none, and the items handed out), and its clock in instructions.
type warpSim struct {
	lanes [32]lane
	item  [32]int
	buf   [bufs]struct{ task, taken int }
	clock float64
	met   int // meetings so far
}

// deviceSim runs this kernel's schedule over the tasks of items on warps
// warps, each warp a clock of its own: the warp with the least time runs
// until its next meeting, at which it refills its buffers as kernel.cu's
// meetings do, and its lanes take items, the older task's first. It
// returns the warps' clocks when they end, the lanes' instructions
// (idle trips left out), the warps', and each item's solutions.
func deviceSim(tw *twin, items []item, ts []task, warps int, m kernelModel) (ends []float64, lanes, warp float64, solutions []uint64) {
	solutions = make([]uint64, len(items))
	next := 0
	ws := make([]*warpSim, warps)
	h := make(warpHeap, warps)
	for k := range ws {
		ws[k] = &warpSim{}
		for j := range ws[k].item {
			ws[k].item[j] = -1
		}
		h[k] = ws[k]
	}
	for len(h) > 0 {
		w := h[0]
		// The meeting.
		var use [bufs]bool
		busy := false
		for j := range w.item {
			if w.item[j] >= 0 {
				busy = true
				use[mine(w, j, ts)] = true
			}
		}
		w.clock += m.meet
		for b := range w.buf {
			bf := &w.buf[b]
			if w.met == 0 || (!use[b] && bf.task >= 0 && bf.taken >= int(ts[bf.task].end-ts[bf.task].first)) {
				bf.task, bf.taken = -1, 0
				if next < len(ts) {
					bf.task = next
					next++
					w.clock += m.refill
				}
			}
		}
		w.met++
		if !busy && !slices.ContainsFunc(w.buf[:], func(bf struct{ task, taken int }) bool { return bf.task >= 0 }) {
			ends = append(ends, w.clock)
			heap.Pop(&h)
			continue
		}
		for range syncTrips {
			var taken [blocks]bool
			for j := range w.lanes {
				p := pathIdle
				if w.item[j] < 0 {
					// Take an item, the oldest task's first.
					order := []int{0, 1, 2}[:bufs]
					slices.SortFunc(order, func(x, y int) int { return cmp.Compare(uint(w.buf[x].task), uint(w.buf[y].task)) })
					for _, b := range order {
						bf := &w.buf[b]
						if bf.task >= 0 && bf.taken < int(ts[bf.task].end-ts[bf.task].first) {
							w.item[j] = int(ts[bf.task].first) + bf.taken
							bf.taken++
							w.lanes[j].atOnce = m.atOnce
							w.lanes[j].start(tw, items[w.item[j]])
							p = pathTake
							break
						}
					}
				} else if p = w.lanes[j].step(); p == pathNext {
					solutions[w.item[j]] = w.lanes[j].n
					w.item[j] = -1
				}
				for _, b := range pathBlocks[p] {
					taken[b] = true
				}
				if p != pathIdle {
					lanes += m.pathCost(p)
				}
			}
			for b, ok := range taken {
				if ok {
					w.clock += m.cost[b]
					warp += m.cost[b]
				}
			}
		}
		heap.Fix(&h, 0)
	}
	return ends, lanes, warp, solutions
}

// mine returns the buffer of w whose task holds lane j's item.
func mine(w *warpSim, j int, ts []task) int {
	for b, bf := range w.buf {
		if bf.task >= 0 && w.item[j] >= int(ts[bf.task].first) && w.item[j] < int(ts[bf.task].end) {
			return b
		}
	}
	panic("a lane's item is in no buffer of its warp")
}

// warpHeap orders warps by their clocks, least first.
type warpHeap []*warpSim

func (h warpHeap) Len() int           { return len(h) }
func (h warpHeap) Less(i, j int) bool { return h[i].clock < h[j].clock }
func (h warpHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *warpHeap) Push(x any)        { *h = append(*h, x.(*warpSim)) }
func (h *warpHeap) Pop() any          { x := (*h)[len(*h)-1]; *h = (*h)[:len(*h)-1]; return x }

// slots is a min-heap of the times at which a device's slots (lanes or
// warps) become free.
type slots []float64

func (h slots) Len() int           { return len(h) }
func (h slots) Less(i, j int) bool { return h[i] < h[j] }
func (h slots) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *slots) Push(x any)        { *h = append(*h, x.(float64)) }
func (h *slots) Pop() any          { x := (*h)[len(*h)-1]; *h = (*h)[:len(*h)-1]; return x }

// busy returns the busy fraction of a launch of k slots that take the
// jobs of the given durations in order, each slot the next job once its
// own ends: the jobs' time over k times the launch's.
func busy(durations []float64, k int) float64 {
	h := make(slots, max(k, 1))
	var sum, end float64
	for _, d := range durations {
		t := h[0] + d
		h[0] = t
		heap.Fix(&h, 0)
		sum += d
		end = max(end, t)
	}
	if end == 0 {
		return 1
	}
	return sum / (float64(len(h)) * end)
}

// modelReport is what the model says of a board's items under a kernel
// and its schedule: the items, the trips of their search, the lanes'
// instructions and the warps' (the SIMT efficiency is their ratio over
// 32), the busy fraction of the device (the slots' time over the launch's
// time the slots), and the solutions of the items weighed by orbit (the
// board's total, when every constellation is modelled).
type modelReport struct {
	items int
	trips uint64
	// tripsAtOnce and lanesAtOnce are the trips and lane instructions of
	// the same items with the last two rows counted at once (after only,
	// atOnceKernel).
	tripsAtOnce uint64
	lanesAtOnce float64
	lanes, warp float64
	busy        float64
	solutions   uint64
}

// modelBoard runs the model over the constellations of cs on a device of
// sms multiprocessors, every k-th constellation of the plan on 1/k of the
// device, for the kernel before and after (kernelModel). It checks each
// item's count against the twin's.
func modelBoard(t *testing.T, cs []count.Constellation, sms, k int) (b, a modelReport) {
	t.Helper()
	p, err := newPlan(context.Background(), cs, func(int, uint64) {})
	if err != nil {
		t.Fatal(err)
	}
	tw := newTwin(encodeCons(p.rows))
	var picked []int32
	for j := 0; j < len(p.order); j += k {
		picked = append(picked, p.order[j])
	}
	a = modelAfter(t, cs, sms, k, after)
	// Before: the same constellations in order, split as before, lane by
	// lane.
	slices.Sort(picked)
	old := oldSplit(cs[0].N())
	var items []item
	for _, i := range picked {
		items = old.items(items, i, &p.rows[i])
	}
	b.items = len(items)
	w, _, sol := simt(tw, items, before)
	b.warp = w
	durations := make([]float64, 0, len(items))
	for j, it := range items {
		var ln lane
		ln.start(tw, it)
		var d float64
		for {
			path := ln.step()
			d += before.pathCost(path)
			b.trips++
			if path == pathNext {
				break
			}
		}
		if ln.n != sol[j] {
			t.Fatalf("item %+v: the warp model counts %d, a lane %d", it, sol[j], ln.n)
		}
		durations = append(durations, d)
		b.lanes += d
		b.solutions += ln.n * uint64(cs[it.con].Orbit())
	}
	// Launches of at least 2^20 items, of whole constellations, one after
	// another: the busy fraction of their sum.
	laneSlots := max(1, sms*before.lanesPerSM/k)
	var work, span float64
	for first := 0; first < len(items); {
		end := min(first+1<<20, len(items))
		for end < len(items) && items[end].con == items[end-1].con {
			end++
		}
		f := busy(durations[first:end], laneSlots)
		var s float64
		for _, d := range durations[first:end] {
			s += d
		}
		work += s
		span += s / f
		first = end
	}
	b.busy = work / span
	return b, a
}

// modelAfter runs the model of this kernel's schedule, under m, over the
// constellations of cs as modelBoard does, and checks each item's count
// against the twin's.
func modelAfter(t *testing.T, cs []count.Constellation, sms, k int, m kernelModel) (a modelReport) {
	t.Helper()
	p, err := newPlan(context.Background(), cs, func(int, uint64) {})
	if err != nil {
		t.Fatal(err)
	}
	tw := newTwin(encodeCons(p.rows))
	var picked []int32
	for j := 0; j < len(p.order); j += k {
		picked = append(picked, p.order[j])
	}
	// After: the plan's order, in tasks, on the device's warps.
	var items []item
	for _, i := range picked {
		items = p.split.items(items, i, &p.rows[i])
	}
	warps := max(1, sms*m.lanesPerSM/32/k)
	ts := tasks(nil, items, taskSize(len(items), warps))
	ends, lanes, warp, sol := deviceSim(tw, items, ts, warps, m)
	var sum, end float64
	for _, e := range ends {
		sum += e
		end = max(end, e)
	}
	a = modelReport{items: len(items), lanes: lanes, warp: warp, busy: sum / (float64(warps) * end)}
	for j, it := range items {
		if want := tw.count(it); sol[j] != want {
			t.Fatalf("item %+v: the model counts %d, the twin %d", it, sol[j], want)
		}
		a.solutions += sol[j] * uint64(cs[it.con].Orbit())
		for _, atOnce := range []bool{false, true} {
			ln := lane{atOnce: atOnce}
			ln.start(tw, it)
			k := uint64(0)
			for {
				p := ln.step()
				k++
				if atOnce {
					a.lanesAtOnce += atOnceKernel.pathCost(p)
				}
				if p == pathNext {
					break
				}
			}
			if atOnce {
				a.tripsAtOnce += k
			} else {
				a.trips += k
			}
		}
	}
	return a
}

// oldSplit is the split of the kernel before: 1 row up to n = 13, 2 up to
// n = 21, 3 beyond.
func oldSplit(n int) split {
	switch {
	case n <= 13:
		return split{rows: 1}
	case n <= 21:
		return split{rows: 2}
	}
	return split{rows: 3}
}

// TestModel runs the model on n = 14 on a device of 4 multiprocessors
// (about as many items a lane as n = 18 has on 132): the model counts
// every item as the twin does, its items add up to the board's total, and
// this kernel's launch keeps its warps busy at least 95% of the time,
// more than the kernel before did, with fewer trips and lane instructions
// for the board. (Its SIMT efficiency is lower on items this small, of 40
// trips: the take of an item costs the warp as much as two trips.)
func TestModel(t *testing.T) {
	const n = 14
	b, a := modelBoard(t, count.Constellations(n), 4, 1)
	known, _ := nqueens.KnownCounts(n)
	if b.solutions != known.Total || a.solutions != known.Total {
		t.Fatalf("n=%d: the model's items add up to %d before, %d after; OEIS says %d", n, b.solutions, a.solutions, known.Total)
	}
	t.Logf("n=%d before: %s", n, b)
	t.Logf("n=%d after:  %s", n, a)
	switch {
	case a.busy < 0.95 || a.busy <= b.busy:
		t.Errorf("n=%d: the launch is busy %.3f of the time, before %.3f", n, a.busy, b.busy)
	case a.lanes >= b.lanes:
		t.Errorf("n=%d: %.4g lane instructions, before %.4g", n, a.lanes, b.lanes)
	case a.trips >= b.trips:
		t.Errorf("n=%d: %d trips, before %d", n, a.trips, b.trips)
	}
}

// String returns the report, per item but the items and the lane
// instructions in all: "1000 items, trips 12.3, lane instructions 345,
// warp instructions 67.8 (SIMT efficiency 0.16), lane instructions in
// all 3.45e+05, busy 0.987, all told 0.158".
func (r modelReport) String() string {
	k := float64(r.items)
	return strconv.Itoa(r.items) + " items, trips " + strconv.FormatFloat(float64(r.trips)/k, 'f', 1, 64) +
		", lane instructions " + strconv.FormatFloat(r.lanes/k, 'f', 0, 64) +
		", warp instructions " + strconv.FormatFloat(r.warp/k, 'f', 1, 64) +
		" (SIMT efficiency " + strconv.FormatFloat(r.lanes/(32*r.warp), 'f', 2, 64) + ")" +
		", lane instructions in all " + strconv.FormatFloat(r.lanes, 'g', 4, 64) +
		", busy " + strconv.FormatFloat(r.busy, 'f', 3, 64) +
		", all told " + strconv.FormatFloat(r.busy*r.lanes/(32*r.warp), 'f', 3, 64)
}

// TestWork runs the model on the boards -work-n names, on the device of
// -work-sms multiprocessors, every -work-every-th constellation: it logs
// the table of docs/gpu.md and fails if this engine's launch is busy less
// than 95% of the time or does not beat the one before. It skips without
// -work-n.
func TestWork(t *testing.T) {
	if *workN == "" {
		t.Skip("no -work-n boards to model")
	}
	first, last := workRange(t)
	for n := first; n <= last; n++ {
		b, a := modelBoard(t, count.Constellations(n), *workSMs, *workEvery)
		t.Logf("n=%d, %d items, every %d-th constellation, %d SMs:", n, a.items, *workEvery, *workSMs)
		t.Logf("  before: %s", b)
		t.Logf("  after:  %s", a)
		t.Logf("  after, the last two rows counted at once: trips %.1f, lane instructions %.0f",
			float64(a.tripsAtOnce)/float64(a.items), a.lanesAtOnce/float64(a.items))
		if *atOnce {
			ps := modelAfter(t, count.Constellations(n), *workSMs, *workEvery, atOnceKernel)
			t.Logf("  the same on the warps: %s", ps)
		}
		if a.busy < 0.95 || a.busy*a.lanes/a.warp <= b.busy*b.lanes/b.warp {
			t.Errorf("n=%d: busy %.3f (before %.3f), all told %.3f (before %.3f)", n, a.busy, b.busy,
				a.busy*a.lanes/(32*a.warp), b.busy*b.lanes/(32*b.warp))
		}
	}
}
