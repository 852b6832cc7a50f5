package phrase_test

import (
	"math"
	"testing"

	"github.com/nqueens/nqueens/internal/phrase"
)

func TestCount(t *testing.T) {
	for _, tt := range []struct {
		k    uint64
		want string
	}{
		{0, "0"},
		{7, "7"},
		{999, "999"},
		{1000, "1,000"},
		{10_000, "10,000"},
		{999_999, "999,999"},
		{2_279_184, "2,279,184"},
		{1_000_000_000, "1,000,000,000"},
		{math.MaxUint64, "18,446,744,073,709,551,615"},
	} {
		if got := phrase.Count(tt.k); got != tt.want {
			t.Errorf("Count(%d) = %q, want %q", tt.k, got, tt.want)
		}
	}
	if got := phrase.Count(-1234); got != "-1,234" {
		t.Errorf("Count(-1234) = %q", got)
	}
	if got := phrase.Count(int64(math.MinInt64 + 1)); got != "-9,223,372,036,854,775,807" {
		t.Errorf("Count(MinInt64+1) = %q", got)
	}
}

func TestApprox(t *testing.T) {
	for _, tt := range []struct {
		x    float64
		want string
	}{
		{0, "0 nodes"},
		{0.4, "0 nodes"},
		{1, "1 node"},
		{999, "999 nodes"},
		{1e4, "10,000 nodes"},
		{35017.6, "35,018 nodes"},
		{999_999.4, "999,999 nodes"},
		{999_999.6, "1.0e6 nodes"},
		{6.07e9, "6.1e9 nodes"},
		{1e9, "1.0e9 nodes"},
		{2.96e14, "3.0e14 nodes"},
		{math.MaxUint64, "1.8e19 nodes"},
		{math.Inf(1), "an unknown number of nodes"},
	} {
		if got := phrase.Approx(tt.x, "node"); got != tt.want {
			t.Errorf("Approx(%g) = %q, want %q", tt.x, got, tt.want)
		}
	}
}
