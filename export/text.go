package export

import (
	"io"
	"strconv"

	"github.com/nqueens/nqueens"
)

// Text writes each layout as a board drawn in text under a two-line
// heading naming its class, placement, orbit and symmetry, with a blank
// line between boards:
//
//	n=4 class 1 of 1: 1 3 0 2
//	orbit 2, symmetric under the quarter turn (90°)
//	┌───┬───┬───┬───┐
//	│   │ ♛ │   │   │
//	├───┼───┼───┼───┤
//	...
//	└───┴───┴───┴───┘
//
// The board is drawn with box-drawing characters and ♛ for a queen, or
// with ASCII set, 'Q' for a queen and '.' for an empty square separated by
// spaces. Each board is written to w as soon as it is drawn.
type Text struct {
	// ASCII draws the board with Q and . instead of box-drawing characters.
	ASCII bool
	// Classes, when not 0, is how many classes n has: each heading then
	// says "class 3 of 12" rather than "class 3".
	Classes uint64

	base
}

// NewText returns a Text writer to w that draws with box-drawing
// characters; set ASCII and Classes before the first Write. The caller
// must call Close.
func NewText(w io.Writer) *Text { return &Text{base: newBase(w)} }

// Write draws one layout and writes it. It returns the first error of w.
func (t *Text) Write(l nqueens.Layout) error {
	buf := t.buf
	if t.count > 0 {
		buf = append(buf, '\n')
	}
	t.count++
	buf = append(buf, "n="...)
	buf = strconv.AppendInt(buf, int64(l.N()), 10)
	buf = append(buf, " class "...)
	buf = strconv.AppendInt(buf, l.Class, 10)
	if t.Classes > 0 {
		buf = strconv.AppendUint(append(buf, " of "...), t.Classes, 10)
	}
	buf = append(buf, ": "+l.Placement.String()+"\norbit "...)
	buf = strconv.AppendInt(buf, int64(l.Symmetry.Orbit()), 10)
	buf = append(buf, ", "+l.Symmetry.Words()+"\n"...)
	var a [nqueens.MaxN]int32
	if cols := columns(&a, l.Placement); t.ASCII {
		buf = appendGrid(buf, cols, " ")
	} else {
		buf = appendBox(buf, cols)
	}
	t.buf = buf
	if t.put() == nil {
		t.err = t.w.Flush()
	}
	return t.err
}

// Close returns the first error met while writing, if any.
func (t *Text) Close() error { return t.finish("") }

// appendBox appends the board of cols drawn with box-drawing characters,
// a queen as ♛.
func appendBox(buf []byte, cols []int32) []byte {
	n := len(cols)
	rule := func(left, mid, right string) {
		buf = append(buf, left...)
		for c := range n {
			if c > 0 {
				buf = append(buf, mid...)
			}
			buf = append(buf, "───"...)
		}
		buf = append(buf, right+"\n"...)
	}
	rule("┌", "┬", "┐")
	for r := range n {
		if r > 0 {
			rule("├", "┼", "┤")
		}
		for c := range n {
			if int(cols[r]) == c {
				buf = append(buf, "│ ♛ "...)
			} else {
				buf = append(buf, "│   "...)
			}
		}
		buf = append(buf, "│\n"...)
	}
	rule("└", "┴", "┘")
	return buf
}
