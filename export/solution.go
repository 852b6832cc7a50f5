package export

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// Solutions: one bare solution of the n-queens puzzle, a column per row
// with no class, as nqueens.Construct builds it for any n up to
// nqueens.MaxConstructN. Its JSON and CSV are the objects of the class
// exports minus the class fields (class, orbit and symmetry):
//
//	{"n":8,"placement":[1,3,5,7,2,0,6,4]}
//
//	n,placement
//	8,1 3 5 7 2 0 6 4

// WriteSolution writes the solution whose queen in row r is in column
// cols[r] to w in f, one of SolutionFormats. It streams: a solution of
// millions of columns is written in pieces through a buffer, and
// WriteSolution holds no copy of it. It returns an error for an empty
// solution, for a board f does not draw (f.Check), or the first error of
// w. It does not check that the queens are non-attacking (see
// nqueens.CheckColumns). It panics if f is not one of SolutionFormats.
func (f Format) WriteSolution(w io.Writer, cols []int32) error {
	if !slices.Contains(SolutionFormats, f) {
		panic(fmt.Sprintf("export: %v is not a format of solutions", f))
	}
	n := len(cols)
	if n == 0 {
		return errors.New("write solution: no columns")
	}
	if err := f.Check(n); err != nil {
		return err
	}
	if f == FormatSVG {
		title := fmt.Appendf(nil, "a solution of n=%d: ", n)
		return writeBoardSVG(w, cols, string(appendCols(title, cols, ' ')))
	}
	b := newBase(w)
	switch f {
	case FormatText:
		b.putCols(cols, ' ')
	case FormatJSON, FormatNDJSON:
		b.buf = strconv.AppendInt(append(b.buf, `{"n":`...), int64(n), 10)
		b.buf = append(b.buf, `,"placement":[`...)
		b.putCols(cols, ',')
		b.buf = append(b.buf, "]}"...)
	case FormatCSV:
		b.buf = strconv.AppendInt(append(b.buf, "n,placement\n"...), int64(n), 10)
		b.buf = append(b.buf, ',')
		b.putCols(cols, ' ')
	case FormatLeetCode:
		b.buf = appendBoard(b.buf, cols)
	case FormatGrid:
		b.buf = appendGrid(b.buf, cols, "")
		b.put()
		return b.finish("")
	}
	b.put()
	return b.finish("\n")
}

// putCols appends cols separated by sep and writes them, a few thousand
// at a time; the last piece stays in b.buf.
func (b *base) putCols(cols []int32, sep byte) {
	const piece = 4096
	for len(cols) > piece {
		b.buf = append(appendCols(b.buf, cols[:piece], sep), sep)
		b.put()
		cols = cols[piece:]
	}
	b.buf = appendCols(b.buf, cols, sep)
}
