package export

import (
	"bufio"
	"fmt"
	"io"
	"slices"
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
	cols := slices.Repeat([]int{-1}, n)
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
// ends the document (a JSON array's "]", "[]" for no puzzle; a CSV header
// alone for no puzzle); the caller must call Close and check its error.
type PuzzleWriter struct{ framed[Puzzle] }

// NewPuzzles returns a writer of puzzles in format (see PuzzleFormats) to
// w. It returns an error naming the formats allowed for an unknown name.
func NewPuzzles(format string, w io.Writer) (*PuzzleWriter, error) {
	format, err := PuzzleFormat(format)
	if err != nil {
		return nil, err
	}
	pw := &PuzzleWriter{framed[Puzzle]{base: newBase(w)}}
	f := &pw.framed
	switch format {
	case "text":
		f.sep, f.record = "\n", func(buf []byte, p Puzzle) []byte { return appendPuzzleText(buf, p, f.count) }
	case "json":
		f.open, f.sep, f.close, f.empty, f.record = "[\n", ",\n", "\n]\n", "[]\n", appendPuzzleObject
	case "ndjson":
		f.record = func(buf []byte, p Puzzle) []byte { return append(appendPuzzleObject(buf, p), '\n') }
	case "csv":
		f.open, f.empty, f.record = PuzzleCSVHeader+"\n", PuzzleCSVHeader+"\n", appendPuzzleCSV
	}
	return pw, nil
}

// appendPuzzleText appends puzzle k (from 1) in the text format.
func appendPuzzleText(buf []byte, p Puzzle, k int64) []byte {
	buf = fmt.Appendf(buf, "puzzle %d: n=%d, %s, difficulty %d\n", k, p.N, nqueens.Plural(len(p.Given), "given queen"), p.Difficulty)
	for _, c := range rowColumns(p.N, p.Given) {
		for k := range p.N {
			if k > 0 {
				buf = append(buf, ' ')
			}
			if k == c {
				buf = append(buf, 'Q')
			} else {
				buf = append(buf, '_')
			}
		}
		buf = append(buf, '\n')
	}
	buf = append(append(buf, "solution: "...), p.Solution.String()...)
	if p.Class > 0 {
		return fmt.Appendf(buf, " (class %d, symmetry %s)\n", p.Class, p.Symmetry)
	}
	return fmt.Appendf(buf, " (symmetry %s)\n", p.Symmetry)
}

// appendPuzzleObject appends the JSON object of a puzzle.
func appendPuzzleObject(buf []byte, p Puzzle) []byte {
	buf = fmt.Appendf(buf, `{"n":%d,"given":`, p.N)
	buf = appendGiven(buf, p.Given)
	buf = append(buf, `,"solution":[`...)
	var a [nqueens.MaxN]int32
	buf = append(appendCols(buf, columns(&a, p.Solution), ','), ']')
	if p.Class > 0 {
		buf = fmt.Appendf(buf, `,"class":%d`, p.Class)
	}
	return fmt.Appendf(buf, `,"symmetry":"%s","givens":%d,"difficulty":%d}`, p.Symmetry, len(p.Given), p.Difficulty)
}

// appendPuzzleCSV appends the CSV row of a puzzle.
func appendPuzzleCSV(buf []byte, p Puzzle) []byte {
	buf = fmt.Appendf(buf, "%d,%d,%d,", p.N, len(p.Given), p.Difficulty)
	if p.Class > 0 {
		buf = strconv.AppendInt(buf, p.Class, 10)
	}
	buf = fmt.Appendf(buf, ",%s,", p.Symmetry)
	buf = append(appendColumnsForm(buf, p.N, p.Given), ',')
	return append(append(buf, p.Solution.String()...), '\n')
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
// that writes each line through to w as it comes, so that a reader of a
// stream of boards sees each board's completions at once.
func NewCompletions(format string, w io.Writer) (Writer, error) {
	format, err := CompletionFormat(format)
	if err != nil || format != "text" {
		return New(format, w)
	}
	return &framed[nqueens.Layout]{base: base{w: bufio.NewWriter(w), through: true}, record: func(buf []byte, l nqueens.Layout) []byte {
		var a [nqueens.MaxN]int32
		return append(appendCols(buf, columns(&a, l.Placement), ' '), '\n')
	}}, nil
}
