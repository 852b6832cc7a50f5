package gpu

import (
	"encoding/binary"
	"math/bits"
	"slices"

	"github.com/nqueens/nqueens/count"
)

// The tail tables: the kernel looks up the last tailRows free rows of a
// constellation instead of searching them, as the CPU engine does
// (count's deep): most of a search's nodes are there.
//
// When the search places a queen in the leaf row (the free row above the
// last tailRows), exactly tailRows columns are left, one for each row
// below. A tail table lists, for every set of four of the columns 1..n-2
// (the border queens always take 0 and n-1), the ways to put them in the
// last four free rows so that no two attack each other, each as the
// diagonals its queens take as the first of those rows holds them. The
// table depends on the gaps between those rows alone, not on the border
// queens: the kernel counts the ways of the set left whose diagonals miss
// those of the queens above and of the border queens (a mask of the
// constellation, Tables.Cons words 6 and 7). A board has a few tables
// (one for each pattern of gaps, mostly rows 1 apart), of C(n-2, 4)
// index words and the ways of each set: 3.2 MB in all for n = 20, which
// stay in the GPU's L2. Tables for each constellation, as the CPU engine
// makes them (it filters out the ways the border queens block), would
// hold 780 MB for n = 20 and take 16 s of one core to build (measured,
// docs/gpu.md), and the kernel would read them at random from memory.
//
// A set's ways are in order of the column of their first queen, and its
// index entry holds how many stand in each column: the kernel computes
// the free squares of the first of the rows (a look-ahead), looks
// nothing up when there is none, and compares only the ways from the
// lowest free column's to the highest's (on n = 16, 3.6 ways a lookup
// rather than 9).
//
// The diagonals of a way: ld, bit x-off+tailLD for a queen in column x
// off rows below the first of the rows; rd, bit x+off+32. The queens
// above hand the first row ld shifted up by tailLD. Both fit 32 bits up
// to n = tailMaxN, as the last four free rows span at most 6 rows (only
// the left and right border queens can stand between them).
//
// A set is looked up by its rank among the sets of four of the columns
// 1..31 in the combinatorial number system (rank4), which the kernel
// computes with four bit scans and a few products: an index of 24 KB a
// table for n = 20 fits a multiprocessor's L1, where one by the set
// itself (2^(n-2) entries, the CPU engine's) would take 2 MB.

// tailRows is the number of free rows at the bottom of a constellation
// that the kernel looks up in its tail table; tailLD how far a table
// shifts the down-left diagonals up, so that those of the queens of the
// last rows that start left of column 0 in their first row keep a bit;
// tailMaxN the largest board whose tables fit 32-bit diagonals.
const (
	tailRows = 4
	tailLD   = 5
	tailMaxN = 27
)

// Tables are the tables the kernel reads, as Split.Tables encodes them
// for a list of constellations, in little-endian words:
//
//   - Cons: conWords 32-bit words for each constellation: the number of
//     free rows (word 0), the row whose squares are counted or looked up
//     (stop, word 1: the leaf row, above the last tailRows, if it has a
//     tail table, else the second-to-last free row), the columns the
//     border queens leave free (word 2), the offset of its tail table's
//     index in Index (word 3) and of its ways in Ways (word 4), 1 if it
//     has a tail table (word 5), the diagonals of the border queens as
//     the ways of its tail table hold them (ld in word 6, rd in word 7);
//     then the block of free row i+1 at conBlocks+i and the shift from
//     row i to row i+1 at conShifts+i, for i up to 30 (count.Step).
//   - Index: for each tail table, C(n-2, 4) 64-bit words, one per set of
//     four columns by rank: the offset of the set's first way from the
//     table's first (low word), then in byte j of the high word the number
//     of its ways whose first queen stands in the set's columns 0..j
//     (lowest first; byte 3 is all its ways, at most 24). A set's ways are
//     in order of the column of their first queen.
//   - Ways: the ways of each tail table, 64-bit words, ld | rd<<32.
type Tables struct {
	Cons, Index, Ways []byte
}

// Where Tables.Cons holds a constellation's blocks and shifts.
const (
	conBlocks = 8
	conShifts = 40
)

// tail reports whether a constellation of a board of n with r free rows
// has a tail table under s: when its leaf row, r-tailRows-1, is at or
// below the row its items start in (from n = 10 on), up to n = tailMaxN.
func (s Split) tail(n, r int) bool {
	d := s.rows(r)
	return d >= 0 && r-tailRows-1 >= d && n <= tailMaxN
}

// rank4 returns the rank of a set of four of the columns 1..31 among the
// sets of four of those columns, in colexicographic order: C(z, 4) +
// C(y, 3) + C(x, 2) + w, for the columns w+1 < x+1 < y+1 < z+1. The
// kernel's rank4 computes it the same way.
func rank4(set uint32) uint32 {
	set >>= 1
	w := uint32(bits.TrailingZeros32(set))
	set &= set - 1
	x := uint32(bits.TrailingZeros32(set))
	set &= set - 1
	y := uint32(bits.TrailingZeros32(set))
	set &= set - 1
	z := uint32(bits.TrailingZeros32(set))
	return w + x*(x-1)/2 + y*(y-1)*(y-2)/6 + z*(z-1)*(z-2)*(z-3)/24
}

// indexWords returns the words of a tail table's index on a board of n:
// C(n-2, 4).
func indexWords(n int) int {
	m := n - 2
	return m * (m - 1) * (m - 2) * (m - 3) / 24
}

// tailKey identifies a tail table: the shifts between the last tailRows
// free rows.
type tailKey [tailRows - 1]uint8

// way is one way to fill the last tailRows free rows: its columns and its
// diagonals as the first of the rows holds them, ld | rd<<32 (see the
// tail tables above).
type way struct {
	set, first uint32 // first: the column of the queen of the first row
	diags      uint64
}

// tailWays returns the ways to fill the last tailRows free rows of r on
// a board of n with any four of the columns 1..n-2, no queen above and
// no border queen, in the order of a search of those rows from the top
// (lowest column first).
func tailWays(n int, r count.Rows) []way {
	first := r.Count - tailRows // the first of the last rows
	inner := uint32(1)<<(n-1) - 2
	var out []way
	var walk func(i int, free, cols uint32, ld, rd uint64, off uint32, diags uint64, first uint32)
	walk = func(i int, free, cols uint32, ld, rd uint64, off uint32, diags uint64, first uint32) {
		for f := free; f != 0; f &= f - 1 {
			bit := f & -f
			x := uint32(bits.TrailingZeros32(bit))
			g := diags | uint64(1)<<(x+tailLD-off) | uint64(1)<<(x+off+32)
			fst := first
			if fst == 0 {
				fst = bit
			}
			if i == r.Count-1 {
				out = append(out, way{set: cols | bit, first: fst, diags: g})
				continue
			}
			sh := r.Steps[i].Shift
			c, l, d := cols|bit, (ld|uint64(bit))<<sh, (rd|uint64(bit)<<rdOffset)>>sh
			if next := inner &^ (c | uint32(l) | uint32(d>>rdOffset)); next != 0 {
				walk(i+1, next, c, l, d, off+uint32(sh), g, fst)
			}
		}
	}
	walk(first, inner, 0, 0, 0, 0, 0, 0)
	return out
}

// borderDiags returns the diagonals of the border queens of c as the
// ways of its tail table hold them.
func borderDiags(c count.Constellation) uint64 {
	// t0, the first of the last tailRows free rows: the rows no border
	// queen stands in, counted from the bottom.
	t0, left := c.N(), tailRows
	for left > 0 {
		t0--
		if !slices.ContainsFunc(c.Queens(), func(q [2]int) bool { return q[0] == t0 }) {
			left--
		}
	}
	var g uint64
	for _, q := range c.Queens() {
		if p := q[1] - q[0] + t0 + tailLD; p >= 0 && p < 32 {
			g |= 1 << p
		}
		if p := q[1] + q[0] - t0; p >= 0 && p < 32 {
			g |= 1 << (p + 32)
		}
	}
	return g
}

// Tables returns the tables of cs, constellations of one board, under s
// (see Tables): each constellation's rows, and the tail tables of its
// patterns of last rows.
func (s Split) Tables(cs []count.Constellation) Tables { return s.tables(cs, true) }

// PlainTables returns the tables of cs under s with no tail table: the
// kernel then searches every free row, counting in the second-to-last,
// the search the tail tables are measured against, and the engine's
// default (Engine.Tails).
func (s Split) PlainTables(cs []count.Constellation) Tables { return s.tables(cs, false) }

// tables returns the tables of cs under s, with tail tables if tails.
func (s Split) tables(cs []count.Constellation, tails bool) Tables {
	var t Tables
	t.Cons = make([]byte, 4*conWords*len(cs))
	tables := map[tailKey][2]uint32{} // the offsets of each table in Index and Ways
	var index, ways []uint64
	for i, c := range cs {
		r := c.Rows()
		w := t.Cons[4*conWords*i:]
		put := func(j int, v uint32) { binary.LittleEndian.PutUint32(w[4*j:], v) }
		put(0, uint32(r.Count))
		inner := uint32(1)<<c.N() - 1
		for _, q := range c.Queens() {
			inner &^= 1 << q[1]
		}
		put(2, inner)
		for j := 0; j+1 < r.Count; j++ {
			put(conBlocks+j, r.Steps[j].Block)
			put(conShifts+j, uint32(r.Steps[j].Shift))
		}
		if !tails || !s.tail(c.N(), r.Count) {
			put(1, uint32(max(0, r.Count-2)))
			continue
		}
		put(1, uint32(r.Count-tailRows-1))
		put(5, 1)
		var key tailKey
		for j := range tailRows - 1 {
			key[j] = r.Steps[r.Count-tailRows+j].Shift
		}
		at, ok := tables[key]
		if !ok {
			at = [2]uint32{uint32(len(index)), uint32(len(ways))}
			tables[key] = at
			index = append(index, make([]uint64, indexWords(c.N()))...)
			idx := index[at[0]:][:indexWords(c.N())]
			fills := tailWays(c.N(), r)
			// Group the ways by set, in order of the column of their first
			// queen (tailWays lists them so): count those of each set and
			// column, lay the sets out in rank order, then place each way.
			per := make([][4]uint8, len(idx))
			for _, f := range fills {
				k := rank4(f.set)
				per[k][bits.OnesCount32(f.set&(f.first-1))]++
			}
			start := uint32(0)
			for k := range idx {
				e := uint64(start)
				var cum uint8
				for j, m := range per[k] {
					cum += m
					e |= uint64(cum) << (32 + 8*j)
				}
				idx[k] = e
				start += uint32(cum)
				per[k] = [4]uint8{}
			}
			base := len(ways)
			ways = append(ways, make([]uint64, len(fills))...)
			for _, f := range fills {
				k := rank4(f.set)
				ways[base+int(uint32(idx[k]))+int(per[k][0])] = f.diags
				per[k][0]++
			}
		}
		put(3, at[0])
		put(4, at[1])
		g := borderDiags(c)
		put(6, uint32(g))
		put(7, uint32(g>>32))
	}
	t.Index = make([]byte, 8*len(index))
	for i, v := range index {
		binary.LittleEndian.PutUint64(t.Index[8*i:], v)
	}
	t.Ways = make([]byte, 8*len(ways))
	for i, v := range ways {
		binary.LittleEndian.PutUint64(t.Ways[8*i:], v)
	}
	return t
}
