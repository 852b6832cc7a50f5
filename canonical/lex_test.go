package canonical

import (
	"context"
	"slices"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/enumerate"
)

// TestLexLayouts checks that LexLayouts yields the plain search's
// solutions in its order, each with the number and symmetry its class
// function gives, and leaves out those whose class it does not number.
func TestLexLayouts(t *testing.T) {
	ctx := context.Background()
	for n := 1; n <= 9; n++ {
		numbers := map[nqueens.Placement]int64{}
		var k int64
		for l := range Classes(ctx, n, 1) {
			k++
			numbers[l.Placement] = k
		}
		// The odd-numbered classes only.
		class := func(c nqueens.Placement, sym nqueens.Symmetry) (int64, bool) {
			k, ok := numbers[c]
			return k, ok && k%2 == 1
		}
		var want []nqueens.Layout
		for p := range enumerate.Solutions(n) {
			id := Identify(p)
			if k := numbers[id.Canonical]; k%2 == 1 {
				want = append(want, nqueens.Layout{Class: k, Placement: p, Symmetry: id.Symmetry})
			}
		}
		got := slices.Collect(LexLayouts(ctx, n, 2, class))
		if !slices.Equal(got, want) {
			t.Errorf("n=%d: %d layouts, want %d in the plain search's order", n, len(got), len(want))
		}
	}
}
