package nqueens

import (
	"fmt"
	"strings"

	"github.com/nqueens/nqueens/internal/phrase"
)

// A Square is one square of a board: its row (0 at the top) and column (0
// at the left), both 0-based as the columns of a Placement are. The zero
// Square is the top-left corner.
type Square struct {
	Row, Col int
}

// ParseSquare reads a square written "r,c": the row, a comma, the column,
// each a whole number from 0 to MaxN-1 as ParseWhole reads them. Spaces around
// either number are allowed. The error says what is wanted.
func ParseSquare(s string) (Square, error) {
	r, c, ok := strings.Cut(s, ",")
	row, err1 := parseCoord(strings.TrimSpace(r))
	col, err2 := parseCoord(strings.TrimSpace(c))
	if !ok || err1 != nil || err2 != nil {
		return Square{}, fmt.Errorf("square %s: want r,c, the row and column of a queen counted from 0, such as 0,3", phrase.Quote(s))
	}
	return Square{Row: row, Col: col}, nil
}

// parseCoord reads a row or column number as ParseWhole reads whole
// numbers, below MaxN.
func parseCoord(s string) (int, error) {
	k, err := ParseWhole(s)
	if err == nil && k >= MaxN {
		err = fmt.Errorf("not a row or column")
	}
	return int(k), err
}

// String writes the square as ParseSquare reads it: "0,3".
func (s Square) String() string { return fmt.Sprintf("%d,%d", s.Row, s.Col) }

// Check returns an error if the square is not on a board of n: "n=8 has
// rows 0 to 7, no row 9".
func (s Square) Check(n int) error {
	switch {
	case s.Row < 0 || s.Row >= n:
		return fmt.Errorf("square %s: n=%d has rows 0 to %d, no row %d", s, n, n-1, s.Row)
	case s.Col < 0 || s.Col >= n:
		return fmt.Errorf("square %s: n=%d has columns 0 to %d, no column %d", s, n, n-1, s.Col)
	}
	return nil
}

// Holds reports whether p has its queen of row s.Row in column s.Col.
func (s Square) Holds(p Placement) bool {
	return s.Row >= 0 && s.Row < p.N() && int(p.cols[s.Row]) == s.Col
}

// KeyDigit returns the digit of Key that stands for the square's column:
// a placement holds the square if its key's digit at index s.Row is this.
func (s Square) KeyDigit() string { return digits[s.Col : s.Col+1] }
