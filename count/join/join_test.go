package join

import (
	"context"
	"testing"

	"github.com/nqueens/nqueens"
)

func TestTotalKnown(t *testing.T) {
	for n := 1; n <= 14; n++ {
		got, err := Total(context.Background(), n, 0)
		if err != nil {
			t.Fatal(err)
		}
		k, _ := nqueens.KnownCounts(n)
		if got != k.Total {
			t.Errorf("n=%d: %d, want %d", n, got, k.Total)
		}
	}
}
