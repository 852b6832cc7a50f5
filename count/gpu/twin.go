package gpu

import "encoding/binary"

// Twin is the kernel's search in Go, step for step: the same tables, the
// same items, the same stack of one candidate set per row, undone by
// shifting back. It is what the tests hold the kernel's algorithm to on a
// machine without a GPU, and what a GPU's counts are checked against item
// by item.
type Twin struct {
	rows []uint32 // EncodeRows, as words
}

// NewTwin returns the twin of the kernel over the rows table encoded
// (EncodeRows).
func NewTwin(rows []byte) *Twin {
	w := make([]uint32, len(rows)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(rows[4*i:])
	}
	return &Twin{rows: w}
}

// Count returns the solutions of the sub-board it, as the kernel's
// count_item does: it walks the free rows from it.Row down with a stack
// of the candidate sets of the rows above, the lowest set bit of each
// being the queen placed in its row, and counts in the second-to-last
// free row the queens that leave the last one a free square.
func (t *Twin) Count(it Item) uint64 {
	con := t.rows[conWords*int(it.Con):][:conWords]
	last := con[0] - 2 // the second-to-last free row
	var stack [32]uint32
	row, top := uint32(it.Row), uint32(it.Row)
	free, cols, ld, rd := it.Free, it.Cols, it.LD, it.RD
	var n uint64
	for {
		if free == 0 {
			if row == top {
				return n
			}
			row--
			a := stack[row&31]
			bit := a & -a
			sh := con[33+row&31] & 63
			cols ^= bit
			ld = ld>>sh ^ uint64(bit)
			rd = rd<<sh ^ uint64(bit)<<rdOffset
			free = a & (a - 1)
			continue
		}
		bit := free & -free
		sh := con[33+row&31] & 63
		l, d := (ld|uint64(bit))<<sh, (rd|uint64(bit)<<rdOffset)>>sh
		next := ^(cols | bit | uint32(l) | uint32(d>>rdOffset) | con[1+row&31])
		if row == last || next == 0 {
			if next != 0 {
				n++ // the last row has a free square: a solution
			}
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
