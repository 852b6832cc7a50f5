package gpu

import (
	"context"
	"errors"
	"flag"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/count"
)

// large makes the twin's tests count up to n = 17, minutes on one core.
var large = flag.Bool("large", false, "count n up to 17 with the twin (slow)")

// maxTwinN is the largest n the twin's tests count against OEIS.
func maxTwinN() int {
	switch {
	case *large:
		return 17
	case testing.Short():
		return 10
	}
	return 12
}

// board counts the board of n with e (all of its constellations, then the
// classes on the CPU) and checks the counts against OEIS.
func board(t *testing.T, e count.Engine, n int) {
	t.Helper()
	ctx := context.Background()
	total, err := count.Options{Engine: e}.Search(ctx, count.Constellations(n))
	if err != nil {
		t.Fatalf("n=%d: %v", n, err)
	}
	c, err := count.TallyTotal(ctx, n, total, 0)
	if err != nil {
		t.Fatalf("n=%d: %v", n, err)
	}
	if k, _ := nqueens.KnownCounts(n); c.Total != k.Total || c.Unique != k.Unique {
		t.Errorf("n=%d: %s counts %d solutions in %d classes; OEIS says %d, %d", n, e, c.Total, c.Unique, k.Total, k.Unique)
	}
}

// TestTwinOEIS counts the boards of n = 1 to 12 (17 with -large) with the
// twin engine against OEIS A000170 and A002562.
func TestTwinOEIS(t *testing.T) {
	for n := 1; n <= maxTwinN(); n++ {
		board(t, newTwinEngine(1<<20), n)
	}
}

// found runs e over cs and returns each constellation's solutions, failing
// t if one is found twice or not at all.
func found(t *testing.T, e count.Engine, cs []count.Constellation) []uint64 {
	t.Helper()
	got := make([]uint64, len(cs))
	seen := make([]bool, len(cs))
	err := e.Search(context.Background(), cs, func(i int, s uint64) {
		if seen[i] {
			t.Fatalf("constellation %d found twice", i)
		}
		seen[i], got[i] = true, s
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, ok := range seen {
		if !ok {
			t.Fatalf("constellation %d of %d not found", i, len(cs))
		}
	}
	return got
}

// TestTwinMatchesCPU checks the twin engine against the CPU engine
// constellation by constellation, in chunks of 100 items and in one: the
// items of each add up to its Solutions.
func TestTwinMatchesCPU(t *testing.T) {
	for n := 4; n <= maxTwinN()+1; n++ {
		cs := count.Constellations(n)
		for _, chunk := range []int{100, 1 << 20} {
			for i, s := range found(t, newTwinEngine(chunk), cs) {
				if want := cs[i].Solutions(); s != want {
					t.Errorf("n=%d chunks of %d: constellation %d %v: the twin counts %d, the CPU %d", n, chunk, i, cs[i].Queens(), s, want)
				}
			}
		}
	}
}

// newTestPlan returns the plan of the constellations of n and those it
// found (direct, or with no item).
func newTestPlan(t *testing.T, n int) (*plan, []count.Constellation, map[int]uint64) {
	t.Helper()
	cs := count.Constellations(n)
	direct := map[int]uint64{}
	p, err := newPlan(context.Background(), cs, func(i int, s uint64) { direct[i] = s })
	if err != nil {
		t.Fatal(err)
	}
	return p, cs, direct
}

// TestPlan checks the plan of n = 6 to 14: each constellation is found at
// once (with its solutions) or searched, never both; those searched come
// largest item first by the cost model.
func TestPlan(t *testing.T) {
	for n := 6; n <= 14; n++ {
		p, cs, direct := newTestPlan(t, n)
		searched := map[int32]bool{}
		last := math.Inf(1)
		for _, i := range p.order {
			c := cs[i]
			if _, ok := direct[int(i)]; ok || searched[i] {
				t.Fatalf("n=%d constellation %d: found at once and searched, or searched twice", n, i)
			}
			searched[i] = true
			cost := float64(c.Cost()) / float64(p.split.countItems(&p.rows[i]))
			if cost > last {
				t.Fatalf("n=%d constellation %d: cost %.1f an item after %.1f", n, i, cost, last)
			}
			last = cost
		}
		for i, s := range direct {
			if want := cs[i].Solutions(); s != want {
				t.Errorf("n=%d constellation %d: found at once with %d, want %d", n, i, s, want)
			}
		}
		if len(direct)+len(p.order) != len(cs) {
			t.Errorf("n=%d: %d found at once and %d searched of %d", n, len(direct), len(p.order), len(cs))
		}
	}
}

// TestChunks checks the chunks of n = 11 for several sizes: they cover the
// plan's constellations in order, whole, each chunk at least the minimum
// of items but the last; each task is items of one constellation, at most
// taskItems, of at most taskCons constellations, and the tasks cover the
// chunk's items in order; every item
// has its count not counted.
func TestChunks(t *testing.T) {
	p, _, _ := newTestPlan(t, 11)
	for _, min := range []int{1, 7, 100, 1 << 20} {
		quit := make(chan struct{})
		k := 0
		var chunks []*chunk
		for c := range p.chunks(min, taskItems, quit) {
			chunks = append(chunks, c)
		}
		close(quit)
		for j, c := range chunks {
			if j < len(chunks)-1 && len(c.items) < min {
				t.Fatalf("min %d: chunk %d holds %d items", min, j, len(c.items))
			}
			next := 0
			for _, s := range c.spans {
				if s.con != p.order[k] || s.first != next || s.end <= s.first {
					t.Fatalf("min %d chunk %d: span %+v, want constellation %d from item %d", min, j, s, p.order[k], next)
				}
				for _, it := range c.items[s.first:s.end] {
					if it.con != s.con {
						t.Fatalf("min %d chunk %d: item of %d in the span of %d", min, j, it.con, s.con)
					}
				}
				k++
				next = s.end
			}
			next = 0
			for _, tk := range c.tasks {
				if tk.first != uint32(next) || tk.end <= tk.first || tk.end-tk.first > taskItems {
					t.Fatalf("min %d chunk %d: task %+v after item %d", min, j, tk, next)
				}
				// Its constellations, in order, from their starts.
				k := -1
				for x := tk.first; x < tk.end; x++ {
					it := c.items[x]
					if k+1 < taskCons && tk.cons[k+1] >= 0 && x == tk.starts[k+1] {
						k++
					}
					if k < 0 || it.con != tk.cons[k] || it.row != tk.rows[k] {
						t.Fatalf("min %d chunk %d: task %+v holds item %d of %d row %d", min, j, tk, x, it.con, it.row)
					}
				}
				for k++; k < taskCons; k++ {
					if tk.cons[k] >= 0 {
						t.Fatalf("min %d chunk %d: task %+v names constellations it holds no item of", min, j, tk)
					}
				}
				next = int(tk.end)
			}
			if next != len(c.items) || len(c.counts) != len(c.items) || slices.ContainsFunc(c.counts, func(n uint64) bool { return n != notCounted }) {
				t.Fatalf("min %d chunk %d: tasks end at %d of %d items; %d counts, all not counted", min, j, next, len(c.items), len(c.counts))
			}
		}
		if k != len(p.order) {
			t.Fatalf("min %d: the chunks hold %d of %d constellations", min, k, len(p.order))
		}
	}
}

// TestEngineStops cancels a count as its first chunk is launched: the
// engine stops the launch, returns the context's error, and has found
// only constellations counted whole, each with its whole count.
func TestEngineStops(t *testing.T) {
	cs := count.Constellations(12)
	e := newTwinEngine(1000)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	launches := 0
	e.launched = func(*chunk) { launches++; cancel() }
	got := map[int]uint64{}
	err := e.Search(ctx, cs, func(i int, s uint64) { got[i] = s })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if launches != 1 || len(got) == len(cs) {
		t.Fatalf("%d launches found %d of %d constellations; want one launch and not all", launches, len(got), len(cs))
	}
	for i, s := range got {
		if want := cs[i].Solutions(); s != want {
			t.Errorf("constellation %d: found %d solutions, want %d", i, s, want)
		}
	}
}

// TestItems checks the work items of n = 6 to 12: each starts in the row
// its split gives, with a free square, and the search below it fits the
// stack; a constellation that direct counts has no item, and one that it
// does not count has items or no solution.
func TestItems(t *testing.T) {
	for n := 6; n <= 12; n++ {
		cs := count.Constellations(n)
		s := splitFor(n)
		for i, c := range cs {
			r := c.Rows()
			items := s.items(nil, int32(i), &r)
			if len(items) != s.countItems(&r) {
				t.Fatalf("n=%d constellation %d: %d items, counted %d", n, i, len(items), s.countItems(&r))
			}
			for j, it := range items {
				switch {
				case it.free == 0:
					t.Fatalf("n=%d item %d: no free square", n, j)
				case int(it.row) != min(s.rows, r.Count-2):
					t.Fatalf("n=%d item %d: starts in free row %d of %d, split %v", n, j, it.row, r.Count, s)
				case it.cols&^(1<<n-1) != 0 || it.ld&it.free != 0 || it.rd&it.free != 0:
					t.Fatalf("n=%d item %d: %+v takes squares off the board or its own free ones", n, j, it)
				}
			}
			d, direct := s.direct(&r)
			switch {
			case direct && len(items) > 0:
				t.Errorf("n=%d constellation %d: counted directly and has items", n, i)
			case direct && d != c.Solutions():
				t.Errorf("n=%d constellation %d: counted directly %d, want %d", n, i, d, c.Solutions())
			case !direct && len(items) == 0 && c.Solutions() != 0:
				t.Errorf("n=%d constellation %d: no item, but %d solutions", n, i, c.Solutions())
			}
		}
	}
}

// TestDepth checks that the items of every constellation of n = 16 to 32
// keep their search within the stack: from the row an item starts in to
// the row above the last-but-one, at most stackRows rows.
func TestDepth(t *testing.T) {
	for n := 16; n <= 32; n++ {
		s := splitFor(n)
		for r := 0; r <= n; r++ {
			d := s.depth(r)
			if d >= 0 && (r-2-d > stackRows || d > r-2) {
				t.Fatalf("n=%d, %d free rows: items start in row %d, which leaves %d rows for the stack", n, r, d, r-2-d)
			}
		}
	}
}

// TestDecodeCounts checks that counts read back as the kernel writes
// them, and that short data is refused.
func TestDecodeCounts(t *testing.T) {
	if _, err := decodeCounts(make([]byte, 16), 3); err == nil {
		t.Error("16 bytes decoded as 3 counts")
	}
	if c, err := decodeCounts([]byte{1, 0, 0, 0, 0, 0, 0, 0x80}, 1); err != nil || c[0] != 1<<63|1 {
		t.Errorf("decodeCounts = %v, %v; want [%d]", c, err, uint64(1<<63|1))
	}
}

// defines returns the #define NAME NUMBER lines of kernel.cu.
func defines(t *testing.T) map[string]int {
	t.Helper()
	src, err := os.ReadFile("kernel.cu")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, m := range regexp.MustCompile(`(?m)^#define (\w+) (\d+)$`).FindAllStringSubmatch(string(src), -1) {
		out[m[1]], _ = strconv.Atoi(m[2])
	}
	return out
}

// TestKernelSource checks that kernel.cu and its PTX agree with the host:
// the same table layout, block size and stack; a PTX marked generated,
// for sm_70 and PTX ISA 6.3, with the kernel's entry and seven
// parameters, and the stack in shared memory, none in local memory (a
// per-thread stack there made a kernel 5.7 times slower).
func TestKernelSource(t *testing.T) {
	d := defines(t)
	for name, want := range map[string]int{"BLOCK": blockThreads, "CON_WORDS": conWords, "BLOCKS": conBlocks,
		"STOP": conStop, "SHIFTS": conShifts, "TASK_CONS": taskCons, "TASK_CON": taskCon, "TASK_WORDS": taskWords,
		"ROW_SHIFT": rowShift, "ITEM_WORDS": itemWords, "STACK": stackRows, "BUFS": bufs, "SYNC_TRIPS": syncTrips} {
		if d[name] != want {
			t.Errorf("kernel.cu defines %s %d; the host has %d", name, d[name], want)
		}
	}
	ptx := string(ptx())
	switch {
	case !strings.HasPrefix(ptx, "// Code generated by clang-19 from kernel.cu; DO NOT EDIT.\n"):
		t.Errorf("kernel.ptx is not marked generated: %q", ptx[:min(80, len(ptx))])
	case ptx[len(ptx)-1] != 0 || strings.IndexByte(ptx, 0) != len(ptx)-1:
		t.Error("ptx() is not NUL-terminated once")
	case !strings.Contains(ptx, "\n.version 6.3\n") || !strings.Contains(ptx, "\n.target sm_70\n"):
		t.Error("kernel.ptx is not PTX ISA 6.3 for sm_70")
	case !strings.Contains(ptx, ".entry "+kernelName+"(") || strings.Count(ptx, ".param ") != 7:
		t.Errorf("kernel.ptx has no entry %s with 7 parameters", kernelName)
	case strings.Contains(ptx, ".local"):
		t.Error("kernel.ptx uses local memory")
	}
	shared := 0
	for _, m := range regexp.MustCompile(`\.shared \.align 4 \.b8 \w+\[(\d+)\]`).FindAllStringSubmatch(ptx, -1) {
		k, _ := strconv.Atoi(m[1])
		shared += k
	}
	if want := 4 * (stackRows*3*blockThreads + blockThreads/32*bufs*(taskCons*conWords+taskWords+2) + blockThreads/32*2); shared != want {
		t.Errorf("kernel.ptx's shared memory: %d bytes; want %d (stack, tasks and counters)", shared, want)
	}
}

// clang returns the clang that builds kernel.cu for the host, skipping
// the test if there is none (failing it with NQUEENS_REQUIRE_CLANG=1).
func clang(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"clang-19", "clang++", "clang"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("NQUEENS_REQUIRE_CLANG") == "1" {
		t.Fatal("no clang-19, clang++ or clang on PATH, and NQUEENS_REQUIRE_CLANG=1")
	}
	t.Skip("no clang-19, clang++ or clang on PATH to build kernel.cu for the host")
	return ""
}

// TestKernelOnHost builds kernel.cu for the host (testdata/host.cc) and
// runs it over the chunks of n = 8 to 12: the kernel's own source must
// count every item as the twin does; and with the stop flag raised, none.
func TestKernelOnHost(t *testing.T) {
	cc := clang(t)
	dir := t.TempDir()
	host := filepath.Join(dir, "host")
	if out, err := exec.Command(cc, "-x", "c++", "-O2", "-o", host, "testdata/host.cc").CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cc, err, out)
	}
	for n := 8; n <= maxTwinN(); n++ {
		p, _, _ := newTestPlan(t, n)
		cons := encodeCons(p.rows)
		tw := newTwin(cons)
		quit := make(chan struct{})
		for c := range p.chunks(5000, 64, quit) {
			args := []string{filepath.Join(dir, "cons"), filepath.Join(dir, "tasks"), filepath.Join(dir, "items")}
			tasks, err := encodeTasks(c.tasks)
			if err != nil {
				t.Fatal(err)
			}
			for k, data := range [][]byte{cons, tasks, encodeItems(c.items)} {
				if err := os.WriteFile(args[k], data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, stop := range []bool{false, true} {
				a := args
				if stop {
					a = append(a[:3:3], "stop")
				}
				out, err := exec.Command(host, a...).Output()
				if err != nil {
					t.Fatalf("n=%d: host kernel: %v", n, err)
				}
				got, err := decodeCounts(out, len(c.items))
				if err != nil {
					t.Fatalf("n=%d: %v", n, err)
				}
				for i, it := range c.items {
					want := tw.count(it)
					if stop {
						want = notCounted
					}
					if got[i] != want {
						t.Fatalf("n=%d item %d %+v, stop %v: kernel.cu counts %d, want %d", n, i, it, stop, got[i], want)
					}
				}
			}
		}
		close(quit)
	}
}

// TestDeepRows checks the 32-bit search on boards too large for a whole
// count: from items reached by random walks down constellations of
// n = 20, 24, 27 and 32, the twin's count against a plain search of the
// rows below.
func TestDeepRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{20, 24, 27, 32} {
		cs := count.Constellations(n)
		s := splitFor(n)
		rows := make([]count.Rows, 0, 64)
		var picked []int
		for i := 0; i < len(cs); i += len(cs)/40 + 1 {
			rows = append(rows, cs[i].Rows())
			picked = append(picked, i)
		}
		tw := newTwin(encodeCons(rows))
		checked := 0
		for k, r := range rows {
			if _, ok := s.direct(&r); ok {
				continue
			}
			for range 20 {
				// Start deep enough for a plain search to be quick.
				it, ok := walk(rng, r, max(s.depth(r.Count), r.Count-9))
				if !ok {
					continue
				}
				it.con = int32(k)
				if got, want := tw.count(it), plain(r, int(it.row), it.free, it.cols, it.ld, it.rd); got != want {
					t.Fatalf("n=%d constellation %d %v, from %+v: the twin counts %d, a plain search %d", n, picked[k], cs[picked[k]].Queens(), it, got, want)
				}
				checked++
			}
		}
		if checked < 100 {
			t.Errorf("n=%d: %d items checked", n, checked)
		}
	}
}

// walk places queens on random free squares of r's rows from the first
// down to row stop, and returns the sub-board there, or false if a row
// on the way has no free square.
func walk(rng *rand.Rand, r count.Rows, stop int) (item, bool) {
	free, cols, ld, rd := r.First, uint32(0), uint32(0), uint32(0)
	for row := 0; row < stop; row++ {
		var sq []uint32
		for f := free; f != 0; f &= f - 1 {
			sq = append(sq, f&-f)
		}
		if len(sq) == 0 {
			return item{}, false
		}
		bit := sq[rng.IntN(len(sq))]
		st := r.Steps[row]
		cols, ld, rd = cols|bit, (ld|bit)<<st.Shift, (rd|bit)>>st.Shift
		if free = ^(cols | ld | rd | st.Block); free == 0 {
			return item{}, false
		}
	}
	return item{row: uint8(stop), free: free, cols: cols, ld: ld, rd: rd}, true
}

// plain counts the ways to fill row and the rows below it of r with a
// plain recursive search, free being the free squares of row: no stack,
// no count of the last rows at once.
func plain(r count.Rows, row int, free, cols, ld, rd uint32) uint64 {
	if row == r.Count-1 {
		return uint64(bits.OnesCount32(free))
	}
	var n uint64
	st := r.Steps[row]
	for f := free; f != 0; f &= f - 1 {
		bit := f & -f
		c, l, d := cols|bit, (ld|bit)<<st.Shift, (rd|bit)>>st.Shift
		if next := ^(c | l | d | st.Block); next != 0 {
			n += plain(r, row+1, next, c, l, d)
		}
	}
	return n
}
