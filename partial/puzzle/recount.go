package puzzle

import (
	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/partial"
)

// recount counts the completions of b up to limit by a second search that
// shares no code with the first, to check its answers: it works on the
// transposed board (columns as rows), with boolean arrays for the columns
// and both diagonals, and checks each square against them.
func recount(b partial.Board, limit uint64) uint64 {
	n := b.N()
	if n == 0 || b.Check() != nil {
		return 0
	}
	// In the transposed board row c holds the queen of column c: given[c]
	// is its row in b, or -1.
	var given [nqueens.MaxN]int
	var used [nqueens.MaxN]bool // rows of b (columns of the transpose) taken
	for c := range n {
		given[c] = -1
	}
	for r := range n {
		if c, ok := b.Col(r); ok {
			given[c] = r
			used[r] = true
		}
	}
	var diag, anti [2 * nqueens.MaxN]bool
	for c := range n {
		if r := given[c]; r >= 0 {
			diag[c+r] = true
			anti[c-r+n] = true
		}
	}
	var total uint64
	var place func(c int) bool
	place = func(c int) bool {
		if c == n {
			total++
			return total < limit
		}
		if given[c] >= 0 {
			return place(c + 1)
		}
		for r := range n {
			if used[r] || diag[c+r] || anti[c-r+n] {
				continue
			}
			used[r], diag[c+r], anti[c-r+n] = true, true, true
			more := place(c + 1)
			used[r], diag[c+r], anti[c-r+n] = false, false, false
			if !more {
				return false
			}
		}
		return true
	}
	place(0)
	return total
}
