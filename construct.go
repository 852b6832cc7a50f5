package nqueens

import (
	"errors"
	"fmt"
)

// MaxConstructN is the largest board Construct builds a solution for.
const MaxConstructN = 10_000_000

// ErrNoSolution is returned for the boards that have no solution: n = 2
// and n = 3.
var ErrNoSolution = errors.New("has no solution")

// Construct returns one solution of the n-queens puzzle for any n from 1 to
// MaxConstructN but 2 and 3 (ErrNoSolution), as the 0-based column of the
// queen in each row, top row first, in time and memory linear in n. It
// uses the explicit construction by the residue of n mod 6 (Hoffman,
// Loessi and Moore 1969; Bernhardsson 1991): take the even numbers 2, 4,
// ... then the odd ones 1, 3, ... up to n, except that for n mod 6 = 2 the
// odd list starts 3, 1 and has 5 moved to its end, and for n mod 6 = 3 the
// even list has 2 moved to its end and the odd list 1 and 3. The k-th
// number of the sequence, less one, is the column of the queen in row k.
func Construct(n int) ([]int32, error) {
	if n < 1 || n > MaxConstructN {
		return nil, fmt.Errorf("n must be between 1 and %d, got %d", MaxConstructN, n)
	}
	if n == 2 || n == 3 {
		return nil, fmt.Errorf("n=%d %w", n, ErrNoSolution)
	}
	// The sequence in one slice: the even numbers, then the odd ones, with
	// the moves for n mod 6 = 2 and 3 written in place.
	cols := make([]int32, 0, n)
	switch n % 6 {
	case 3: // 4, 6, ..., n-1, 2, then 5, 7, ..., n, 1, 3
		for v := 4; v <= n; v += 2 {
			cols = append(cols, int32(v))
		}
		cols = append(cols, 2)
		for v := 5; v <= n; v += 2 {
			cols = append(cols, int32(v))
		}
		cols = append(cols, 1, 3)
	case 2: // 2, 4, ..., n, then 3, 1, 7, 9, ..., n-1, 5
		for v := 2; v <= n; v += 2 {
			cols = append(cols, int32(v))
		}
		cols = append(cols, 3, 1)
		for v := 7; v <= n; v += 2 {
			cols = append(cols, int32(v))
		}
		cols = append(cols, 5)
	default: // 2, 4, ..., then 1, 3, ...
		for v := 2; v <= n; v += 2 {
			cols = append(cols, int32(v))
		}
		for v := 1; v <= n; v += 2 {
			cols = append(cols, int32(v))
		}
	}
	for i := range cols {
		cols[i]--
	}
	return cols, nil
}

// CheckColumns reports whether cols, the 0-based column of the queen in
// each row, is a solution: every column once, no two queens on a
// diagonal. It takes time linear in len(cols) and 5 bits of memory a row,
// so it suits boards of millions of rows. The error names the first
// offending row.
func CheckColumns(cols []int32) error {
	n := len(cols)
	if n == 0 {
		return errors.New("no rows")
	}
	col := newBits(n)
	diag := newBits(2*n - 1) // r + c
	anti := newBits(2*n - 1) // r - c + n - 1
	for r, c32 := range cols {
		c := int(c32)
		switch {
		case c < 0 || c >= n:
			return fmt.Errorf("row %d: column %d is off the board of %d", r, c, n)
		case col.testSet(c):
			return fmt.Errorf("row %d: column %d is taken by an earlier row", r, c)
		case diag.testSet(r + c):
			return fmt.Errorf("row %d: the queen in column %d shares a diagonal with an earlier one", r, c)
		case anti.testSet(r - c + n - 1):
			return fmt.Errorf("row %d: the queen in column %d shares an anti-diagonal with an earlier one", r, c)
		}
	}
	return nil
}

// bitset is a fixed-size set of small integers.
type bitset []uint64

func newBits(n int) bitset { return make(bitset, (n+63)/64) }

// testSet adds i and reports whether it was already there.
func (b bitset) testSet(i int) bool {
	w, m := i>>6, uint64(1)<<(uint(i)&63)
	was := b[w]&m != 0
	b[w] |= m
	return was
}
