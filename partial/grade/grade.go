// Package grade scores answers to N-Queens puzzles (partial boards, as
// package partial/puzzle makes them). An answer scores 1 when it is a
// solution of n that keeps every given queen of its puzzle: any such
// solution, whether the puzzle has one completion or many. Otherwise it
// scores 0, with the first reason found, checked in this order:
//
//	could not read answer: ...                   not in any form below
//	7 rows, want 8 / row 3 has 7 squares, want 8  the board's shape
//	7 queens, want 8                             the number of queens
//	given queen at row 3 column 4 moved to column 1 (or: removed)
//	two queens in row 2 (columns 1 and 4)
//	queens at rows 2 and 5 share column 3
//	queens at rows 2 and 5 share a diagonal
//
// Rows and columns are numbered from 0, the top row and the left column
// 0, as the given queens of the puzzle formats are, whatever form the
// answer was written in; of two queens that attack each other, the pair
// named is the one whose lower queen is highest, then whose upper queen is.
//
// An answer is read in one of these forms (Form), found from the answer
// itself:
//
//   - grid: text, a row a line (or rows separated by /), Q for a queen and
//     _ or . for an empty square, squares separated by spaces or not:
//     "_ Q _ _\n_ _ _ Q\nQ _ _ _\n_ _ Q _" or ".Q..\n...Q\nQ...\n..Q.";
//   - leetcode: an array of the rows as strings, LeetCode 51's board
//     [".Q..","...Q","Q...","..Q."], also inside an array of that one
//     board, and either one written as text (in JSON, or with Python's
//     single quotes);
//   - columns0 and columns1: the column of each row's queen, top row
//     first, an array of whole numbers [1,3,0,2] or text "1 3 0 2", from 0
//     or from 1. A solution has a queen in the first and in the last
//     column, so a 0 means from 0 and an n means from 1. Where neither
//     appears (every column from 1 to n-1) neither reading is a solution:
//     the one that keeps more of the given queens is taken, from 0 when
//     they keep as many.
//
// Check grades one answer; Files grades a file of answers against a file
// of puzzles, both JSON lines, as nqueens grade does.
package grade

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/partial"
)

// Form is the form an answer was read in: Grid, LeetCode, Columns0 or
// Columns1 (see the package comment).
type Form string

// The forms of an answer.
const (
	Grid     Form = "grid"
	LeetCode Form = "leetcode"
	Columns0 Form = "columns0"
	Columns1 Form = "columns1"
)

// Verdict is the grade of one answer: Score 1 for a solution that keeps
// the puzzle's given queens, else 0 and the Reason; Form is the form the
// answer was read in, empty when it could not be read.
type Verdict struct {
	Score  int    `json:"score"`
	Form   Form   `json:"form,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// maxText is the longest answer text Check reads: a board of nqueens.MaxN
// in the roomiest form it reads, a row of quoted, spaced squares a line,
// with room to spare.
const maxText = 8 * nqueens.MaxN * nqueens.MaxN

// Check grades answer against the puzzle, a board of given queens. The
// answer is a string (text in any form), a []string (the rows of a
// leetcode board), a []int (columns, from 0 or from 1) or a JSON value
// (json.RawMessage: a string, an array of strings, an array of one such
// array, or an array of whole numbers). Anything else, and an answer of
// more than 8 × 32² bytes, could not be read: a Verdict of 0 that says
// so. Check does not check the puzzle: if its given queens attack each
// other, no answer scores 1.
func Check(puzzle partial.Board, answer any) Verdict {
	var (
		a   read
		err error
	)
	switch v := answer.(type) {
	case string:
		a, err = readText(v, true)
	case []string:
		a, err = readRows(v)
	case []int:
		a, err = columns(v), nil
	case json.RawMessage:
		a, err = readJSON(v, true)
	case nil:
		err = errors.New("no answer")
	default:
		err = fmt.Errorf("a %T is not an answer: want a string, []string, []int or json.RawMessage", answer)
	}
	if err != nil {
		return Verdict{Reason: "could not read answer: " + err.Error()}
	}
	if a.form != "" {
		return judge(puzzle, a.form, a.board)
	}
	return judgeColumns(puzzle, a.cols)
}

// read is an answer as read, before it is judged: a board and the form it
// was written in, or (form "") columns whose base is not yet known.
type read struct {
	form  Form
	board board
	cols  []int
}

// board is a board as an answer draws it, which may be of any shape.
type board struct {
	// widths holds the squares of each row, top row first.
	widths []int
	// queens holds the squares of the queens, [row, column], by row and
	// in each row by column.
	queens [][2]int
}

// columns returns the columns cols, their base to be found.
func columns(cols []int) read { return read{cols: cols} }

// readText reads an answer written as text: JSON or Python's list of rows
// or of columns (when top, text may hold such a list: not inside one),
// whole numbers (columns), or a grid.
func readText(s string, top bool) (read, error) {
	if len(s) > maxText {
		return read{}, fmt.Errorf("%d bytes, more than a board of %d", len(s), nqueens.MaxN)
	}
	t := strings.TrimSpace(s)
	switch {
	case t == "":
		return read{}, errors.New("empty answer")
	case top && strings.HasPrefix(t, "["):
		a, err := readJSON([]byte(t), false)
		if err != nil && strings.Contains(t, "'") {
			a, err = readJSON([]byte(strings.ReplaceAll(t, "'", `"`)), false)
		}
		return a, err
	case strings.ContainsAny(t, "0123456789"):
		return readColumnsText(t)
	}
	var rows []string
	for line := range strings.Lines(t) {
		for row := range strings.SplitSeq(line, "/") {
			if row = strings.TrimSpace(row); row != "" {
				rows = append(rows, row)
			}
		}
	}
	a, err := readRows(rows)
	a.form = Grid
	return a, err
}

// readColumnsText reads columns written as whole numbers separated by
// spaces or commas.
func readColumnsText(t string) (read, error) {
	fields := strings.FieldsFunc(t, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == '\n' || r == '\r' })
	if len(fields) > 2*nqueens.MaxN {
		return read{}, fmt.Errorf("%d columns, more than a board of %d has", len(fields), nqueens.MaxN)
	}
	cols := make([]int, len(fields))
	for i, f := range fields {
		c, err := strconv.Atoi(f)
		if err != nil {
			return read{}, fmt.Errorf("%s is not a column: want whole numbers, a row's column each, or a grid of Q and _", phrase.Quote(f))
		}
		cols[i] = c
	}
	return columns(cols), nil
}

// readRows reads a board's rows, each a string of squares: Q, _ or .,
// spaces between them ignored.
func readRows(rows []string) (read, error) {
	if len(rows) > 2*nqueens.MaxN {
		return read{}, fmt.Errorf("%d rows, more than a board of %d has", len(rows), nqueens.MaxN)
	}
	a := read{form: LeetCode, board: board{widths: make([]int, len(rows))}}
	for r, row := range rows {
		square := 0
		for _, ch := range row {
			switch ch {
			case ' ', '\t', '\r':
				continue
			case 'Q':
				a.board.queens = append(a.board.queens, [2]int{r, square})
			case '_', '.':
			default:
				return read{}, fmt.Errorf("row %d: %s is not a square: want Q for a queen, or _ or . for an empty square", r, phrase.Quote(string(ch)))
			}
			if square++; square > 2*nqueens.MaxN {
				return read{}, fmt.Errorf("row %d has more than %d squares", r, 2*nqueens.MaxN)
			}
		}
		a.board.widths[r] = square
	}
	return a, nil
}

// readJSON reads an answer given as a JSON value: a string (read as text,
// which may hold a list when top), an array of rows, an array of one
// board, or an array of columns.
func readJSON(raw []byte, top bool) (read, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > maxText {
		return read{}, fmt.Errorf("%d bytes, more than a board of %d", len(raw), nqueens.MaxN)
	}
	if len(raw) == 0 {
		return read{}, errors.New("no answer")
	}
	switch raw[0] {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return read{}, fmt.Errorf("not a JSON string: %v", err)
		}
		return readText(s, top)
	case '[':
	case 'n':
		return read{}, errors.New("no answer (null)")
	case '{':
		return read{}, errors.New("an object is not an answer: want a board as text, an array of rows, or an array of columns")
	default:
		return read{}, fmt.Errorf("%s is not an answer: want a board as text, an array of rows, or an array of columns", phrase.Quote(string(raw)))
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return read{}, fmt.Errorf("not a JSON array: %v", err)
	}
	if len(items) == 0 {
		return read{}, errors.New("an empty array")
	}
	switch first := bytes.TrimSpace(items[0]); {
	case len(first) > 0 && first[0] == '[':
		if len(items) != 1 {
			return read{}, fmt.Errorf("an array of %d boards: want one", len(items))
		}
		return readJSON(first, false)
	case len(first) > 0 && first[0] == '"':
		rows := make([]string, len(items))
		for i, it := range items {
			if err := json.Unmarshal(it, &rows[i]); err != nil {
				return read{}, fmt.Errorf("item %d of an array of rows is not a string", i)
			}
		}
		return readRows(rows)
	}
	if len(items) > 2*nqueens.MaxN {
		return read{}, fmt.Errorf("%d columns, more than a board of %d has", len(items), nqueens.MaxN)
	}
	cols := make([]int, len(items))
	for i, it := range items {
		c, err := strconv.Atoi(string(bytes.TrimSpace(it)))
		if err != nil {
			return read{}, fmt.Errorf("item %d, %s, is not a column: want an array of whole numbers, a row's column each", i, phrase.Quote(string(it)))
		}
		cols[i] = c
	}
	return columns(cols), nil
}

// judgeColumns judges columns from 0 or from 1, whichever they are (see
// the package comment).
func judgeColumns(puzzle partial.Board, cols []int) Verdict {
	n := puzzle.N()
	zero, top := false, false
	for _, c := range cols {
		switch {
		case c < 0 || c > n:
			return Verdict{Reason: fmt.Sprintf("could not read answer: column %d is off the board of %d, from 0 (0..%d) or from 1 (1..%d)", c, n, n-1, n)}
		case c == 0:
			zero = true
		case c == n:
			top = true
		}
	}
	switch {
	case zero && top:
		return Verdict{Reason: fmt.Sprintf("could not read answer: columns 0 and %d both appear, so they are neither from 0 (0..%d) nor from 1 (1..%d)", n, n-1, n)}
	case zero:
		return judge(puzzle, Columns0, fromColumns(cols, n, 0))
	case top:
		return judge(puzzle, Columns1, fromColumns(cols, n, 1))
	}
	from0, from1 := fromColumns(cols, n, 0), fromColumns(cols, n, 1)
	if kept(puzzle, from1) > kept(puzzle, from0) {
		return judge(puzzle, Columns1, from1)
	}
	return judge(puzzle, Columns0, from0)
}

// fromColumns returns the board of n that holds a queen in column
// cols[r] - base of each row r.
func fromColumns(cols []int, n, base int) board {
	b := board{widths: make([]int, len(cols)), queens: make([][2]int, len(cols))}
	for r, c := range cols {
		b.widths[r] = n
		b.queens[r] = [2]int{r, c - base}
	}
	return b
}

// kept returns how many given queens of the puzzle b holds.
func kept(puzzle partial.Board, b board) int {
	k := 0
	for _, q := range b.queens {
		if q[0] < puzzle.N() {
			if c, ok := puzzle.Col(q[0]); ok && c == q[1] {
				k++
			}
		}
	}
	return k
}

// judge grades b, read in form f.
func judge(puzzle partial.Board, f Form, b board) Verdict {
	n := puzzle.N()
	wrong := func(format string, args ...any) Verdict {
		return Verdict{Form: f, Reason: fmt.Sprintf(format, args...)}
	}
	if len(b.widths) != n {
		return wrong("%s, want %d", phrase.Plural(len(b.widths), "row"), n)
	}
	for r, w := range b.widths {
		if w != n {
			return wrong("row %d has %s, want %d", r, phrase.Plural(w, "square"), n)
		}
	}
	if len(b.queens) != n {
		return wrong("%s, want %d", phrase.Plural(len(b.queens), "queen"), n)
	}
	// The queens of row r are b.queens[start[r]:start[r+1]].
	var start [nqueens.MaxN + 1]int
	for _, q := range b.queens {
		start[q[0]+1]++
	}
	for r := range n {
		start[r+1] += start[r]
	}
	for r := range n {
		c, ok := puzzle.Col(r)
		if !ok {
			continue
		}
		row := b.queens[start[r]:start[r+1]]
		if !slices.Contains(row, [2]int{r, c}) {
			if len(row) > 0 {
				return wrong("given queen at row %d column %d moved to column %d", r, c, row[0][1])
			}
			return wrong("given queen at row %d column %d removed", r, c)
		}
	}
	for r := range n {
		if start[r+1]-start[r] > 1 {
			return wrong("two queens in row %d (columns %d and %d)", r, b.queens[start[r]][1], b.queens[start[r]+1][1])
		}
	}
	// Each row holds one queen, b.queens[r]: the first pair that attacks,
	// by its lower queen, then its upper one.
	for r2 := range n {
		c2 := b.queens[r2][1]
		for r1 := range r2 {
			switch c1 := b.queens[r1][1]; {
			case c1 == c2:
				return wrong("queens at rows %d and %d share column %d", r1, r2, c1)
			case r2-r1 == c2-c1 || r2-r1 == c1-c2:
				return wrong("queens at rows %d and %d share a diagonal", r1, r2)
			}
		}
	}
	return Verdict{Score: 1, Form: f}
}
