package gpu

import (
	"encoding/binary"
	"fmt"

	"github.com/nqueens/nqueens/count"
)

// Item is a work item of the kernel: a sub-board of a constellation, its
// border queens and the queens of its first free rows placed, whose
// solutions the kernel counts on one thread. The items of a constellation
// partition its solutions, so that their counts add up to
// Constellation.Solutions.
type Item struct {
	// Con is the index of the item's constellation in the list the items
	// were made from.
	Con int32
	// Row is the free row the item's search starts in (the number of free
	// rows placed above it), at most the constellation's free rows
	// minus 2.
	Row uint8
	// Free is the set of free squares of that row, never empty; Cols the
	// columns the queens placed above take.
	Free, Cols uint32
	// LD and RD are the diagonals those queens take, as that row holds
	// them, kept in 64 bits so that the search can undo a row by shifting
	// back: bit c of LD is column c, going down-left (bit c moves to c+1
	// each row); bit c+32 of RD is column c, going down-right. No queen
	// of a board of 32 or less moves a bit past 63 or below 0.
	LD, RD uint64
}

// rdOffset is where column 0 of the down-right diagonals sits in
// Item.RD.
const rdOffset = 32

// Split is how a list of constellations is cut into items: Rows free
// rows placed in each (fewer where a constellation has not enough). It
// is recorded with a count's state, so it is part of what a resumed
// count checks.
type Split struct{ Rows int }

// String returns "R rows placed".
func (s Split) String() string { return fmt.Sprintf("%d rows placed", s.Rows) }

// SplitFor returns the split of the constellations of a board of n: few
// pre-placed rows, enough for the persistent threads of a large GPU (an
// H100 runs about 270,000) to share the work evenly. Counted on this
// version's constellations, 2 rows give 178,509 items for n = 16,
// 1,199,335 for n = 20 and 2,584,219 for n = 22, and 3 rows 25,681,317
// for n = 22. No GPU has timed these choices yet (docs/gpu.md).
func SplitFor(n int) Split {
	switch {
	case n <= 13:
		return Split{Rows: 1}
	case n <= 21:
		return Split{Rows: 2}
	default:
		return Split{Rows: 3}
	}
}

// rows returns the number of free rows an item of a constellation with r
// free rows places: s.Rows, fewer if r-2 is smaller, and -1 if the
// constellation has no item (r < 2: the host counts it).
func (s Split) rows(r int) int {
	if r < 2 {
		return -1
	}
	return min(s.Rows, r-2)
}

// Items returns the work items of cs, in order of constellation and,
// within one, of the squares of the rows placed (lowest column first),
// and appends them to dst. A constellation that Direct counts has no
// item, and one whose rows placed leave no square free below has none
// either: it has no solution.
func (s Split) Items(dst []Item, cs []count.Constellation) []Item {
	for i, c := range cs {
		dst = s.items(dst, int32(i), c.Rows())
	}
	return dst
}

// items appends the items of one constellation, its index con, its rows r.
func (s Split) items(dst []Item, con int32, r count.Rows) []Item {
	depth := s.rows(r.Count)
	if depth < 0 || r.First == 0 {
		return dst
	}
	var walk func(row int, free, cols uint32, ld, rd uint64)
	walk = func(row int, free, cols uint32, ld, rd uint64) {
		if row == depth {
			dst = append(dst, Item{Con: con, Row: uint8(row), Free: free, Cols: cols, LD: ld, RD: rd})
			return
		}
		st := r.Steps[row]
		for f := free; f != 0; f &= f - 1 {
			bit := f & -f
			c, l, d := cols|bit, (ld|uint64(bit))<<st.Shift, (rd|uint64(bit)<<rdOffset)>>st.Shift
			if next := ^(c | uint32(l) | uint32(d>>rdOffset) | st.Block); next != 0 {
				walk(row+1, next, c, l, d)
			}
		}
	}
	walk(0, r.First, 0, 0, 0)
	return dst
}

// Direct returns the solutions of a constellation the kernel does not
// search: one with fewer than 2 free rows or none free in the first. It
// returns false for the others.
func (s Split) Direct(c count.Constellation) (uint64, bool) {
	r := c.Rows()
	switch {
	case r.Count == 0:
		return 1, true
	case r.First == 0:
		return 0, true
	case s.rows(r.Count) < 0:
		return 1, true // one free row, with a free square
	}
	return 0, false
}

// Sizes of the kernel's tables, in 32-bit words: a constellation's rows
// (conWords, see Tables) and an item (itemWords, see EncodeItems).
const (
	conWords  = 72
	itemWords = 8
)

// EncodeItems returns items as the kernel reads them: itemWords
// little-endian 32-bit words each, Con, Row, Free, Cols, then LD and RD
// low word first.
func EncodeItems(items []Item) []byte {
	out := make([]byte, 4*itemWords*len(items))
	for i, it := range items {
		w := out[4*itemWords*i:]
		for j, v := range [itemWords]uint32{uint32(it.Con), uint32(it.Row), it.Free, it.Cols,
			uint32(it.LD), uint32(it.LD >> 32), uint32(it.RD), uint32(it.RD >> 32)} {
			binary.LittleEndian.PutUint32(w[4*j:], v)
		}
	}
	return out
}

// DecodeItems reads items written by EncodeItems, and returns an error
// if data is not a whole number of items.
func DecodeItems(data []byte) ([]Item, error) {
	if len(data)%(4*itemWords) != 0 {
		return nil, fmt.Errorf("decode items: %d bytes is not a whole number of %d-byte items", len(data), 4*itemWords)
	}
	out := make([]Item, len(data)/(4*itemWords))
	for i := range out {
		var v [itemWords]uint32
		for j := range v {
			v[j] = binary.LittleEndian.Uint32(data[4*(itemWords*i+j):])
		}
		out[i] = Item{Con: int32(v[0]), Row: uint8(v[1]), Free: v[2], Cols: v[3],
			LD: uint64(v[4]) | uint64(v[5])<<32, RD: uint64(v[6]) | uint64(v[7])<<32}
	}
	return out, nil
}

// DecodeCounts reads the kernel's output: one little-endian 64-bit count
// per item, and returns an error if data does not hold want of them.
func DecodeCounts(data []byte, want int) ([]uint64, error) {
	if len(data) != 8*want {
		return nil, fmt.Errorf("decode counts: %d bytes, want %d for %d items", len(data), 8*want, want)
	}
	out := make([]uint64, want)
	for i := range out {
		out[i] = binary.LittleEndian.Uint64(data[8*i:])
	}
	return out, nil
}
