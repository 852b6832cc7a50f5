package gpu

import (
	"context"
	"errors"
	"flag"
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
// twin engine, plain and with tail tables, against OEIS A000170 and
// A002562.
func TestTwinOEIS(t *testing.T) {
	for n := 1; n <= maxTwinN(); n++ {
		for _, tails := range []bool{false, true} {
			e := NewTwinEngine(MinBatch)
			e.Tails = tails
			board(t, e, n)
		}
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

// TestTwinMatchesCPU checks the twin, plain and with tail tables, against
// the CPU engine constellation by constellation: the items of each add up
// to its Solutions.
func TestTwinMatchesCPU(t *testing.T) {
	for n := 4; n <= maxTwinN()+1; n++ {
		cs := count.Constellations(n)
		want := make([]uint64, len(cs))
		for i, c := range cs {
			want[i] = c.Solutions()
		}
		for _, tails := range []bool{false, true} {
			e := NewTwinEngine(1)
			e.Tails = tails
			for i, s := range found(t, e, cs) {
				if s != want[i] {
					t.Errorf("n=%d tails=%v constellation %d %v: the twin counts %d, the CPU %d", n, tails, i, cs[i].Queens(), s, want[i])
				}
			}
		}
	}
}

// TestBatches checks the launches' cut: they cover the items in order,
// each ends on a constellation's last item, and each but the last holds at
// least the minimum.
func TestBatches(t *testing.T) {
	items := SplitFor(11).Items(nil, count.Constellations(11))
	for _, min := range []int{1, 7, 100, len(items), len(items) + 1} {
		bs := batches(items, min)
		next := 0
		for k, b := range bs {
			switch {
			case b[0] != next || b[1] <= b[0]:
				t.Fatalf("min %d: launch %d is %v after item %d", min, k, b, next)
			case b[1] < len(items) && items[b[1]].Con == items[b[1]-1].Con:
				t.Fatalf("min %d: launch %v cuts constellation %d", min, b, items[b[1]].Con)
			case k < len(bs)-1 && b[1]-b[0] < min:
				t.Fatalf("min %d: launch %v holds fewer items", min, b)
			}
			next = b[1]
		}
		if next != len(items) {
			t.Fatalf("min %d: the launches end at item %d of %d", min, next, len(items))
		}
	}
}

// TestEngineLaunches checks that the engine launches whole constellations
// at least a batch at a time, and that one launch or many give the same
// solutions.
func TestEngineLaunches(t *testing.T) {
	cs := count.Constellations(11)
	items := SplitFor(11).Items(nil, cs)
	one := NewTwinEngine(len(items))
	many := NewTwinEngine(50)
	var launches, counted int
	many.Launched = func(k int) { launches++; counted += k }
	a, b := found(t, one, cs), found(t, many, cs)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("constellation %d: %d in one launch, %d in launches of 50", i, a[i], b[i])
		}
	}
	if counted != len(items) || launches < len(items)/100 {
		t.Errorf("%d launches counted %d items; want about %d launches of %d items", launches, counted, len(items)/50, len(items))
	}
}

// TestEngineStopsBetweenLaunches cancels a count after its first launch:
// the engine returns the context's error and has found only the
// constellations of that launch, each with its whole count.
func TestEngineStopsBetweenLaunches(t *testing.T) {
	cs := count.Constellations(11)
	e := NewTwinEngine(100)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e.Launched = func(int) { cancel() }
	got := map[int]uint64{}
	err := e.Search(ctx, cs, func(i int, s uint64) { got[i] = s })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if len(got) == 0 || len(got) == len(cs) {
		t.Fatalf("found %d of %d constellations; want those of one launch", len(got), len(cs))
	}
	for i, s := range got {
		if want := cs[i].Solutions(); s != want {
			t.Errorf("constellation %d: found %d solutions, want %d", i, s, want)
		}
	}
}

// TestItems checks the work items of n = 6 to 12: each starts in the row
// its split gives, with a free square, in order of constellation; a
// constellation that Direct counts has no item, and one that it does not
// count has items or no solution.
func TestItems(t *testing.T) {
	for n := 6; n <= 12; n++ {
		cs := count.Constellations(n)
		s := SplitFor(n)
		items := s.Items(nil, cs)
		has := map[int32]bool{}
		for j, it := range items {
			r := cs[it.Con].Rows()
			switch {
			case it.Free == 0:
				t.Fatalf("n=%d item %d: no free square", n, j)
			case int(it.Row) != min(s.Rows, r.Count-2):
				t.Fatalf("n=%d item %d: starts in free row %d of %d, split %v", n, j, it.Row, r.Count, s)
			case j > 0 && it.Con < items[j-1].Con:
				t.Fatalf("n=%d item %d: constellation %d after %d", n, j, it.Con, items[j-1].Con)
			case it.Cols&^(1<<n-1) != 0 || uint32(it.LD)&it.Free != 0:
				t.Fatalf("n=%d item %d: %+v takes squares off the board or its own free ones", n, j, it)
			}
			has[it.Con] = true
		}
		for i, c := range cs {
			d, direct := s.Direct(c)
			switch {
			case direct && has[int32(i)]:
				t.Errorf("n=%d constellation %d: counted directly and has items", n, i)
			case direct && d != c.Solutions():
				t.Errorf("n=%d constellation %d: counted directly %d, want %d", n, i, d, c.Solutions())
			case !direct && !has[int32(i)] && c.Solutions() != 0:
				t.Errorf("n=%d constellation %d: no item, but %d solutions", n, i, c.Solutions())
			}
		}
	}
}

// TestEncodeItems checks that items read back as they were written, and
// that short data is refused.
func TestEncodeItems(t *testing.T) {
	items := SplitFor(12).Items(nil, count.Constellations(12))
	items = append(items, Item{Con: 1<<31 - 1, Row: 29, Free: 1 << 31, Cols: ^uint32(0), LD: 1<<63 | 1, RD: 1<<62 | 2})
	back, err := DecodeItems(EncodeItems(items))
	if err != nil {
		t.Fatal(err)
	}
	for i := range items {
		if back[i] != items[i] {
			t.Fatalf("item %d: wrote %+v, read %+v", i, items[i], back[i])
		}
	}
	if _, err := DecodeItems(make([]byte, 33)); err == nil || !strings.Contains(err.Error(), "33 bytes") {
		t.Errorf("33 bytes decoded as items: %v", err)
	}
	if _, err := DecodeCounts(make([]byte, 16), 3); err == nil {
		t.Error("16 bytes decoded as 3 counts")
	}
	if c, err := DecodeCounts([]byte{1, 0, 0, 0, 0, 0, 0, 0x80}, 1); err != nil || c[0] != 1<<63|1 {
		t.Errorf("DecodeCounts = %v, %v; want [%d]", c, err, uint64(1<<63|1))
	}
}

// TestTables checks the tables of every constellation of n = 9, 10 and
// 16: the rows against Rows, the stop row and who has a tail table, and
// each tail table set by set against the ways tailWays finds (that those
// are right, the twin's counts against OEIS and the CPU engine check).
func TestTables(t *testing.T) {
	for _, n := range []int{9, 10, 16} {
		cs := count.Constellations(n)
		s := SplitFor(n)
		tw := NewTwin(s.Tables(cs))
		tails := 0
		for i, c := range cs {
			r, con := c.Rows(), tw.cons[conWords*i:][:conWords]
			if int(con[0]) != r.Count {
				t.Fatalf("n=%d constellation %d: %d free rows in the table, %d in Rows", n, i, con[0], r.Count)
			}
			for j := 0; j+1 < r.Count; j++ {
				if con[conBlocks+j] != r.Steps[j].Block || con[conShifts+j] != uint32(r.Steps[j].Shift) {
					t.Fatalf("n=%d constellation %d step %d: table %#x, %d; Rows %+v", n, i, j, con[conBlocks+j], con[conShifts+j], r.Steps[j])
				}
			}
			inner := uint32(1)<<n - 1
			for _, q := range c.Queens() {
				inner &^= 1 << q[1]
			}
			switch {
			case con[2] != inner:
				t.Fatalf("n=%d constellation %d: inner %#x, want %#x", n, i, con[2], inner)
			case con[5] == 0 && (s.tail(n, r.Count) || int(con[1]) != max(0, r.Count-2)):
				t.Fatalf("n=%d constellation %d: no tail table, stop row %d of %d", n, i, con[1], r.Count)
			case con[5] == 0:
				continue
			case !s.tail(n, r.Count) || int(con[1]) != r.Count-tailRows-1:
				t.Fatalf("n=%d constellation %d: a tail table, stop row %d of %d", n, i, con[1], r.Count)
			}
			tails++
			// Every way of the table, by set, against a search of the last
			// rows that knows nothing of tables.
			want := map[uint32][]uint64{}
			for _, w := range tailWays(n, r) {
				want[w.set] = append(want[w.set], w.diags)
			}
			for set := inner; set != 0; set = (set - 1) & inner {
				if bits.OnesCount32(set) != tailRows {
					continue
				}
				e := tw.index[con[3]+rank4(set)]
				got := slices.Sorted(slices.Values(tw.ways[con[4]+uint32(e):][:e>>56]))
				if w := slices.Sorted(slices.Values(want[set])); !slices.Equal(got, w) {
					t.Fatalf("n=%d constellation %d set %#x: ways %#x, want %#x", n, i, set, got, w)
				}
			}
		}
		if n >= 10 && tails != len(cs) {
			t.Errorf("n=%d: %d of %d constellations have a tail table", n, tails, len(cs))
		}
	}
}

// TestRank4 checks that rank4 numbers the sets of four of the columns
// 1..n-2 from 0 to C(n-2, 4)-1, each once.
func TestRank4(t *testing.T) {
	for _, n := range []int{6, 12, 32} {
		seen := make([]bool, indexWords(n))
		inner := uint32(1<<(n-1) - 2)
		for set := inner; set != 0; set = (set - 1) & inner {
			if bits.OnesCount32(set) != 4 {
				continue
			}
			r := rank4(set)
			if int(r) >= len(seen) || seen[r] {
				t.Fatalf("n=%d set %#x: rank %d of %d, or twice", n, set, r, len(seen))
			}
			seen[r] = true
		}
		for r, ok := range seen {
			if !ok {
				t.Fatalf("n=%d: no set has rank %d", n, r)
			}
		}
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
// the same table layout and block size, a PTX marked generated with the
// kernel's entry and six parameters, and the stack in shared memory, none
// in local memory (a per-thread stack there made a plain kernel 5.7 times
// slower).
func TestKernelSource(t *testing.T) {
	d := defines(t)
	for name, want := range map[string]int{"BLOCK": blockThreads, "CON_WORDS": conWords, "BLOCKS": conBlocks, "SHIFTS": conShifts, "ITEM_WORDS": itemWords, "RD_OFFSET": rdOffset, "TAIL_LD": tailLD} {
		if d[name] != want {
			t.Errorf("kernel.cu defines %s %d; the host has %d", name, d[name], want)
		}
	}
	ptx := string(PTX())
	switch {
	case !strings.HasPrefix(ptx, "// Code generated by clang-19 from kernel.cu; DO NOT EDIT.\n"):
		t.Errorf("kernel.ptx is not marked generated: %q", ptx[:min(80, len(ptx))])
	case ptx[len(ptx)-1] != 0 || strings.IndexByte(ptx, 0) != len(ptx)-1:
		t.Error("PTX() is not NUL-terminated once")
	case !strings.Contains(ptx, ".entry "+kernelName+"(") || strings.Count(ptx, ".param ") != 8:
		t.Errorf("kernel.ptx has no entry %s with 8 parameters", kernelName)
	case !strings.Contains(ptx, ".shared .align 4 .b8 "):
		t.Error("kernel.ptx keeps no stack in shared memory")
	case strings.Contains(ptx, ".local"):
		t.Error("kernel.ptx uses local memory")
	}
	stack := regexp.MustCompile(`\.shared \.align 4 \.b8 \w+\[(\d+)\]`).FindStringSubmatch(ptx)
	if want := d["ROWS"] * d["BLOCK"] * 4; stack == nil || stack[1] != strconv.Itoa(want) {
		t.Errorf("kernel.ptx's shared stack: %v; want %d bytes", stack, want)
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
// runs it over the items of n = 8 to 12, plain and with tail tables: the
// kernel's own source must count every item as the twin does.
func TestKernelOnHost(t *testing.T) {
	cc := clang(t)
	dir := t.TempDir()
	host := filepath.Join(dir, "host")
	if out, err := exec.Command(cc, "-x", "c++", "-O2", "-o", host, "testdata/host.cc").CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cc, err, out)
	}
	for n := 8; n <= maxTwinN(); n++ {
		cs := count.Constellations(n)
		items := SplitFor(n).Items(nil, cs)
		for _, tables := range []Tables{SplitFor(n).PlainTables(cs), SplitFor(n).Tables(cs)} {
			args := []string{filepath.Join(dir, "cons"), filepath.Join(dir, "index"), filepath.Join(dir, "ways"), filepath.Join(dir, "items")}
			for k, data := range [][]byte{tables.Cons, tables.Index, tables.Ways, EncodeItems(items)} {
				if err := os.WriteFile(args[k], data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out, err := exec.Command(host, args...).Output()
			if err != nil {
				t.Fatalf("n=%d: host kernel: %v", n, err)
			}
			got, err := DecodeCounts(out, len(items))
			if err != nil {
				t.Fatalf("n=%d: %v", n, err)
			}
			tw := NewTwin(tables)
			for i, it := range items {
				if want := tw.Count(it); got[i] != want {
					t.Fatalf("n=%d item %d %+v, %d tail tables: kernel.cu counts %d, the twin %d", n, i, it, len(tables.Index), got[i], want)
				}
			}
		}
	}
}

// TestTailLookups checks the tail tables on boards too large for a whole
// count, up to tailMaxN and past it: from leaf rows reached by random
// walks down constellations of n = 20, 24, 27 and 28 (no tail table, the
// second-to-last row), the twin's count against a plain search of the
// rows below.
func TestTailLookups(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{20, 24, 27, 28} {
		cs := count.Constellations(n)
		s := SplitFor(n)
		tw := NewTwin(s.Tables(cs))
		checked := 0
		for i := 0; i < len(cs); i += len(cs)/40 + 1 {
			r := cs[i].Rows()
			con := tw.cons[conWords*i:][:conWords]
			if r.First == 0 || (con[5] == 0) != (n > tailMaxN) {
				if r.First != 0 {
					t.Fatalf("n=%d constellation %d: tail table %d", n, i, con[5])
				}
				continue
			}
			for range 100 {
				it, ok := walk(rng, r, int(con[1]))
				if !ok {
					continue
				}
				it.Con = int32(i)
				if got, want := tw.Count(it), plain(r, int(it.Row), it.Free, it.Cols, it.LD, it.RD); got != want {
					t.Fatalf("n=%d constellation %d %v, from %+v: the twin counts %d, a plain search %d", n, i, cs[i].Queens(), it, got, want)
				}
				checked++
			}
		}
		t.Logf("n=%d: %d rows checked", n, checked)
		if checked < 100 {
			t.Errorf("n=%d: %d rows checked", n, checked)
		}
	}
}

// walk places queens on random free squares of r's rows from the first
// down to row stop, and returns the sub-board there, or false if a row
// on the way has no free square.
func walk(rng *rand.Rand, r count.Rows, stop int) (Item, bool) {
	free, cols, ld, rd := r.First, uint32(0), uint64(0), uint64(0)
	for row := 0; row < stop; row++ {
		var sq []uint32
		for f := free; f != 0; f &= f - 1 {
			sq = append(sq, f&-f)
		}
		bit := sq[rng.IntN(len(sq))]
		st := r.Steps[row]
		cols, ld, rd = cols|bit, (ld|uint64(bit))<<st.Shift, (rd|uint64(bit)<<rdOffset)>>st.Shift
		if free = ^(cols | uint32(ld) | uint32(rd>>rdOffset) | st.Block); free == 0 {
			return Item{}, false
		}
	}
	return Item{Row: uint8(stop), Free: free, Cols: cols, LD: ld, RD: rd}, true
}

// plain counts the ways to fill row and the rows below it of r with a
// plain search, free being the free squares of row.
func plain(r count.Rows, row int, free, cols uint32, ld, rd uint64) uint64 {
	if row == r.Count-1 {
		return uint64(bits.OnesCount32(free))
	}
	var n uint64
	st := r.Steps[row]
	for f := free; f != 0; f &= f - 1 {
		bit := f & -f
		c, l, d := cols|bit, (ld|uint64(bit))<<st.Shift, (rd|uint64(bit)<<rdOffset)>>st.Shift
		if next := ^(c | uint32(l) | uint32(d>>rdOffset) | st.Block); next != 0 {
			n += plain(r, row+1, next, c, l, d)
		}
	}
	return n
}
