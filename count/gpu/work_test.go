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
)

// The blocks of the kernel's loop that the paths of a trip run (lane.step):
// the trip's head; a row gone back up; a square placed, then whether the
// next row has a free square (split, into push and dead), a push, a square
// dead; a square of the last-but-one row counted; the end of an item; a
// lane with no item taking one, or finding none.
const (
	blockHead = iota
	blockPop
	blockPlace
	blockSplit
	blockPush
	blockDead
	blockCount
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
	pathNext:  {blockHead, blockEnd},
	pathTake:  {blockTake},
	pathIdle:  {blockIdle},
}

// kernelModel is the kernel as the model sees it: the PTX instructions of
// each block of its loop (a static count of its PTX, by hand: a model,
// not a profile; a block run by some lanes of a warp costs the warp as
// much as if all ran it), the lanes a multiprocessor runs at once, and
// the instructions of a meeting of a warp's lanes and of a task buffer
// refilled.
type kernelModel struct {
	cost         [blocks]float64
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

// kernel is kernel.ptx in the model: its 31,136 bytes of shared memory a
// block allow 7 blocks of 128 an SM (1 KB reserved a block): 896 lanes,
// if the registers allow it (73 a thread or fewer); a meeting costs a
// warp about 60 instructions, and 100 more for each task buffer
// refilled.
var kernel = kernelModel{lanesPerSM: 7 * 128, meet: 60, refill: 100,
	cost: [blocks]float64{blockHead: 11, blockPop: 14, blockPlace: 16, blockSplit: 2, blockPush: 11, blockDead: 2,
		blockCount: 4, blockEnd: 10, blockTake: 90, blockIdle: 40}}

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

// modelReport is what the model says of a board's items: the items, the
// trips of their search, the lanes' instructions and the warps' (the SIMT
// efficiency is their ratio over 32), the busy fraction of the device
// (the warps' time over the launch's time the warps), and the solutions
// of the items weighed by orbit (the board's total, when every
// constellation is modelled).
type modelReport struct {
	items       int
	trips       uint64
	lanes, warp float64
	busy        float64
	solutions   uint64
}

// modelBoard runs the model of the kernel's schedule over the
// constellations of cs on a device of sms multiprocessors, every k-th
// constellation of the plan on 1/k of the device: the plan's order, in
// tasks, on the device's warps. It checks each item's count against the
// twin's.
func modelBoard(t *testing.T, cs []count.Constellation, sms, k int) (r modelReport) {
	t.Helper()
	p, err := newPlan(context.Background(), cs, func(int, uint64) {})
	if err != nil {
		t.Fatal(err)
	}
	tw := newTwin(encodeCons(p.rows))
	var items []item
	for j := 0; j < len(p.order); j += k {
		i := p.order[j]
		items = p.split.items(items, i, &p.rows[i])
	}
	warps := max(1, sms*kernel.lanesPerSM/32/k)
	ts := tasks(nil, items, taskSize(len(items), warps))
	ends, lanes, warp, sol := deviceSim(tw, items, ts, warps, kernel)
	var sum, end float64
	for _, e := range ends {
		sum += e
		end = max(end, e)
	}
	r = modelReport{items: len(items), lanes: lanes, warp: warp, busy: sum / (float64(warps) * end)}
	for j, it := range items {
		if want := tw.count(it); sol[j] != want {
			t.Fatalf("item %+v: the model counts %d, the twin %d", it, sol[j], want)
		}
		r.solutions += sol[j] * uint64(cs[it.con].Orbit())
		var ln lane
		ln.start(tw, it)
		for {
			r.trips++
			if ln.step() == pathNext {
				break
			}
		}
	}
	return r
}

// TestModel runs the model on n = 14 on a device of 4 multiprocessors
// (about as many items a lane as n = 18 has on 132): the model counts
// every item as the twin does, its items add up to the board's total,
// this kernel's launch keeps its warps busy at least 95% of the time, and
// the warps run at least the lanes' instructions over 32 (a SIMT
// efficiency of at most 1; it is low on items this small, of 40 trips:
// the take of an item costs the warp as much as two trips).
func TestModel(t *testing.T) {
	const n = 14
	r := modelBoard(t, count.Constellations(n), 4, 1)
	known, _ := nqueens.KnownCounts(n)
	if r.solutions != known.Total {
		t.Fatalf("n=%d: the model's items add up to %d; OEIS says %d", n, r.solutions, known.Total)
	}
	t.Logf("n=%d: %s", n, r)
	if r.busy < 0.95 {
		t.Errorf("n=%d: the launch is busy %.3f of the time, want 0.95 or more", n, r.busy)
	}
	if r.lanes > 32*r.warp || r.warp == 0 {
		t.Errorf("n=%d: %.4g lane instructions on %.4g warp instructions", n, r.lanes, r.warp)
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
// the table of docs/gpu.md and fails if the kernel's launch is busy less
// than 95% of the time. It skips without -work-n.
func TestWork(t *testing.T) {
	if *workN == "" {
		t.Skip("no -work-n boards to model")
	}
	first, last := workRange(t)
	for n := first; n <= last; n++ {
		r := modelBoard(t, count.Constellations(n), *workSMs, *workEvery)
		t.Logf("n=%d, every %d-th constellation, %d SMs: %s", n, *workEvery, *workSMs, r)
		if r.busy < 0.95 {
			t.Errorf("n=%d: busy %.3f, all told %.3f", n, r.busy, r.busy*r.lanes/(32*r.warp))
		}
	}
}
