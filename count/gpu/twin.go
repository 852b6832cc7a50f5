package gpu

import (
	"encoding/binary"
	"math/bits"
)

// Twin is the kernel's search in Go, step for step: the same tables, the
// same items, the same stack of one candidate set per row, undone by
// shifting back, the same lookups of the tail tables. It is what the tests
// hold the kernel's algorithm to on a machine without a GPU, and what a
// GPU's counts are checked against item by item.
type Twin struct {
	cons        []uint32 // Tables.Cons, as words
	index, ways []uint64 // Tables.Index and Tables.Ways
}

// NewTwin returns the twin of the kernel over the tables t (Split.Tables).
func NewTwin(t Tables) *Twin {
	w := &Twin{cons: make([]uint32, len(t.Cons)/4), index: words64(t.Index), ways: words64(t.Ways)}
	for i := range w.cons {
		w.cons[i] = binary.LittleEndian.Uint32(t.Cons[4*i:])
	}
	return w
}

// words64 returns b as little-endian 64-bit words.
func words64(b []byte) []uint64 {
	w := make([]uint64, len(b)/8)
	for i := range w {
		w[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	return w
}

// Work is what the kernel's search of items does, the numbers that
// predict its time on a GPU (Twin.Work): Trips of its loop (a square
// tried, or a row gone back up), Lookups of a tail table (a square of the
// leaf row that leaves the next row a free square), and the Ways those
// lookups compare.
type Work struct {
	Trips, Lookups, Ways uint64
}

// Add adds w2 to w.
func (w *Work) Add(w2 Work) {
	w.Trips += w2.Trips
	w.Lookups += w2.Lookups
	w.Ways += w2.Ways
}

// Count returns the solutions of the sub-board it, as the kernel's
// count_items does: it walks the free rows from it.Row down with a stack
// of the candidate sets of the rows above, the lowest set bit of each
// being the queen placed in its row, down to the constellation's stop
// row. There each square counts the ways of the tail table that fit the
// queens above, or, with no tail table, whether it leaves the last row a
// free square.
func (t *Twin) Count(it Item) uint64 { return t.search(it, nil) }

// Work returns what the kernel's search of it does.
func (t *Twin) Work(it Item) Work {
	var w Work
	t.search(it, &w)
	return w
}

// search is Count, which adds its work to w if w is not nil.
func (t *Twin) search(it Item, w *Work) uint64 {
	con := t.cons[conWords*int(it.Con):][:conWords]
	stop, inner, tail := con[1], con[2], con[5]
	border := uint64(con[6]) | uint64(con[7])<<32
	index, ways := t.index[con[3]:], t.ways[con[4]:]
	blocks, shifts := con[conBlocks:][:32], con[conShifts:][:32]
	var stack [32]uint32
	row, top := uint32(it.Row), uint32(it.Row)
	free, cols, ld, rd := it.Free, it.Cols, it.LD, it.RD
	var n uint64
	for {
		if w != nil {
			w.Trips++
		}
		if free == 0 {
			if row == top {
				return n
			}
			row--
			a := stack[row&31]
			bit := a & -a
			sh := shifts[row&31] & 63
			cols ^= bit
			ld = ld>>sh ^ uint64(bit)
			rd = rd<<sh ^ uint64(bit)<<rdOffset
			free = a & (a - 1)
			continue
		}
		bit := free & -free
		sh := shifts[row&31] & 63
		l, d := (ld|uint64(bit))<<sh, (rd|uint64(bit)<<rdOffset)>>sh
		if row == stop {
			free &= free - 1
			if tail != 0 {
				// The ways of the set left whose first queen stands on a
				// free square of the first row (look-ahead), from the
				// lowest such column's to the highest's.
				set := inner &^ (cols | bit)
				f0 := set &^ (uint32(l) | uint32(d>>rdOffset) | blocks[row&31])
				if f0 == 0 {
					continue
				}
				e := index[rank4(set)]
				c := uint32(e >> 32)
				lo := bits.OnesCount32(set & (f0&-f0 - 1))
				hi := bits.OnesCount32(set & (1<<(31-bits.LeadingZeros32(f0)) - 1))
				start, end := (c<<8)>>(8*lo)&0xff, c>>(8*hi)&0xff
				q := uint64(uint32(l)<<tailLD) | d&^0xffffffff | border
				for _, e := range ways[uint32(e)+start : uint32(e)+end] {
					if e&q == 0 {
						n++
					}
				}
				if w != nil {
					w.Lookups++
					w.Ways += uint64(end - start)
				}
			} else if ^(cols | bit | uint32(l) | uint32(d>>rdOffset) | blocks[row&31]) != 0 {
				n++ // the last row has a free square: a solution
			}
			continue
		}
		next := ^(cols | bit | uint32(l) | uint32(d>>rdOffset) | blocks[row&31])
		if next == 0 {
			free &= free - 1
			continue
		}
		stack[row&31] = free
		cols |= bit
		ld, rd = l, d
		row++
		free = next
	}
}

// CountAll returns the counts of items, as the kernel's output holds them.
func (t *Twin) CountAll(items []Item) []uint64 {
	out := make([]uint64, len(items))
	for i, it := range items {
		out[i] = t.Count(it)
	}
	return out
}
