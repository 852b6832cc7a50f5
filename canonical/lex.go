package canonical

import (
	"context"
	"iter"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/enumerate"
	"github.com/nqueens/nqueens/internal/parallel"
)

// LexLayouts returns an iterator over the solutions of n in lexicographic
// order, the plain search's (enumerate.Units), each as a Layout with its
// class's number and symmetry. It searches on workers goroutines (all
// cores when workers < 1), folds each solution (Identify) and asks class
// for the number of its class, given the canonical placement and the
// class's symmetry; a solution whose class class does not number (false)
// is left out. That is how a caller restricts the solutions to some
// classes, such as those a catalog's filter selects: class is called from
// the search goroutines at once, so it must be safe for concurrent use.
//
// The iterator is single-use. Breaking out of the loop or cancelling ctx
// stops the search; after a cancel the iterator ends early, without
// saying so: the caller checks ctx.Err.
func LexLayouts(ctx context.Context, n, workers int, class func(canon nqueens.Placement, sym nqueens.Symmetry) (int64, bool)) iter.Seq[nqueens.Layout] {
	return func(yield func(nqueens.Layout) bool) {
		units := enumerate.Units(n)
		work := func(i int, stop *parallel.Stop) []nqueens.Layout {
			var out []nqueens.Layout
			for p := range units[i].Solutions() {
				if stop.Stopped() {
					return nil
				}
				id := Identify(p)
				if k, ok := class(id.Canonical, id.Symmetry); ok {
					out = append(out, nqueens.Layout{Class: k, Placement: p, Symmetry: id.Symmetry})
				}
			}
			return out
		}
		for _, batch := range parallel.Ordered(ctx, len(units), workers, work) {
			for _, l := range batch {
				if !yield(l) {
					return
				}
			}
		}
	}
}
