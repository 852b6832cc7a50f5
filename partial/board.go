// Package partial owns partial boards: an n x n board with queens given in
// some rows and the other rows empty, and the solutions that extend it (its
// completions). Package partial/puzzle makes puzzles of them.
//
// A Board is written in one of two forms (Parse reads both, Boards reads
// many from a stream):
//
//   - columns: one entry per row, top row first, the 0-based column of the
//     row's queen or _ (or .) for an empty row, separated by spaces or
//     commas: "1 _ 5 _ _ _ _ 3" is a board of 8 with queens in rows 0, 2
//     and 7;
//   - grid: the rows of the board, top first, separated by newlines or /,
//     each with one square per column, Q for a queen and _ or . for an
//     empty square, squares optionally separated by spaces:
//     "_ Q _ _ / _ _ _ _ / _ _ _ _ / _ _ Q _" or ".Q../..../..../..Q.".
//
// Completions and CountCompletions search the empty rows only, with a
// bitmask search like package enumerate's: the given queens' columns and
// diagonals are masks of each empty row, fixed before the search starts,
// and the search steps from one empty row to the next, so a board with k
// givens costs at most what n-k queens on the remaining columns do.
//
// The search stops soon after its context is cancelled (CountContext,
// ClassesOf), and CountUpTo stops at a number of completions, which is
// what a puzzle maker asks again and again.
package partial

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens"
)

// Board is a partial placement on an n x n board: each row holds one
// queen or none. It is a comparable value (a fixed array and its size), so
// it can be a map key and copies never alias. The zero Board has n = 0 and
// is not a valid board.
//
// A Board built by Empty, FromPlacement, Parse or Boards has n in
// 1..nqueens.MaxN and every given column on the board; whether its queens
// attack each other is a separate question answered by Check.
type Board struct {
	n uint8
	// cols[r] is 1 + the column of row r's queen, 0 for an empty row.
	cols [nqueens.MaxN]uint8
}

// Empty returns the board of n with no queen. It returns an error if n is
// outside 1..nqueens.MaxN.
func Empty(n int) (Board, error) {
	if err := nqueens.CheckN(n); err != nil {
		return Board{}, err
	}
	return Board{n: uint8(n)}, nil
}

// FromPlacement returns the board of p.N() that holds p's queens in the
// given rows and no queen elsewhere; every row when rows is nil. It panics
// if a row is outside 0..p.N()-1.
func FromPlacement(p nqueens.Placement, rows []int) Board {
	b := Board{n: uint8(p.N())}
	if rows == nil {
		for r := range p.N() {
			b.cols[r] = uint8(p.Col(r) + 1)
		}
		return b
	}
	for _, r := range rows {
		b.cols[r] = uint8(p.Col(r) + 1)
	}
	return b
}

// N returns the size of the board, 0 for the zero Board.
func (b Board) N() int { return int(b.n) }

// Col returns the column of the queen in row r and true, or -1 and false
// for an empty row. It panics if r is not in 0..N()-1.
func (b Board) Col(r int) (int, bool) {
	if r < 0 || r >= int(b.n) {
		panic(fmt.Sprintf("partial: row %d out of range 0..%d", r, int(b.n)-1))
	}
	return int(b.cols[r]) - 1, b.cols[r] != 0
}

// With returns b with a queen in row r, column c (replacing the row's
// queen, if any). It panics if r or c is not in 0..N()-1.
func (b Board) With(r, c int) Board {
	if r < 0 || r >= int(b.n) || c < 0 || c >= int(b.n) {
		panic(fmt.Sprintf("partial: square (%d, %d) outside the board of %d", r, c, b.n))
	}
	b.cols[r] = uint8(c + 1)
	return b
}

// Without returns b with row r empty. It panics if r is not in 0..N()-1.
func (b Board) Without(r int) Board {
	if r < 0 || r >= int(b.n) {
		panic(fmt.Sprintf("partial: row %d out of range 0..%d", r, int(b.n)-1))
	}
	b.cols[r] = 0
	return b
}

// Givens returns the number of queens on the board.
func (b Board) Givens() int {
	k := 0
	for r := range int(b.n) {
		if b.cols[r] != 0 {
			k++
		}
	}
	return k
}

// Given returns the given queens as [row, column] pairs, 0-based, in
// increasing order of rows, in a new slice the caller owns (empty, not
// nil, for a board with no queen).
func (b Board) Given() [][2]int {
	out := make([][2]int, 0, b.Givens())
	for r := range int(b.n) {
		if b.cols[r] != 0 {
			out = append(out, [2]int{r, int(b.cols[r]) - 1})
		}
	}
	return out
}

// Extends reports whether the placement p has every queen of b: the same
// size, and in each row b gives, the same column.
func (b Board) Extends(p nqueens.Placement) bool {
	if p.N() != int(b.n) {
		return false
	}
	for r := range int(b.n) {
		if b.cols[r] != 0 && int(b.cols[r])-1 != p.Col(r) {
			return false
		}
	}
	return true
}

// AttackError is the error Check returns: two given queens that attack
// each other, by row and column, the upper one first.
type AttackError struct {
	Row1, Col1, Row2, Col2 int
}

func (e *AttackError) Error() string {
	return fmt.Sprintf("the queens at row %d column %d and row %d column %d attack each other", e.Row1, e.Col1, e.Row2, e.Col2)
}

// Check returns nil if no two queens of b attack each other, and an
// *AttackError naming the first such pair otherwise (the pair whose lower
// queen is highest, then whose upper queen is highest). The zero Board is
// an error.
func (b Board) Check() error {
	if b.n == 0 {
		return errors.New("empty board of size 0")
	}
	for r := range int(b.n) {
		if b.cols[r] == 0 {
			continue
		}
		c := int(b.cols[r]) - 1
		for r2 := range r {
			if b.cols[r2] == 0 {
				continue
			}
			c2 := int(b.cols[r2]) - 1
			if c2 == c || r-r2 == c-c2 || r-r2 == c2-c {
				return &AttackError{r2, c2, r, c}
			}
		}
	}
	return nil
}

// String returns the board in columns form: the 0-based column of each
// row's queen or _ for an empty row, separated by single spaces, top row
// first ("1 _ 5 _ _ _ _ 3"). Parse reads it back.
func (b Board) String() string {
	var s strings.Builder
	for r := range int(b.n) {
		if r > 0 {
			s.WriteByte(' ')
		}
		if b.cols[r] == 0 {
			s.WriteByte('_')
		} else {
			s.WriteString(strconv.Itoa(int(b.cols[r]) - 1))
		}
	}
	return s.String()
}

// Grid returns the board drawn as n lines of n squares, top row first,
// Q for a queen and _ for an empty square, separated by single spaces, each
// line ending in a newline: the form reasoning datasets use, which Parse
// reads back.
func (b Board) Grid() string {
	var s strings.Builder
	s.Grow(2 * int(b.n) * int(b.n))
	for r := range int(b.n) {
		for c := range int(b.n) {
			if c > 0 {
				s.WriteByte(' ')
			}
			if int(b.cols[r]) == c+1 {
				s.WriteByte('Q')
			} else {
				s.WriteByte('_')
			}
		}
		s.WriteByte('\n')
	}
	return s.String()
}
