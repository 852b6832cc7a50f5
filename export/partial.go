package export

import (
	"fmt"
	"io"
	"strconv"

	"github.com/nqueens/nqueens"
)

// Partial boards: the records of nqueens complete and nqueens puzzle. A
// partial board is written as its given queens, [row, column] pairs,
// 0-based, in increasing order of rows.

// Completed is what complete reports of one board: its size, its given
// queens, how many solutions extend it and the nodes of the search that
// counted them, and, when asked for, the classes of those solutions.
type Completed struct {
	N     int
	Given [][2]int
	Count uint64
	Nodes uint64
	// Classes, if not nil, lists the classes of the completions in
	// increasing order of class number, each with how many of the
	// completions are in it.
	Classes []ClassCount
}

// ClassCount is one class of the completions of a board and how many of
// them it holds.
type ClassCount struct {
	Class    int64
	Symmetry nqueens.Symmetry
	Count    uint64
}

// WriteCompletedJSON writes c as one JSON object on one line:
//
//	{"n":8,"given":[[0,1],[7,3]],"count":3,"nodes":76}
//
// with "classes":[{"class":4,"symmetry":"none","count":1},...] after
// nodes when c.Classes is not nil. It returns the error of w.
func WriteCompletedJSON(w io.Writer, c Completed) error {
	buf := fmt.Appendf(nil, `{"n":%d,"given":`, c.N)
	buf = appendGiven(buf, c.Given)
	buf = fmt.Appendf(buf, `,"count":%d,"nodes":%d`, c.Count, c.Nodes)
	if c.Classes != nil {
		buf = append(buf, `,"classes":[`...)
		for i, k := range c.Classes {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = fmt.Appendf(buf, `{"class":%d,"symmetry":"%s","count":%d}`, k.Class, k.Symmetry, k.Count)
		}
		buf = append(buf, ']')
	}
	buf = append(buf, "}\n"...)
	_, err := w.Write(buf)
	return err
}

// WriteCompletedText writes c as a line naming the board in columns form
// (the column of each row's queen, _ for an empty row), the count and the
// nodes, and then a line for each class when c.Classes is not nil:
//
//	1 _ _ _ _ _ _ 3: 3 completions (76 nodes)
//	  class 4 (none): 1 completion
//
// It returns the error of w.
func WriteCompletedText(w io.Writer, c Completed) error {
	buf := appendColumnsForm(nil, c.N, c.Given)
	buf = fmt.Appendf(buf, ": %s (%d nodes)\n", nqueens.Plural(c.Count, "completion"), c.Nodes)
	for _, k := range c.Classes {
		buf = fmt.Appendf(buf, "  class %d (%s): %s\n", k.Class, k.Symmetry, nqueens.Plural(k.Count, "completion"))
	}
	_, err := w.Write(buf)
	return err
}

// appendGiven appends the given queens as a JSON array of [row,column]
// pairs.
func appendGiven(buf []byte, given [][2]int) []byte {
	buf = append(buf, '[')
	for i, g := range given {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = fmt.Appendf(buf, "[%d,%d]", g[0], g[1])
	}
	return append(buf, ']')
}

// appendColumnsForm appends the board of n with the given queens in
// columns form: each row's column, or _, separated by spaces.
func appendColumnsForm(buf []byte, n int, given [][2]int) []byte {
	cols := rowColumns(n, given)
	for r, c := range cols {
		if r > 0 {
			buf = append(buf, ' ')
		}
		if c < 0 {
			buf = append(buf, '_')
		} else {
			buf = strconv.AppendInt(buf, int64(c), 10)
		}
	}
	return buf
}

// rowColumns returns the column of each row's given queen, -1 for none.
func rowColumns(n int, given [][2]int) []int {
	cols := make([]int, n)
	for r := range cols {
		cols[r] = -1
	}
	for _, g := range given {
		cols[g[0]] = g[1]
	}
	return cols
}

// Puzzle is one puzzle as the puzzle formats write it: a partial board
// with exactly one completion, its solution, the solution's class (0 when
// not known) and symmetry, and its difficulty.
type Puzzle struct {
	N          int
	Given      [][2]int
	Solution   nqueens.Placement
	Class      int64
	Symmetry   nqueens.Symmetry
	Difficulty uint64
}

// PuzzleFormats lists the names NewPuzzles accepts:
//
//   - text: each puzzle as a heading, the board drawn a row a line with Q
//     for a given queen and _ for an empty square, separated by spaces,
//     and the solution; a blank line between puzzles;
//   - json: an array of objects, one a line;
//   - ndjson: the same objects, one a line, with no array;
//   - csv: a header row (PuzzleCSVHeader), then a row a puzzle.
//
// The object is, with class left out when it is not known:
//
//	{"n":8,"given":[[3,7],[5,6],[6,2]],"solution":[3,0,4,7,1,6,2,5],"class":5,"symmetry":"none","givens":3,"difficulty":23}
var PuzzleFormats = []string{"text", "json", "ndjson", "csv"}

// PuzzleCSVHeader is the first row of the csv puzzle format: board is the
// puzzle in columns form (each row's column, or _ for an empty row,
// separated by spaces), solution the columns separated by spaces, class
// empty when not known.
const PuzzleCSVHeader = "n,givens,difficulty,class,symmetry,board,solution"

// PuzzleFormat returns the name of one of PuzzleFormats as it is spelled
// there (names are not case-sensitive), or an error naming those allowed.
func PuzzleFormat(name string) (string, error) { return lookup(name, PuzzleFormats) }

// PuzzleWriter writes puzzles in one of PuzzleFormats. Like the layout
// writers it follows encoding/csv: Write adds one puzzle, Close flushes and
// ends the document; the caller must call Close and check its error.
type PuzzleWriter struct {
	base
	format string
}

// NewPuzzles returns a writer of puzzles in format (see PuzzleFormats) to
// w. It returns an error naming the formats allowed for an unknown name.
func NewPuzzles(format string, w io.Writer) (*PuzzleWriter, error) {
	format, err := PuzzleFormat(format)
	if err != nil {
		return nil, err
	}
	return &PuzzleWriter{base: newBase(w), format: format}, nil
}

// Write adds one puzzle.
func (pw *PuzzleWriter) Write(p Puzzle) error {
	first := pw.count == 0
	pw.count++
	switch pw.format {
	case "text":
		if !first {
			pw.buf = append(pw.buf, '\n')
		}
		pw.buf = fmt.Appendf(pw.buf, "puzzle %d: n=%d, %s, difficulty %d\n", pw.count, p.N, nqueens.Plural(len(p.Given), "given queen"), p.Difficulty)
		for _, c := range rowColumns(p.N, p.Given) {
			for k := range p.N {
				if k > 0 {
					pw.buf = append(pw.buf, ' ')
				}
				if k == c {
					pw.buf = append(pw.buf, 'Q')
				} else {
					pw.buf = append(pw.buf, '_')
				}
			}
			pw.buf = append(pw.buf, '\n')
		}
		pw.buf = append(pw.buf, "solution: "...)
		pw.buf = append(pw.buf, p.Solution.String()...)
		if p.Class > 0 {
			pw.buf = fmt.Appendf(pw.buf, " (class %d, symmetry %s)\n", p.Class, p.Symmetry)
		} else {
			pw.buf = fmt.Appendf(pw.buf, " (symmetry %s)\n", p.Symmetry)
		}
	case "json", "ndjson":
		if pw.format == "json" {
			if first {
				pw.buf = append(pw.buf, "[\n"...)
			} else {
				pw.buf = append(pw.buf, ",\n"...)
			}
		}
		pw.buf = fmt.Appendf(pw.buf, `{"n":%d,"given":`, p.N)
		pw.buf = appendGiven(pw.buf, p.Given)
		pw.buf = append(pw.buf, `,"solution":[`...)
		var a [nqueens.MaxN]int32
		pw.buf = appendCols(pw.buf, columns(&a, p.Solution), ',')
		pw.buf = append(pw.buf, ']')
		if p.Class > 0 {
			pw.buf = fmt.Appendf(pw.buf, `,"class":%d`, p.Class)
		}
		pw.buf = fmt.Appendf(pw.buf, `,"symmetry":"%s","givens":%d,"difficulty":%d}`, p.Symmetry, len(p.Given), p.Difficulty)
		if pw.format == "ndjson" {
			pw.buf = append(pw.buf, '\n')
		}
	case "csv":
		if first {
			pw.buf = append(pw.buf, PuzzleCSVHeader+"\n"...)
		}
		pw.buf = fmt.Appendf(pw.buf, "%d,%d,%d,", p.N, len(p.Given), p.Difficulty)
		if p.Class > 0 {
			pw.buf = strconv.AppendInt(pw.buf, p.Class, 10)
		}
		pw.buf = fmt.Appendf(pw.buf, ",%s,", p.Symmetry)
		pw.buf = appendColumnsForm(pw.buf, p.N, p.Given)
		pw.buf = append(pw.buf, ',')
		pw.buf = append(pw.buf, p.Solution.String()...)
		pw.buf = append(pw.buf, '\n')
	}
	return pw.put()
}

// Close ends the document (a JSON array's "]", "[]" for no puzzle; a CSV
// header alone for no puzzle) and flushes.
func (pw *PuzzleWriter) Close() error {
	switch {
	case pw.format == "json" && pw.count == 0:
		return pw.finish("[]\n")
	case pw.format == "json":
		return pw.finish("\n]\n")
	case pw.format == "csv" && pw.count == 0:
		return pw.finish(PuzzleCSVHeader + "\n")
	}
	return pw.finish("")
}

// CompletionFormats are the formats of a list of completions (nqueens
// complete --list): text, one placement a line as its columns, and the
// layout formats (Formats).
var CompletionFormats = append([]string{"text"}, Formats...)

// CompletionFormat returns the name of one of CompletionFormats, not
// case-sensitive, or an error naming them.
func CompletionFormat(name string) (string, error) { return lookup(name, CompletionFormats) }

// NewCompletions returns a writer of completions in format (see
// CompletionFormats) to w: for the layout formats, New's; for text, one
// that writes each line through to w as it comes, unbuffered, so that a
// reader of a stream of boards sees each board's completions at once.
func NewCompletions(format string, w io.Writer) (Writer, error) {
	format, err := CompletionFormat(format)
	if err != nil || format != "text" {
		return New(format, w)
	}
	return &lines{w: w}, nil
}

// lines writes each layout's placement as its columns, a line each.
type lines struct {
	w   io.Writer
	buf []byte
	err error
}

func (l *lines) Write(lay nqueens.Layout) error {
	var a [nqueens.MaxN]int32
	l.buf = append(appendCols(l.buf[:0], columns(&a, lay.Placement), ' '), '\n')
	if l.err == nil {
		_, l.err = l.w.Write(l.buf)
	}
	return l.err
}

func (l *lines) Close() error { return l.err }
