package canonical

import (
	"fmt"

	"github.com/nqueens/nqueens"
)

// Symmetric returns the numbers of solutions of a board of n that the half
// turn and the quarter turn leave unchanged. It searches rows from the top,
// placing with each queen its images under the turn, so it fills a half or
// a quarter of the rows itself. It panics if n is outside 1..nqueens.MaxN.
func Symmetric(n int) (half, quarter uint64) {
	if err := nqueens.CheckN(n); err != nil {
		panic("canonical: " + err.Error())
	}
	s := symSearch{n: n, m: uint8(n - 1)}
	s.turns = 2
	half = s.from(0)
	s.turns = 1
	quarter = s.from(0)
	return half, quarter
}

// symSearch counts the solutions invariant under a turn: by 180° when
// turns is 2, by 90° when turns is 1.
type symSearch struct {
	n     int
	m     uint8
	turns int
	rows  uint32
	cols  uint32
	// diagonals by r-c+MaxN and by r+c.
	diag, anti uint64
}

// rotate returns the image of q under a quarter turn.
func (s *symSearch) rotate(q square) square { return square{q.c, s.m - q.r} }

// from counts the ways to complete the board from row r on, rows above r
// being filled.
func (s *symSearch) from(r int) uint64 {
	for r < s.n && s.rows&(1<<uint(r)) != 0 {
		r++
	}
	if r == s.n {
		return 1
	}
	var total uint64
	for c := range s.n {
		var orbit [4]square
		k := 0
		q := square{uint8(r), uint8(c)}
		for {
			orbit[k] = q
			k++
			for range s.turns {
				q = s.rotate(q)
			}
			if q == orbit[0] || k == len(orbit) {
				break
			}
		}
		saved := *s
		ok := true
		for _, q := range orbit[:k] {
			if !s.put(q) {
				ok = false
				break
			}
		}
		if ok {
			total += s.from(r + 1)
		}
		s.rows, s.cols, s.diag, s.anti = saved.rows, saved.cols, saved.diag, saved.anti
	}
	return total
}

// put places a queen on q and reports whether it was free of the queens
// already placed.
func (s *symSearch) put(q square) bool {
	row, col := uint32(1)<<q.r, uint32(1)<<q.c
	d := uint64(1) << (int(q.r) - int(q.c) + nqueens.MaxN - 1)
	a := uint64(1) << (q.r + q.c)
	if s.rows&row != 0 || s.cols&col != 0 || s.diag&d != 0 || s.anti&a != 0 {
		return false
	}
	s.rows, s.cols, s.diag, s.anti = s.rows|row, s.cols|col, s.diag|d, s.anti|a
	return true
}

// Tally returns the classes of a board of n by orbit size, given its total
// number of solutions and the numbers half and quarter of them invariant
// under the half and the quarter turn (Burnside's lemma: a class of orbit
// 2 holds 2 solutions invariant under the quarter turn, one of orbit 4
// holds 4 invariant under the half turn only, and one of orbit 8 holds 8
// invariant under neither). It returns an error if the numbers cannot come
// from one board, which would mean a broken search.
func Tally(n int, total, half, quarter uint64) (nqueens.Counts, error) {
	if n == 1 {
		if total != 1 || half != 1 || quarter != 1 {
			return nqueens.Counts{}, fmt.Errorf("tally n=1: want 1, 1, 1 solutions, got %d, %d, %d", total, half, quarter)
		}
		var c nqueens.Counts
		c.Add(nqueens.SymFull)
		return c, nil
	}
	if quarter > half || half > total || quarter%2 != 0 || (half-quarter)%4 != 0 || (total-half)%8 != 0 {
		return nqueens.Counts{}, fmt.Errorf("tally n=%d: %d solutions with %d invariant under the half turn and %d under the quarter turn cannot form whole classes", n, total, half, quarter)
	}
	c := nqueens.Counts{
		Total:  total,
		Orbit8: (total - half) / 8,
		Orbit4: (half - quarter) / 4,
		Orbit2: quarter / 2,
	}
	c.Unique = c.Orbit8 + c.Orbit4 + c.Orbit2
	return c, nil
}
