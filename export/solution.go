package export

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
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

// SolutionFormats lists the names WriteSolution accepts, in the order the
// CLI documents them:
//
//   - text: the 0-based column of the queen in each row, top row first,
//     separated by spaces on one line;
//   - json and ndjson: the object {"n":8,"placement":[...]} on one line
//     (JSON's object minus class, orbit and symmetry);
//   - csv: the header "n,placement", then n and the columns separated by
//     spaces (CSV's row minus class, orbit and symmetry);
//   - leetcode: the board in LeetCode 51's form, ["..Q.",...];
//   - grid: the board a row a line, 'Q' for the queen and '.' elsewhere;
//   - svg: the board as an image (see WriteBoardSVG).
//
// Each ends with a newline.
var SolutionFormats = []string{"text", "json", "ndjson", "csv", "leetcode", "grid", "svg"}

// MaxDrawN is the largest board WriteSolution draws in the formats that
// draw every square (see Draws): n*n of them, a megabyte at n = 1000.
const MaxDrawN = 1000

// Draws reports whether a solution format draws every square of the board
// (leetcode, grid, svg), so that it stops at n = MaxDrawN.
func Draws(format string) bool {
	switch strings.ToLower(format) {
	case "leetcode", "grid", "svg":
		return true
	}
	return false
}

// SolutionFormat returns the name of one of SolutionFormats as it is
// spelled there: names are not case-sensitive ("JSON" is "json"). It
// returns an error naming the formats allowed for an unknown name.
func SolutionFormat(name string) (string, error) { return lookup(name, SolutionFormats) }

// WriteSolution writes the solution whose queen in row r is in column
// cols[r] to w in format (see SolutionFormats and SolutionFormat). It
// streams: a solution of millions of columns is written in pieces through
// a buffer, and WriteSolution holds no copy of it. It returns an error for
// an unknown format, an empty solution, a board larger than MaxDrawN in a
// format that draws it, or the first error of w. It does not check that
// the queens are non-attacking (see nqueens.CheckColumns).
func WriteSolution(w io.Writer, format string, cols []int32) error {
	format, err := SolutionFormat(format)
	if err != nil {
		return err
	}
	n := len(cols)
	if n == 0 {
		return errors.New("write solution: no columns")
	}
	if Draws(format) && n > MaxDrawN {
		return fmt.Errorf("format %s draws n*n squares, up to n=%d, not n=%d", format, MaxDrawN, n)
	}
	if format == "svg" {
		ints := make([]int, n)
		title := fmt.Appendf(nil, "a solution of n=%d: ", n)
		for r, c := range cols {
			ints[r] = int(c)
		}
		return WriteBoardSVG(w, ints, string(appendCols(title, cols, ' ')))
	}
	b := newBase(w)
	switch format {
	case "text":
		b.putCols(cols, ' ')
	case "json", "ndjson":
		b.buf = strconv.AppendInt(append(b.buf, `{"n":`...), int64(n), 10)
		b.buf = append(b.buf, `,"placement":[`...)
		b.putCols(cols, ',')
		b.buf = append(b.buf, "]}"...)
	case "csv":
		b.buf = strconv.AppendInt(append(b.buf, "n,placement\n"...), int64(n), 10)
		b.buf = append(b.buf, ',')
		b.putCols(cols, ' ')
	case "leetcode":
		b.buf = appendBoard(b.buf, cols)
	case "grid":
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
