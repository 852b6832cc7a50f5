package input

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/phrase"
)

// maxLine bounds a line ReadPlacements reads.
const maxLine = 1 << 16

// ReadPlacements reads placements from r, one a line, in any of the forms
// nqueens.Parse reads ("4 6 1 5 2 0 7 3", "4,6,1,5,2,0,7,3", "[4, 6, ...]")
// or as the JSON objects of an NDJSON export (their "placement", checked
// against their "n"); blank lines are skipped. With format "leetcode" it
// reads JSON values instead, each a board as LeetCode 51 draws it (an
// array of rows such as ".Q..") or an array of boards, as the leetcode
// export writes. With format "grids" it reads boards drawn a row a line,
// Q for a queen and . or _ for an empty square (squares may be spaced),
// a blank line between two boards. A placement with two queens in one
// column is refused. It
// yields each placement, or an error naming the line (or the board) and
// what is wrong, after which it stops: a *FormatError for input written in
// another of these formats (a row of a grid read a board a line, say), and
// for a row of a grid, the square at fault.
func ReadPlacements(r io.Reader, format string) iter.Seq2[nqueens.Placement, error] {
	switch format {
	case "leetcode":
		return readGrids(r)
	case "grids":
		return readGridLines(r)
	}
	return func(yield func(nqueens.Placement, error) bool) {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 4096), maxLine)
		for line := 1; sc.Scan(); line++ {
			text := bytes.TrimSpace(sc.Bytes())
			if len(text) == 0 {
				continue
			}
			p, err := parseLine(text)
			if err != nil {
				yield(p, lineError(line, text, "columns", err))
				return
			}
			if !yield(p, nil) {
				return
			}
		}
		if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
			yield(nqueens.Placement{}, fmt.Errorf("a line is longer than %d bytes: not a placement", maxLine))
		} else if err != nil {
			yield(nqueens.Placement{}, err)
		}
	}
}

// parseLine reads one line of ReadPlacements.
func parseLine(text []byte) (nqueens.Placement, error) {
	if text[0] != '{' {
		p, ok := parseColumns(text)
		var err error
		if !ok {
			// Parse says what is wrong.
			p, err = nqueens.Parse(string(text))
		}
		if err == nil {
			err = p.CheckPermutation()
		}
		return p, err
	}
	var obj struct {
		N         *int  `json:"n"`
		Placement []int `json:"placement"`
	}
	if err := json.Unmarshal(text, &obj); err != nil {
		return nqueens.Placement{}, fmt.Errorf("not a JSON object of an export: %v", err)
	}
	p, err := nqueens.New(obj.Placement)
	switch {
	case obj.Placement == nil:
		return p, errors.New(`the object has no "placement"`)
	case err != nil:
		return p, err
	case obj.N != nil && *obj.N != p.N():
		return p, fmt.Errorf(`"n" is %d but "placement" has %d columns`, *obj.N, p.N())
	}
	return p, p.CheckPermutation()
}

// parseColumns reads the columns form of nqueens.Parse without
// allocating: decimal columns separated by spaces, tabs or commas,
// optionally in brackets. It reports false for anything else, or for a
// placement Parse would refuse, leaving the message to Parse.
func parseColumns(text []byte) (nqueens.Placement, bool) {
	if len(text) > 4*nqueens.MaxN*4 {
		return nqueens.Placement{}, false // Parse's limit
	}
	if len(text) > 1 && text[0] == '[' && text[len(text)-1] == ']' {
		text = text[1 : len(text)-1]
	}
	var cols [nqueens.MaxN]uint8
	n, c, inNum := 0, 0, false
	comma := true // a comma here would follow no column
	for _, b := range text {
		switch {
		case b >= '0' && b <= '9':
			if c = c*10 + int(b-'0'); c >= nqueens.MaxN || (inNum && c == int(b-'0')) {
				return nqueens.Placement{}, false // too large, or a leading zero
			}
			inNum, comma = true, false
		case b == ',' && comma && !inNum:
			return nqueens.Placement{}, false // two commas, or one first
		case b == ' ' || b == ',' || b == '\t':
			if b == ',' {
				comma = true
			}
			if inNum {
				if n == nqueens.MaxN {
					return nqueens.Placement{}, false
				}
				cols[n], n, c, inNum = uint8(c), n+1, 0, false
			}
		default:
			return nqueens.Placement{}, false
		}
	}
	if inNum {
		if n == nqueens.MaxN {
			return nqueens.Placement{}, false
		}
		cols[n], n = uint8(c), n+1
	} else if comma {
		return nqueens.Placement{}, false // a comma last
	}
	if n == 0 {
		return nqueens.Placement{}, false
	}
	for _, c := range cols[:n] {
		if int(c) >= n {
			return nqueens.Placement{}, false
		}
	}
	return nqueens.FromBytes(cols[:n]), true
}

// readGridLines reads the boards of ReadPlacements' grids format: rows a
// line, a blank line ending each board, at most nqueens.MaxN rows a board
// (the rows of a longer one are refused as they come).
func readGridLines(r io.Reader) iter.Seq2[nqueens.Placement, error] {
	return func(yield func(nqueens.Placement, error) bool) {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 4096), maxLine)
		var rows []string
		start := 0 // the line of rows[0]
		flush := func() bool {
			if len(rows) == 0 {
				return true
			}
			p, err := nqueens.Parse(strings.Join(rows, "/"))
			if err == nil {
				err = p.CheckPermutation()
			}
			rows = rows[:0]
			if err != nil {
				yield(p, fmt.Errorf("line %d: %w", start, err))
				return false
			}
			return yield(p, nil)
		}
		for line := 1; sc.Scan(); line++ {
			text := strings.TrimSpace(sc.Text())
			switch {
			case text == "":
				if !flush() {
					return
				}
			case strings.Trim(text, "Q._ \t") != "":
				yield(nqueens.Placement{}, lineError(line, []byte(text), "grids", nil))
				return
			case len(rows) == nqueens.MaxN:
				yield(nqueens.Placement{}, fmt.Errorf("line %d: a board has at most %d rows, and the one from line %d has more (a blank line ends a board)", line, nqueens.MaxN, start))
				return
			default:
				if len(rows) == 0 {
					start = line
				}
				rows = append(rows, text)
			}
		}
		if !flush() {
			return
		}
		if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
			yield(nqueens.Placement{}, fmt.Errorf("a line is longer than %d bytes: not a row of a board", maxLine))
		} else if err != nil {
			yield(nqueens.Placement{}, err)
		}
	}
}

// readGrids reads the JSON values of ReadPlacements' leetcode format, a
// board at a time: a document of any length is read in memory bounded by
// one board (at most nqueens.MaxN rows of at most nqueens.MaxN squares).
func readGrids(r io.Reader) iter.Seq2[nqueens.Placement, error] {
	return func(yield func(nqueens.Placement, error) bool) {
		g := gridScanner{r: bufio.NewReader(r)}
		fail := func(err error) {
			if fe, ok := err.(*FormatError); ok {
				fe.Where = fmt.Sprintf("value %d", g.value)
				yield(nqueens.Placement{}, fe)
				return
			}
			yield(nqueens.Placement{}, fmt.Errorf("value %d: %w", g.value, err))
		}
		for g.value = 1; ; g.value++ {
			c, err := g.next()
			if err == io.EOF {
				return
			} else if err != nil {
				fail(err)
				return
			}
			if c != '[' {
				fail(notBoards(c))
				return
			}
			switch c, err := g.next(); {
			case err != nil:
				fail(err)
				return
			case c == ']': // no boards
			case c == '"':
				g.r.UnreadByte()
				if !g.board(yield, 0) {
					return
				}
			case c == '[':
				for i := 1; ; i++ {
					if !g.board(yield, i) {
						return
					}
					c, err := g.next()
					if err != nil {
						fail(err)
						return
					} else if c == ']' {
						break
					} else if c != ',' {
						fail(fmt.Errorf("not JSON: want ',' or ']' after board %d", i))
						return
					}
					if c, err := g.next(); err != nil || c != '[' {
						fail(errNotBoards)
						return
					}
				}
			default:
				fail(errNotBoards)
				return
			}
		}
	}
}

// FormatError is ReadPlacements' error for input written in another of
// its formats than the one it reads: a row of a grid read a board a line,
// LeetCode's JSON read a board a line or as grids, a board a line or an
// export's object read as grids, a grid or a board a line read as
// LeetCode's JSON.
type FormatError struct {
	Where  string // the line or value, "line 3" or "value 1"
	What   string // what the input is, and what was read instead
	Format string // the format that reads it: "columns", "leetcode" or "grids"
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("%s: %s (format %s reads it)", e.Where, e.What, e.Format)
}

// The forms of input, as a FormatError words them.
const (
	boardLine = "a board a line"
	gridRow   = "a row of a grid"
	leetcode  = "LeetCode's JSON of boards"
)

// lineError returns the error of line, whose text did not read in format
// (columns or grids, with the error err where it has one): a *FormatError
// when the text is of another format, else, read as grids, the square at
// fault, and read as columns, err.
func lineError(line int, text []byte, format string, err error) error {
	where := fmt.Sprintf("line %d", line)
	read := boardLine
	if format == "grids" {
		read = gridRow
	}
	switch {
	case format == "columns" && isGridRow(text):
		return &FormatError{Where: where, What: fmt.Sprintf("%s is %s, not a board: a line holds one board", phrase.Quote(string(text)), gridRow), Format: "grids"}
	case isLeetCode(text):
		return &FormatError{Where: where, What: fmt.Sprintf("%s is %s, not %s", phrase.Quote(string(text)), leetcode, read), Format: "leetcode"}
	case format == "grids" && (text[0] == '{' || isColumns(text)):
		return &FormatError{Where: where, What: fmt.Sprintf("%s is %s, not %s", phrase.Quote(string(text)), boardLine, gridRow), Format: "columns"}
	case format == "grids":
		col := 0
		for _, r := range string(text) {
			switch r {
			case 'Q', '.', '_':
				col++
				continue
			case ' ', '\t':
				continue
			}
			return fmt.Errorf("%s: %s (column %d) is not a square of a grid: a row holds Q, . and _ alone, and a blank line ends a board", where, phrase.Quote(string(r)), col)
		}
	}
	return fmt.Errorf("%s: %w", where, err)
}

// isGridRow reports whether text is one row of a grid of more than one
// square: Q, . and _ alone, squares spaced or not, one of them Q. (A grid
// of several rows on one line has a Q in each.)
func isGridRow(text []byte) bool {
	squares := 0
	for _, b := range text {
		switch b {
		case 'Q', '.', '_':
			squares++
		case ' ', '\t':
		default:
			return false
		}
	}
	return squares > 1 && bytes.Count(text, []byte("Q")) == 1
}

// isLeetCode reports whether text begins as LeetCode's JSON does: an
// array of strings or of arrays.
func isLeetCode(text []byte) bool {
	rest, ok := bytes.CutPrefix(text, []byte("["))
	rest = bytes.TrimLeft(rest, " \t")
	return ok && len(rest) > 0 && (rest[0] == '"' || rest[0] == '[')
}

// isColumns reports whether text reads as a board a line.
func isColumns(text []byte) bool {
	_, err := parseLine(text)
	return err == nil
}

// errNotBoards is readGrids' error for a value of another shape.
var errNotBoards = errors.New(`want a board (an array of rows such as ".Q..") or an array of boards`)

// notBoards returns readGrids' error for a value that begins with c, not
// '[': a *FormatError for the first square of a grid or a column, else
// errNotBoards. The caller adds where the value is.
func notBoards(c byte) error {
	var is, format string
	switch {
	case c == 'Q' || c == '.' || c == '_':
		is, format = gridRow, "grids"
	case c >= '0' && c <= '9' || c == '{':
		is, format = boardLine, "columns"
	default:
		return errNotBoards
	}
	return &FormatError{What: fmt.Sprintf("%s begins %s, not %s", phrase.Quote(string(c)), is, leetcode), Format: format}
}

// gridScanner reads the JSON of LeetCode boards byte by byte.
type gridScanner struct {
	r     *bufio.Reader
	value int // the number of the value being read, from 1
}

// next returns the next byte that is not white space, or io.EOF where
// the input ends.
func (g *gridScanner) next() (byte, error) {
	for {
		c, err := g.r.ReadByte()
		if err != nil {
			return 0, err
		}
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return c, nil
		}
	}
}

// board reads one board, its opening '[' read already, and yields its
// placement or an error; i is the board's number in an array of boards, 0
// for a board alone. It reports whether to go on.
func (g *gridScanner) board(yield func(nqueens.Placement, error) bool, i int) bool {
	where := fmt.Sprintf("value %d", g.value)
	if i > 0 {
		where += fmt.Sprintf(", board %d", i)
	}
	fail := func(err error) bool {
		yield(nqueens.Placement{}, fmt.Errorf("%s: %w", where, err))
		return false
	}
	var rows []string
	for {
		c, err := g.next()
		if err != nil {
			return fail(unexpected(err))
		}
		if c == ']' && len(rows) == 0 {
			break
		}
		if c != '"' {
			return fail(errNotBoards)
		}
		if len(rows) == nqueens.MaxN {
			return fail(fmt.Errorf("a board has at most %d rows", nqueens.MaxN))
		}
		row, err := g.row()
		if err != nil {
			return fail(err)
		}
		rows = append(rows, row)
		if c, err = g.next(); err != nil {
			return fail(unexpected(err))
		} else if c == ']' {
			break
		} else if c != ',' {
			return fail(errors.New("not JSON: want ',' or ']' after a row"))
		}
	}
	p, err := nqueens.ParseGrid(rows)
	if err == nil {
		err = p.CheckPermutation()
	}
	if err != nil {
		return fail(err)
	}
	return yield(p, nil)
}

// row reads a row's string, its opening quote read already: at most
// nqueens.MaxN squares, with no escapes.
func (g *gridScanner) row() (string, error) {
	var b [nqueens.MaxN]byte
	for k := 0; ; k++ {
		c, err := g.r.ReadByte()
		switch {
		case err != nil:
			return "", unexpected(err)
		case c == '"':
			return string(b[:k]), nil
		case c == '\\':
			return "", errors.New(`a row is made of "." and "Q" alone, with no escapes`)
		case k == nqueens.MaxN:
			return "", fmt.Errorf("a row is longer than %d squares", nqueens.MaxN)
		}
		b[k] = c
	}
}

// unexpected words a read error inside a value.
func unexpected(err error) error {
	if err == io.EOF {
		return errors.New("not JSON: the input ends inside a board")
	}
	return err
}

// ParsePlacement reads one placement written in one of ReadPlacements'
// forms: in format "" (or "columns") the columns or an NDJSON export's
// object, in format "leetcode" one board as a JSON array of rows. Like
// ReadPlacements it refuses two queens in one column. The error says what
// is wrong, without naming a line.
func ParsePlacement(s, format string) (nqueens.Placement, error) {
	text := bytes.TrimSpace([]byte(s))
	if format != "leetcode" && bytes.ContainsAny(text, "\r\n") {
		return nqueens.Placement{}, errors.New("one board, on one line")
	}
	if format != "leetcode" {
		if len(text) == 0 {
			return nqueens.Placement{}, errors.New("no columns")
		}
		return parseLine(text)
	}
	var rows []string
	if err := json.Unmarshal(text, &rows); err != nil {
		return nqueens.Placement{}, errors.New(`want one board: a JSON array of rows such as ".Q.."`)
	}
	p, err := nqueens.ParseGrid(rows)
	if err == nil {
		err = p.CheckPermutation()
	}
	return p, err
}
