// Package nqueens holds the shared vocabulary of the N-Queens catalog: the
// placement of n queens on an n x n board, its symmetry class, the layout
// record that the store and the exporters exchange, and the known solution
// counts. It does no I/O.
//
// The work itself lives in sub-packages: enumerate (the search), canonical
// (the symmetry group), store (the SQLite catalog) and export (writers of
// JSON, NDJSON, CSV, LeetCode grids, SVG, HTML and Parquet). The command is
// cmd/nqueens.
package nqueens

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/internal/phrase"
)

// MaxN is the largest board size any part of nqueens accepts: the search
// keeps a row's columns in one 32-bit word.
const MaxN = 32

// CheckN reports whether n is a board size nqueens can work with, 1..MaxN.
// The error names the bad value and the range allowed.
func CheckN(n int) error {
	if n < 1 || n > MaxN {
		return fmt.Errorf("n must be between 1 and %d, got %d", MaxN, n)
	}
	return nil
}

// Placement is an arrangement of n queens, one per row: Col(r) is the
// 0-based column of the queen in row r, top row first. It is a comparable
// value (a fixed array and its size), so it can be a map key and copies
// never alias. The zero Placement has n = 0 and is not a valid board.
//
// A Placement built by New, Parse or the search always has one queen per
// row and every column in 0..n-1; whether the queens attack each other is a
// separate question answered by Valid.
type Placement struct {
	n    uint8
	cols [MaxN]uint8
}

// New returns the placement whose row r holds a queen in column cols[r].
// It returns an error if len(cols) is outside 1..MaxN or a column is
// outside 0..len(cols)-1. It does not check that the queens are
// non-attacking; see Valid.
func New(cols []int) (Placement, error) {
	var p Placement
	if err := CheckN(len(cols)); err != nil {
		return p, fmt.Errorf("placement: %w", err)
	}
	p.n = uint8(len(cols))
	for r, c := range cols {
		if c < 0 || c >= len(cols) {
			return Placement{}, fmt.Errorf("placement: column %d in row %d is outside 0..%d", c, r, len(cols)-1)
		}
		p.cols[r] = uint8(c)
	}
	return p, nil
}

// MustNew is like New but panics on error. It is meant for tests and
// fixed tables.
func MustNew(cols ...int) Placement {
	p, err := New(cols)
	if err != nil {
		panic(err)
	}
	return p
}

// FromBytes returns the placement whose row r holds a queen in column
// cols[r]. It trusts its input: the caller (the search) guarantees that
// 1 <= len(cols) <= MaxN and that every column is below len(cols).
func FromBytes(cols []uint8) Placement {
	var p Placement
	p.n = uint8(len(cols))
	copy(p.cols[:], cols)
	return p
}

// N returns the size of the board, 0 for the zero Placement.
func (p Placement) N() int { return int(p.n) }

// Col returns the column of the queen in row r. It panics if r is not in
// 0..N()-1.
func (p Placement) Col(r int) int {
	if r < 0 || r >= int(p.n) {
		panic(fmt.Sprintf("nqueens: row %d out of range 0..%d", r, int(p.n)-1))
	}
	return int(p.cols[r])
}

// Cols returns the columns of the queens, row by row, in a new slice the
// caller owns.
func (p Placement) Cols() []int {
	out := make([]int, p.n)
	for r := range out {
		out[r] = int(p.cols[r])
	}
	return out
}

// Bytes returns the columns of the queens, row by row, in a new slice the
// caller owns.
func (p Placement) Bytes() []uint8 {
	return append([]uint8(nil), p.cols[:p.n]...)
}

// Compare compares two placements lexicographically by their column
// sequences, the shorter one first when one is a prefix of the other. The
// result is -1, 0 or +1.
func (p Placement) Compare(q Placement) int {
	m := min(p.n, q.n)
	for i := range m {
		if p.cols[i] != q.cols[i] {
			if p.cols[i] < q.cols[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case p.n < q.n:
		return -1
	case p.n > q.n:
		return 1
	}
	return 0
}

// Valid reports whether p is a solution: one queen in every row and column
// and no two queens on a diagonal. The error names the first pair of
// queens that attack each other (see Attacking).
func (p Placement) Valid() error {
	if p.n == 0 {
		return errors.New("empty placement")
	}
	for r := range int(p.n) {
		if c := int(p.cols[r]); c >= int(p.n) {
			return fmt.Errorf("row %d: column %d outside the board", r, c)
		}
	}
	if r1, r2, ok := p.Attacking(); ok {
		return fmt.Errorf("queens at row %d column %d and row %d column %d attack each other", r1, p.cols[r1], r2, p.cols[r2])
	}
	return nil
}

// Attacking returns the rows r1 < r2 of the first pair of queens of p that
// attack each other (on one column or diagonal), the pair whose lower
// queen comes first, and true; or false if no two do. Columns off the
// board are not checked (see Valid).
func (p Placement) Attacking() (r1, r2 int, ok bool) {
	var cols, diag, anti uint64
	for r := range int(p.n) {
		c := int(p.cols[r])
		d, a := uint(r+c), uint(r-c+MaxN)
		if cols&(1<<c) != 0 || diag&(1<<d) != 0 || anti&(1<<a) != 0 {
			for r0 := range r {
				c0 := int(p.cols[r0])
				if c0 == c || r0+c0 == r+c || r0-c0 == r-c {
					return r0, r, true
				}
			}
		}
		cols |= 1 << c
		diag |= 1 << d
		anti |= 1 << a
	}
	return 0, 0, false
}

// String returns the columns as decimal numbers separated by single spaces,
// "1 3 0 2" for a board of 4. Parse reads it back.
func (p Placement) String() string {
	var b strings.Builder
	b.Grow(3 * int(p.n))
	for r := range int(p.n) {
		if r > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(int(p.cols[r])))
	}
	return b.String()
}

// Parse reads a placement written as 0-based columns, row by row, separated
// by spaces or commas and optionally enclosed in brackets: "1 3 0 2",
// "1,3,0,2" and "[1, 3, 0, 2]" are the same board. It also reads a board
// drawn as a grid, one Q a row and '.' or '_' for an empty square, its rows
// separated by '/' (".Q../...Q/Q.../..Q.", squares may be spaced: "_ Q _
// _ / ...") or by spaces (".Q.. ...Q Q... ..Q."). It checks the shape
// (1..MaxN rows, every column on the board) but not that the queens are
// non-attacking; see Valid. Its errors say what is wrong in one sentence,
// without repeating s.
func Parse(s string) (Placement, error) {
	const maxLen = 4 * MaxN * 4
	if len(s) > maxLen {
		return Placement{}, fmt.Errorf("input of %d bytes is too long for a board", len(s))
	}
	t := strings.TrimSpace(s)
	if strings.ContainsAny(t, "Q.") || strings.Contains(t, "_") {
		return parseGridText(t)
	}
	if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
		t = t[1 : len(t)-1]
	}
	var fields []string
	for part := range strings.SplitSeq(t, ",") {
		f := strings.Fields(part)
		if len(f) == 0 && strings.Contains(t, ",") {
			return Placement{}, errors.New("a comma with no column before or after it: columns are separated by one comma or by spaces")
		}
		fields = append(fields, f...)
	}
	n := len(fields)
	switch {
	case n == 0:
		return Placement{}, errors.New("no columns")
	case n > MaxN:
		return Placement{}, fmt.Errorf("%d columns, at most %d allowed", n, MaxN)
	}
	cols := make([]int, n)
	for i, f := range fields {
		c, err := parseColumn(f)
		switch {
		case err != nil:
			return Placement{}, fmt.Errorf("%s (row %d) is not a column: columns are whole numbers from 0 to n-1%s", phrase.Quote(f), i, WholeHint(f))
		case c >= n:
			return Placement{}, fmt.Errorf("%d columns make a board of n = %d, whose columns run from 0 to %d: %d (row %d) is off the board", n, n, n-1, c, i)
		}
		cols[i] = c
	}
	return New(cols)
}

// parseGridText reads the grid forms of Parse.
func parseGridText(t string) (Placement, error) {
	var rows []string
	if strings.Contains(t, "/") {
		for row := range strings.SplitSeq(t, "/") {
			rows = append(rows, strings.Join(strings.Fields(row), ""))
		}
	} else {
		rows = strings.Fields(t)
	}
	for i, row := range rows {
		rows[i] = strings.ReplaceAll(row, "_", ".")
	}
	return ParseGrid(rows)
}

// digits are the base-32 digits of Key, in increasing byte order so that
// comparing keys byte by byte compares placements lexicographically.
const digits = "0123456789abcdefghijklmnopqrstuv"

// Key returns the placement as a string of N() base-32 digits (0-9, then
// a-v), one per row: "1302" for the board "1 3 0 2", "0a..." for a column
// of 10. Keys compare byte by byte in the same order as Compare, which makes
// them the catalog's storage form. ParseKey reads them back.
func (p Placement) Key() string {
	var buf [MaxN]byte
	for r := range int(p.n) {
		buf[r] = digits[p.cols[r]]
	}
	return string(buf[:p.n])
}

// AppendKey appends p.Key() to b and returns the extended buffer.
func (p Placement) AppendKey(b []byte) []byte {
	for r := range int(p.n) {
		b = append(b, digits[p.cols[r]])
	}
	return b
}

// ParseKey reads a placement written by Key. It checks the shape like Parse.
func ParseKey(key string) (Placement, error) {
	if len(key) == 0 || len(key) > MaxN {
		return Placement{}, fmt.Errorf("parse key %q: want 1..%d digits", key, MaxN)
	}
	var p Placement
	p.n = uint8(len(key))
	for r := range len(key) {
		c := strings.IndexByte(digits, key[r])
		if c < 0 || c >= len(key) {
			return Placement{}, fmt.Errorf("parse key %q: digit %q in row %d is not a column in 0..%d", key, key[r], r, len(key)-1)
		}
		p.cols[r] = uint8(c)
	}
	return p, nil
}

// Grid returns the board as rows of text, top row first: 'Q' for the queen
// and '.' for every other square, the form LeetCode 51 uses.
func (p Placement) Grid() []string {
	rows := make([]string, p.n)
	line := make([]byte, p.n)
	for r := range rows {
		for c := range line {
			line[c] = '.'
		}
		line[p.cols[r]] = 'Q'
		rows[r] = string(line)
	}
	return rows
}

// CheckPermutation returns an error if two queens of p share a column,
// naming the column and the rows: a solution has one queen in each.
func (p Placement) CheckPermutation() error {
	var seen [MaxN]uint8 // row+1 of the queen seen in each column
	for r := range int(p.n) {
		c := p.cols[r]
		if seen[c] != 0 {
			return fmt.Errorf("column %d is in rows %d and %d: a placement has one queen in each column", c, seen[c]-1, r)
		}
		seen[c] = uint8(r + 1)
	}
	return nil
}

// ParseGrid reads a board drawn as rows of text, top row first, 'Q' for
// the queen of the row and '.' for each other square, the form LeetCode 51
// uses and Grid writes: every row as long as there are rows, with one
// queen. It does not check that the queens are non-attacking; see Valid.
func ParseGrid(rows []string) (Placement, error) {
	if err := CheckN(len(rows)); err != nil {
		return Placement{}, fmt.Errorf("grid: %d rows: %w", len(rows), err)
	}
	cols := make([]int, len(rows))
	for r, row := range rows {
		if len(row) != len(rows) {
			return Placement{}, fmt.Errorf("grid: row %d is %s, %d squares long: want %d", r, phrase.Quote(row), len(row), len(rows))
		}
		if strings.Count(row, "Q") != 1 || strings.Count(row, ".") != len(row)-1 {
			return Placement{}, fmt.Errorf("grid: row %d is %s: want one Q and the rest '.'", r, phrase.Quote(row))
		}
		cols[r] = strings.IndexByte(row, 'Q')
	}
	return New(cols)
}

// parseColumn reads a column of a placement as ParseWhole reads whole
// numbers; the caller checks that it is on the board.
func parseColumn(s string) (int, error) {
	c, err := ParseWhole(s)
	if err == nil && c > math.MaxInt32 {
		err = ErrTooLarge
	}
	return int(c), err
}
