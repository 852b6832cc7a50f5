package estimate

import (
	"math"
	"testing"

	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/testutil"
)

// TestCalibrationNodes checks the number of nodes MeasureRate divides by:
// a change to the search or to the order of Constellations changes it.
func TestCalibrationNodes(t *testing.T) {
	cs := count.Constellations(calibrationN)
	var nodes uint64
	for i := 0; i < len(cs); i += calibrationStride {
		nodes += cs[i].Nodes()
	}
	if nodes != calibrationNodes {
		t.Errorf("the calibration sample has %d nodes, calibrationNodes says %d", nodes, calibrationNodes)
	}
}

// TestShortMax checks that Short, which does not estimate, agrees with
// the estimate at MinRate on one core at its edge: shortMax is short,
// shortMax+1 long.
func TestShortMax(t *testing.T) {
	for _, n := range []int{shortMax, shortMax + 1} {
		if long := MinRate(1).For(n).Long(); long == Short(n) {
			t.Errorf("n=%d: Short says %t, the estimate at MinRate on one core says long %t", n, Short(n), long)
		}
	}
}

// TestEstimateNodesSampled checks the sampling of EstimateNodes against
// the sum over every constellation, for the samples of n = 19 and 22 (a
// sparser one). It runs beside
// TestEstimateNodesGrows: its sums take one core.
func TestEstimateNodesSampled(t *testing.T) {
	t.Parallel()
	for _, n := range testutil.Sizes(19, 22) {
		var full float64
		for _, c := range count.Constellations(n) {
			full += c.MeanNodes()
		}
		if got := Nodes(n); got < 0.95*full || got > 1.05*full {
			t.Errorf("n=%d: EstimateNodes = %.4g, the sum over every constellation is %.4g: want within 5%%", n, got, full)
		}
	}
}

func TestAbout(t *testing.T) {
	const minute, hour, day, year = 60, 3600, 86400, 365.25 * 86400
	tests := []struct {
		secs float64
		want string
	}{
		{0, "under 0.1 seconds"},
		{0.04, "under 0.1 seconds"},
		{0.13, "about 0.1 seconds"},
		{1, "about 1.0 seconds"},
		{4.3, "about 4.3 seconds"},
		{29, "about 29 seconds"},
		{61, "about 1 minute"},
		{95, "about 1 minute 40 seconds"},
		{119, "about 2 minutes"},
		{3.7 * minute, "about 4 minutes"},
		{28 * minute, "about 28 minutes"},
		{80 * minute, "about 1 hour 20 minutes"},
		{3 * hour, "about 3 hours"},
		{32 * hour, "about 1 day 8 hours"},
		{12 * day, "about 12 days"},
		{9 * year / 12, "about 9 months"},
		{35 * year / 12, "about 2 years 11 months"},
		{40 * year, "about 40 years"},
		{3214 * year, "about 3200 years"},
		{2.7e8 * year, "about 270 million years"},
		{4.5e9 * year, "about 4.5 billion years"},
		{math.Inf(1), "an unknown time"},
	}
	for _, tt := range tests {
		if got := about(tt.secs); got != tt.want {
			t.Errorf("about(%g) = %q, want %q", tt.secs, got, tt.want)
		}
	}
}

func TestNodesText(t *testing.T) {
	tests := []struct {
		nodes float64
		want  string
	}{
		{0, "0"},
		{189.4, "189"},
		{999999, "999999"},
		{3.0e6, "3.0e6"},
		{3.14e15, "3.1e15"},
		{6.7e23, "6.7e23"},
	}
	for _, tt := range tests {
		if got := nodesText(tt.nodes); got != tt.want {
			t.Errorf("nodesText(%g) = %q, want %q", tt.nodes, got, tt.want)
		}
	}
}
