package gpu

import (
	"encoding/binary"
	"fmt"

	"github.com/nqueens/nqueens/count"
)

// item is a work item of the kernel: a sub-board of a constellation, its
// border queens and the queens of its first free rows placed, whose
// solutions one lane of the kernel counts. The items of a constellation
// partition its solutions, so that their counts add up to
// Constellation.Solutions.
type item struct {
	// con is the index of the item's constellation in the list the items
	// were made from.
	con int32
	// row is the free row the item's search starts in (the number of free
	// rows placed above it), at most the constellation's free rows minus
	// 2; the same for all items of a constellation.
	row uint8
	// free is the set of free squares of that row, never empty; cols the
	// columns the queens placed above take; ld and rd the diagonals they
	// take in that row, going down-left (bit c moves to c+1 each row) and
	// down-right (to c-1), in 32 bits: the search only goes down from
	// here, and a bit that leaves the board never comes back.
	free, cols, ld, rd uint32
}

// stackRows is the most rows an item's search keeps on its stack
// (kernel.cu's STACK): those from its first row down to the row above the
// last-but-one free row, whose squares it counts. split places more rows
// where a constellation would need more.
const stackRows = 16

// split is how a list of constellations is cut into items: rows free rows
// placed in each (fewer where a constellation has not enough, more where
// the search below would go past stackRows).
type split struct{ rows int }

// String returns "R rows placed".
func (s split) String() string { return fmt.Sprintf("%d rows placed", s.rows) }

// splitFor returns the split of the constellations of a board of n: few
// pre-placed rows, enough for the lanes of a large GPU (this kernel keeps
// about 118,000 busy on an H100) to share the work evenly, with tasks of
// their items to spare (the model of work_test.go: 2 rows leave n = 18
// fewer tasks than an H100 has warps). Counted on this version's
// constellations, 3 rows give 877,064 items for n = 16, 3,239,461 for
// n = 18, 9,819,270 for n = 20 and 25,681,317 for n = 22.
func splitFor(n int) split {
	switch {
	case n <= 9:
		return split{rows: 1}
	case n <= 13:
		return split{rows: 2}
	default:
		return split{rows: 3}
	}
}

// depth returns the number of free rows an item of a constellation with r
// free rows places: s.rows, fewer if r-2 is smaller, more if the search
// below would go past stackRows; and -1 if the constellation has no item
// (r < 2: the host counts it).
func (s split) depth(r int) int {
	if r < 2 {
		return -1
	}
	return max(min(s.rows, r-2), r-2-stackRows)
}

// items appends the items of the constellation con, whose rows are r, to
// dst, in order of the squares of the rows placed (lowest column first),
// and returns dst. A constellation that direct counts has none, and one
// whose rows placed leave no square free below has none either: it has
// no solution.
func (s split) items(dst []item, con int32, r *count.Rows) []item {
	depth := s.depth(r.Count)
	if depth < 0 || r.First == 0 {
		return dst
	}
	var walk func(row int, free, cols, ld, rd uint32)
	walk = func(row int, free, cols, ld, rd uint32) {
		if row == depth {
			dst = append(dst, item{con: con, row: uint8(row), free: free, cols: cols, ld: ld, rd: rd})
			return
		}
		st := r.Steps[row]
		for f := free; f != 0; f &= f - 1 {
			bit := f & -f
			c, l, d := cols|bit, (ld|bit)<<st.Shift, (rd|bit)>>st.Shift
			if next := ^(c | l | d | st.Block); next != 0 {
				walk(row+1, next, c, l, d)
			}
		}
	}
	walk(0, r.First, 0, 0, 0)
	return dst
}

// countItems returns the number of items of a constellation with rows r
// (items, without making them).
func (s split) countItems(r *count.Rows) int {
	depth := s.depth(r.Count)
	if depth < 0 || r.First == 0 {
		return 0
	}
	var walk func(row int, free, cols, ld, rd uint32) int
	walk = func(row int, free, cols, ld, rd uint32) int {
		if row == depth {
			return 1
		}
		st, k := r.Steps[row], 0
		for f := free; f != 0; f &= f - 1 {
			bit := f & -f
			c, l, d := cols|bit, (ld|bit)<<st.Shift, (rd|bit)>>st.Shift
			if next := ^(c | l | d | st.Block); next != 0 {
				k += walk(row+1, next, c, l, d)
			}
		}
		return k
	}
	return walk(0, r.First, 0, 0, 0)
}

// direct returns the solutions of a constellation the kernel does not
// search: one with fewer than 2 free rows or none free in the first. It
// returns false for the others.
func (s split) direct(r *count.Rows) (uint64, bool) {
	switch {
	case r.Count == 0:
		return 1, true
	case r.First == 0:
		return 0, true
	case s.depth(r.Count) < 0:
		return 1, true // one free row, with a free square
	}
	return 0, false
}

// Sizes of what the kernel reads, in 32-bit words, and where a
// constellation's words hold what (kernel.cu's defines of the same names).
const (
	conWords   = 64
	conBlocks  = 0
	conStop    = 31
	conShifts  = 32
	taskCons   = 2
	taskCon    = 2
	taskWords  = 2 + 2*taskCons
	rowShift   = 24
	none       = 0xffffffff
	itemWords  = 4
	taskItems  = 256                // the most items of a task
	bufs       = 3                  // the tasks a warp holds
	syncTrips  = 64                 // how often the lanes of a warp meet
	notCounted = 0xffffffffffffffff // an item's count before the kernel's
)

// encodeCons returns the rows of constellations as the kernel reads them:
// conWords little-endian words each, the block of free row i+1 at
// conBlocks+i and the shift from row i to row i+1 at conShifts+i, and the
// last-but-one free row, whose squares the kernel counts, at conStop.
func encodeCons(rows []count.Rows) []byte {
	out := make([]byte, 4*conWords*len(rows))
	for i := range rows {
		r := &rows[i]
		w := out[4*conWords*i:]
		put := func(j int, v uint32) { binary.LittleEndian.PutUint32(w[4*j:], v) }
		for j := 0; j+1 < r.Count; j++ {
			put(conBlocks+j, r.Steps[j].Block)
			put(conShifts+j, uint32(r.Steps[j].Shift))
		}
		put(conStop, uint32(max(0, r.Count-2)))
	}
	return out
}

// task is a run of items of at most taskCons constellations, which one
// warp of the kernel counts: items first to end-1 of a chunk, those of
// cons[k] (whose items start in free row rows[k]) from starts[k] on; -1
// in cons for none.
type task struct {
	first, end uint32
	cons       [taskCons]int32
	rows       [taskCons]uint8
	starts     [taskCons]uint32
}

// taskSize returns the items of a task for a count of items on warps
// warps: about 48 tasks a warp, so that the last tasks, the smallest, end
// together; from 16 items (a warp's lanes take those of its other tasks
// meanwhile) to taskItems.
func taskSize(items, warps int) int {
	return min(taskItems, max(16, items/(48*max(warps, 1))))
}

// tasks appends to dst the tasks of items, whose constellations come in
// runs: each task at most size items of at most taskCons constellations,
// in order.
func tasks(dst []task, items []item, size int) []task {
	for j := 0; j < len(items); {
		tk := task{first: uint32(j), cons: [taskCons]int32{-1, -1}}
		k, e := 0, j
		for ; e < len(items) && e-j < size; e++ {
			if e == j || items[e].con != items[e-1].con {
				if k == taskCons {
					break
				}
				tk.cons[k], tk.rows[k], tk.starts[k] = items[e].con, items[e].row, uint32(e)
				k++
			}
		}
		tk.end = uint32(e)
		dst = append(dst, tk)
		j = e
	}
	return dst
}

// encodeTasks returns tasks as the kernel reads them: taskWords
// little-endian words each, first and end, then for each of taskCons
// constellations its index | row<<rowShift and its first item (none for
// both if the task has fewer). It returns an error if an index does not
// fit below rowShift.
func encodeTasks(ts []task) ([]byte, error) {
	out := make([]byte, 4*taskWords*len(ts))
	for i, t := range ts {
		w := out[4*taskWords*i:]
		binary.LittleEndian.PutUint32(w, t.first)
		binary.LittleEndian.PutUint32(w[4:], t.end)
		for k := range taskCons {
			con, start := uint32(none), uint32(none)
			if t.cons[k] >= 0 {
				if t.cons[k] >= 1<<rowShift {
					return nil, fmt.Errorf("encode tasks: constellation %d past the kernel's %d", t.cons[k], 1<<rowShift)
				}
				con, start = uint32(t.cons[k])|uint32(t.rows[k])<<rowShift, t.starts[k]
			}
			binary.LittleEndian.PutUint32(w[4*(taskCon+2*k):], con)
			binary.LittleEndian.PutUint32(w[4*(taskCon+2*k+1):], start)
		}
	}
	return out, nil
}

// encodeItems returns items as the kernel reads them: itemWords
// little-endian words each, free, cols, ld, rd.
func encodeItems(items []item) []byte {
	out := make([]byte, 4*itemWords*len(items))
	for i, it := range items {
		w := out[4*itemWords*i:]
		for j, v := range [itemWords]uint32{it.free, it.cols, it.ld, it.rd} {
			binary.LittleEndian.PutUint32(w[4*j:], v)
		}
	}
	return out
}

// decodeCounts reads the kernel's output: one little-endian 64-bit count
// per item, notCounted for one it has not counted, and returns an error
// if data does not hold want of them.
func decodeCounts(data []byte, want int) ([]uint64, error) {
	if len(data) != 8*want {
		return nil, fmt.Errorf("decode counts: %d bytes, want %d for %d items", len(data), 8*want, want)
	}
	out := make([]uint64, want)
	for i := range out {
		out[i] = binary.LittleEndian.Uint64(data[8*i:])
	}
	return out, nil
}
