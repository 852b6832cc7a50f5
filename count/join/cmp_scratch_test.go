package join_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/count/join"
)

func TestScratchCompare(t *testing.T) {
	if os.Getenv("CMP") == "" {
		t.Skip()
	}
	ctx := context.Background()
	for n := 4; n <= 16; n++ {
		best := func(f func()) time.Duration {
			b := time.Hour
			for range 5 {
				t0 := time.Now()
				f()
				b = min(b, time.Since(t0))
			}
			return b
		}
		tj := best(func() { join.Total(ctx, n, 2) })
		tc := best(func() { count.Solutions(ctx, count.Constellations(n), 2, nil) })
		t.Logf("n=%d join %v cpu %v ratio %.2f", n, tj, tc, float64(tj)/float64(tc))
	}
}
