package partial

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"
	"unicode/utf8"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/phrase"
)

// maxLine is the longest line, in bytes, that Parse and Boards read. A
// board of 32 written in the roomiest form ("_ Q _ ..." with a space
// between squares) takes 63 bytes a row; maxLine leaves room for any
// spacing a person would use.
const maxLine = 4096

// allowed describes the two forms, for error messages.
const allowed = "a board is columns (0..n-1, or _ or . for an empty row) or a grid of Q for a queen and _ or . for an empty square"

// rowError is an error about one row of a grid, so that Boards can name
// the line it came from.
type rowError struct {
	row int
	err error
}

func (e *rowError) Error() string { return fmt.Sprintf("row %d: %v", e.row, e.err) }
func (e *rowError) Unwrap() error { return e.err }

// Parse reads one board in either form of the package comment: columns
// ("1 _ 5 _ _ _ _ 3", also with commas or in brackets), or a grid, rows
// separated by newlines or / ("_ Q _ _ / _ _ _ Q / ..."). A single line
// with no Q and no / is the columns form, so "_ _ _ _" is the empty board
// of 4. Parse checks the shape: n in 1..nqueens.MaxN, every column on the
// board, n squares in each of n rows, at most one queen a row; it does not
// check that the queens do not attack each other (see Board.Check). Errors
// are one line naming the row and what is allowed.
func Parse(s string) (Board, error) {
	if len(s) > maxLine*nqueens.MaxN {
		return Board{}, fmt.Errorf("board of %d bytes is too long", len(s))
	}
	t := strings.TrimSpace(s)
	if t == "" {
		return Board{}, errors.New("empty board: " + allowed)
	}
	if !utf8.ValidString(t) {
		return Board{}, errors.New("not UTF-8 text: " + allowed)
	}
	if strings.ContainsAny(t, "\n/") {
		var rows []string
		for line := range strings.Lines(t) {
			for row := range strings.SplitSeq(line, "/") {
				rows = append(rows, row)
			}
		}
		return parseGrid(rows)
	}
	if strings.ContainsRune(t, 'Q') {
		return parseGrid([]string{t})
	}
	return parseColumns(t)
}

// parseColumns reads the columns form from one line.
func parseColumns(t string) (Board, error) {
	if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
		t = t[1 : len(t)-1]
	}
	fields := strings.FieldsFunc(t, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == '\r' })
	if len(fields) == 0 {
		return Board{}, errors.New("no rows: " + allowed)
	}
	if err := nqueens.CheckN(len(fields)); err != nil {
		return Board{}, fmt.Errorf("%d rows: %w", len(fields), err)
	}
	n := len(fields)
	b := Board{n: uint8(n)}
	for r, f := range fields {
		if f == "_" || f == "." {
			continue
		}
		c, err := nqueens.ParseWhole(f)
		if err != nil {
			return Board{}, &rowError{r, fmt.Errorf("%s is not a column: want 0..%d, or _ or . for an empty row%s", phrase.Quote(f), n-1, nqueens.WholeHint(f))}
		}
		if c >= uint64(n) {
			return Board{}, &rowError{r, fmt.Errorf("column %d is off the board of %d: want 0..%d", c, n, n-1)}
		}
		b.cols[r] = uint8(c + 1)
	}
	return b, nil
}

// parseGrid reads the grid form, one row a string.
func parseGrid(rows []string) (Board, error) {
	if err := nqueens.CheckN(len(rows)); err != nil {
		return Board{}, fmt.Errorf("grid of %d rows: %w", len(rows), err)
	}
	n := len(rows)
	b := Board{n: uint8(n)}
	for r, row := range rows {
		squares, c := 0, -1
		for _, ch := range row {
			switch ch {
			case ' ', '\t', '\r', '\n':
				continue
			case 'Q':
				if c >= 0 {
					return Board{}, &rowError{r, errors.New("two queens in one row: a row holds at most one")}
				}
				c = squares
			case '_', '.':
			default:
				return Board{}, &rowError{r, fmt.Errorf("%s is not a square: want Q for a queen, or _ or . for an empty square", phrase.Quote(string(ch)))}
			}
			squares++
		}
		if squares != n {
			return Board{}, &rowError{r, fmt.Errorf("%d squares in a grid of %d rows: a board of n has n rows of n squares", squares, n)}
		}
		if c >= 0 {
			b.cols[r] = uint8(c + 1)
		}
	}
	return b, nil
}

// ParseError is an error of Boards: the input line it is about (from 1)
// and what is wrong.
type ParseError struct {
	Line int
	Err  error
}

func (e *ParseError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *ParseError) Unwrap() error { return e.Err }

// FormError is the error, inside a *ParseError, of a line that Boards
// reads in one form and that belongs to the other: a row of a grid, with
// a queen, read as a board (Lines), or a line that is no row of a grid,
// read as one (Grids). Text is the line, trimmed.
type FormError struct {
	Text string
	Form Form
}

func (e *FormError) Error() string {
	if e.Form == Lines {
		return fmt.Sprintf("%s is a row of a grid, not a board: a line holds one board", phrase.Quote(e.Text))
	}
	if r, col, ok := e.square(); ok {
		return fmt.Sprintf("%s (column %d) is not a square of a grid: a row of a grid holds Q, _ and . alone, and a blank line ends a grid", phrase.Quote(string(r)), col)
	}
	return fmt.Sprintf("%s is not a row of a grid: a row of a grid holds Q, _ and . alone, and a blank line ends a grid", phrase.Quote(e.Text))
}

// square finds, in a line read as a row of a grid, the first character
// that is no square, and its column from 0 (the squares before it), so
// that the error names it however long the row is; ok is false when it
// is a digit, as in a board written as columns, which is named whole.
func (e *FormError) square() (r rune, col int, ok bool) {
	for _, r := range e.Text {
		switch r {
		case 'Q', '_', '.':
			col++
		case ' ', '\t':
		default:
			return r, col, r < '0' || r > '9'
		}
	}
	return 0, 0, false
}

// Input is one board Boards read and the line of the input it starts on,
// from 1.
type Input struct {
	Board Board
	Line  int
}

// Form says how Boards reads its input: a board a line, or grids of
// several lines.
type Form int

const (
	// Lines reads one board a line: columns ("1 _ 5 _ _ _ _ 3", where a
	// line of _ alone is the empty board), or a grid on one line with /
	// between its rows. A line that is a row of a grid alone is refused,
	// pointing to Grids.
	Lines Form = iota
	// Grids reads grids of several lines, a row a line, separated by
	// blank lines: "_ Q _ _" then "_ _ _ Q" and so on.
	Grids
)

// formNames are the names of the forms, as String writes them and
// ParseForm reads them.
var formNames = [...]string{Lines: "lines", Grids: "grids"}

// String returns the form's name: "lines" or "grids".
func (f Form) String() string {
	if f >= 0 && int(f) < len(formNames) {
		return formNames[f]
	}
	return fmt.Sprintf("Form(%d)", int(f))
}

// ParseForm reads the name of a Form, as String writes it: "lines" or
// "grids", in any case.
func ParseForm(name string) (Form, error) {
	for f, s := range formNames {
		if strings.EqualFold(name, s) {
			return Form(f), nil
		}
	}
	return 0, fmt.Errorf("input form %s: want lines (a board a line) or grids (grids of several lines, separated by blank lines)", phrase.Quote(name))
}

// Boards returns an iterator over the boards of r, in input order, read in
// the given form (see Lines and Grids); blank lines are skipped. A board
// that does not parse is yielded as a *ParseError naming the line at fault
// and what is allowed (a *FormError for a line of the other form), and the
// iteration goes on; so is a grid of more
// than nqueens.MaxN rows, whose rows are dropped as they come, so that
// memory stays bounded; a line longer than MaxLine or a read error is
// yielded as a *ParseError and ends it. The iterator is single-use: it
// consumes r.
func Boards(r io.Reader, form Form) iter.Seq2[Input, error] {
	return func(yield func(Input, error) bool) {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 4096), maxLine)
		var block []string // the rows of a grid being read
		start := 0         // the line of block[0]
		flush := func() bool {
			if len(block) == 0 {
				return true
			}
			b, err := parseGrid(block)
			rows := block
			block = block[:0]
			if err != nil {
				line := start
				var re *rowError
				if errors.As(err, &re) && len(rows) > 1 {
					line += re.row
					err = re.err
				}
				return yield(Input{}, &ParseError{Line: line, Err: err})
			}
			return yield(Input{Board: b, Line: start}, nil)
		}
		line := 0
		skipping := false // dropping the rows of a grid that is too long
		for sc.Scan() {
			line++
			text := strings.TrimSpace(sc.Text())
			if text == "" {
				skipping = false
				if !flush() {
					return
				}
				continue
			}
			if form == Lines {
				b, err := Parse(text)
				if err != nil && gridRow(text) && strings.Contains(text, "Q") {
					err = &FormError{Text: text, Form: Lines}
				}
				if err != nil {
					if !yield(Input{}, &ParseError{Line: line, Err: err}) {
						return
					}
					continue
				}
				if !yield(Input{Board: b, Line: line}, nil) {
					return
				}
				continue
			}
			switch {
			case skipping:
				// The rest of a grid too long to be one.
			case !gridRow(text):
				block, skipping = block[:0], true
				err := &FormError{Text: text, Form: Grids}
				if !yield(Input{}, &ParseError{Line: line, Err: err}) {
					return
				}
			case len(block) == nqueens.MaxN:
				block = block[:0]
				skipping = true
				err := fmt.Errorf("a grid has at most %d rows, and the one from line %d has more (a blank line ends a grid)", nqueens.MaxN, start)
				if !yield(Input{}, &ParseError{Line: line, Err: err}) {
					return
				}
			default:
				if len(block) == 0 {
					start = line
				}
				block = append(block, text)
			}
		}
		if !flush() {
			return
		}
		if err := sc.Err(); err != nil {
			if errors.Is(err, bufio.ErrTooLong) {
				err = fmt.Errorf("longer than %d bytes: %s", maxLine, allowed)
			}
			yield(Input{}, &ParseError{Line: line + 1, Err: err})
		}
	}
}

// gridRow reports whether a line may be a row of a grid: only Q, _, . and
// spaces.
func gridRow(s string) bool {
	return strings.Trim(s, "Q_. \t") == ""
}
