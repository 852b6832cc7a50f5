package partial

import (
	"testing"

	"github.com/nqueens/nqueens"
)

// construction20 is the solution of n = 20 nqueens.Construct builds.
func construction20() nqueens.Placement {
	cols, _ := nqueens.Construct(20)
	ints := make([]int, len(cols))
	for i, c := range cols {
		ints[i] = int(c)
	}
	return nqueens.MustNew(ints...)
}

// boards20 are boards of n = 20 with 8 given queens of one solution: in
// every other row of the top, spread over the board, and in the bottom
// rows (the worst for a top-down search: the givens prune only as masks).
var boards20 = map[string][]int{
	"top":    {0, 2, 4, 6, 8, 10, 12, 14},
	"spread": {1, 3, 6, 8, 11, 13, 16, 18},
	"bottom": {12, 13, 14, 15, 16, 17, 18, 19},
}

// BenchmarkCountCompletions20 counts the completions of boards of n = 20
// with 8 givens (the target: under a second).
func BenchmarkCountCompletions20(b *testing.B) {
	p := construction20()
	for name, rows := range boards20 {
		board := FromPlacement(p, rows)
		b.Run(name, func(b *testing.B) {
			var c Count
			for b.Loop() {
				c = CountCompletions(board)
			}
			b.ReportMetric(float64(c.Completions), "completions")
			b.ReportMetric(float64(c.Nodes), "nodes")
		})
	}
}
