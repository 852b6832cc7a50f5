package gpu

import (
	"encoding/binary"
	"math/bits"

	"github.com/nqueens/nqueens/count"
)

// The tail table: the kernel looks up the last tailRows free rows of a
// constellation instead of searching them, as the CPU engine does
// (count's deep): most of a search's nodes are there.
//
// When the search places a queen in the leaf row (the free row above the
// last tailRows), exactly tailRows columns are left, one per row below,
// and the border queens' squares of those rows are fixed: the ways to
// fill them are fixed too, but for the diagonals of the queens above.
// A constellation's tail table lists those ways, each as the diagonals its
// queens take as the first of the rows holds them (ld in the low word, rd
// in the high word, the masks the kernel computes there), grouped by the
// set of columns they take. The kernel counts the ways of the set left
// whose diagonals miss those of the queens above: one lookup and a few
// ANDs for a subtree of four rows.
//
// A set is looked up by its rank among the sets of tailRows of the
// columns 1..n-2 (the border queens always take 0 and n-1) in the
// combinatorial number system, which the kernel computes with four bit
// scans and a few products: C(n-2, 4) index words a table (3,060 for
// n = 20, 4,845 for n = 22), where the CPU's direct index by the set
// itself (2^(n-2) words) would not fit a GPU's caches. Constellations
// whose last rows block the same squares share one table (tables
// deduplicates them), which keeps the tables in flight at once small.

// tailRows is the number of free rows at the bottom of a constellation
// that the kernel looks up in its tail table.
const tailRows = 4

// Tables are the tables the kernel reads, as Split.Tables encodes them
// for a list of constellations, in little-endian words:
//
//   - Cons: conWords 32-bit words for each constellation: the number of
//     free rows (word 0), the row whose squares are counted or looked up
//     (stop, word 1: the leaf row, above the last tailRows, if it has a
//     tail table, else the second-to-last free row), the columns the
//     border queens leave free (word 2), the offset of its tail table's
//     index in Index (word 3) and of its ways in Ways (word 4), 1 if it
//     has a tail table (word 5); then the block of free row i+1 at
//     conBlocks+i and the shift from row i to row i+1 at conShifts+i, for
//     i up to 30 (count.Step).
//   - Index: for each tail table, C(n-2, 4) 32-bit words, one per set of
//     four columns by rank: the offset of the set's first way from the
//     table's first, shifted left by 5, or'ed with the number of its ways
//     (at most 24).
//   - Ways: the ways of each tail table, 64-bit words, ld | rd<<32.
type Tables struct {
	Cons, Index, Ways []byte
}

// Where Tables.Cons holds a constellation's blocks and shifts.
const (
	conBlocks = 8
	conShifts = 40
)

// tail reports whether a constellation with r free rows has a tail table
// under s: when its leaf row, r-tailRows-1, is at or below the row its
// items start in (true from n = 10 on).
func (s Split) tail(r int) bool {
	d := s.rows(r)
	return d >= 0 && r-tailRows-1 >= d
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

// tailKey identifies a tail table: the blocks of the last tailRows free
// rows and the shifts between them. Constellations with the same key have
// the same ways.
type tailKey [2*tailRows - 1]uint32

// way is one way to fill the last tailRows free rows: its columns and its
// diagonals as the first of the rows holds them, ld | rd<<32.
type way struct {
	set   uint32
	diags uint64
}

// tailWays returns the ways to fill the last tailRows free rows of r, in
// the order of a search of those rows from the top (lowest column first),
// with no queen above.
func tailWays(r count.Rows) []way {
	first := r.Count - tailRows // the first of the last rows
	var out []way
	var walk func(i int, free, cols uint32, ld, rd uint64, off uint32, diags uint64)
	walk = func(i int, free, cols uint32, ld, rd uint64, off uint32, diags uint64) {
		for f := free; f != 0; f &= f - 1 {
			bit := f & -f
			x := uint32(bits.TrailingZeros32(bit))
			g := diags
			if x >= off {
				g |= uint64(1) << (x - off) // ld, as row first holds it
			}
			if x+off < 32 {
				g |= uint64(1) << (x + off + 32) // rd
			}
			if i == r.Count-1 {
				out = append(out, way{set: cols | bit, diags: g})
				continue
			}
			st := r.Steps[i]
			c, l, d := cols|bit, (ld|uint64(bit))<<st.Shift, (rd|uint64(bit)<<rdOffset)>>st.Shift
			if next := ^(c | uint32(l) | uint32(d>>rdOffset) | st.Block); next != 0 {
				walk(i+1, next, c, l, d, off+uint32(st.Shift), g)
			}
		}
	}
	walk(first, ^r.Steps[first-1].Block, 0, 0, 0, 0, 0)
	return out
}

// Tables returns the tables of cs (see Tables) under s: each
// constellation's rows, and the tail tables of those that have one,
// shared by the constellations whose last rows are the same.
func (s Split) Tables(cs []count.Constellation) Tables {
	var t Tables
	t.Cons = make([]byte, 4*conWords*len(cs))
	tables := map[tailKey][2]uint32{} // the offsets of each table in Index and Ways
	var index []uint32
	var ways []uint64
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
		if !s.tail(r.Count) {
			put(1, uint32(max(0, r.Count-2)))
			continue
		}
		put(1, uint32(r.Count-tailRows-1))
		put(5, 1)
		var key tailKey
		for j := range tailRows {
			key[j] = r.Steps[r.Count-tailRows-1+j].Block
		}
		for j := range tailRows - 1 {
			key[tailRows+j] = uint32(r.Steps[r.Count-tailRows+j].Shift)
		}
		at, ok := tables[key]
		if !ok {
			at = [2]uint32{uint32(len(index)), uint32(len(ways))}
			tables[key] = at
			index = append(index, make([]uint32, indexWords(c.N()))...)
			idx := index[at[0]:]
			fills := tailWays(r)
			// Group the ways by set: count them, lay the sets out in order
			// of first appearance, then place each way.
			var order []uint32
			for _, f := range fills {
				k := rank4(f.set)
				if idx[k] == 0 {
					order = append(order, k)
				}
				idx[k]++
			}
			start := uint32(0)
			for _, k := range order {
				n := idx[k]
				idx[k] = start<<5 | n
				start += n
			}
			placed := make(map[uint32]uint32, len(order))
			base := len(ways)
			ways = append(ways, make([]uint64, len(fills))...)
			for _, f := range fills {
				k := rank4(f.set)
				ways[base+int(idx[k]>>5+placed[k])] = f.diags
				placed[k]++
			}
		}
		put(3, at[0])
		put(4, at[1])
	}
	t.Index = make([]byte, 4*len(index))
	for i, v := range index {
		binary.LittleEndian.PutUint32(t.Index[4*i:], v)
	}
	t.Ways = make([]byte, 8*len(ways))
	for i, v := range ways {
		binary.LittleEndian.PutUint64(t.Ways[8*i:], v)
	}
	return t
}
