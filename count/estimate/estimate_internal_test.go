package estimate

import (
	"strings"
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
		if long := MinRate(1).For(n).Long(); long == short(n) {
			t.Errorf("n=%d: Short says %t, the estimate at MinRate on one core says long %t", n, short(n), long)
		}
	}
}

// TestJoinShortMax checks joinShortMax as TestShortMax checks shortMax,
// and that the join's estimates grow with n.
func TestJoinShortMax(t *testing.T) {
	for _, n := range []int{joinShortMax, joinShortMax + 1} {
		if long := MinRate(1).ForJoin(n).Long(); long != (n > joinShortMax) {
			t.Errorf("n=%d: joinShortMax is %d, the join's estimate at MinRate on one core says long %t", n, joinShortMax, long)
		}
	}
	for n := 2; n <= 25; n++ {
		if joinWork(n) < joinWork(n-1) {
			t.Errorf("JoinWork(%d) = %g, less than JoinWork(%d) = %g", n, joinWork(n), n-1, joinWork(n-1))
		}
	}
	if e := MinRate(2).ForJoin(20); e.Engine != "join" || e.Bytes != count.JoinMemory(20, 2) || !strings.Contains(e.String(), "(the join, ") {
		t.Errorf("ForJoin(20) = %+v, %q", e, e)
	}
}

// TestEstimateNodesSampled checks the sampling of EstimateNodes against
// the sum over every constellation, for the sample of n = 19 and, with
// NQUEENS_LONG, of n = 22 (a sparser one, whose sum takes seconds). It
// runs beside TestEstimateNodesGrows: its sums take one core.
func TestEstimateNodesSampled(t *testing.T) {
	t.Parallel()
	ns := []int{19}
	if testutil.Long() {
		ns = append(ns, 22)
	}
	for _, n := range ns {
		var full float64
		for _, c := range count.Constellations(n) {
			full += c.MeanNodes()
		}
		if got := Nodes(n); got < 0.95*full || got > 1.05*full {
			t.Errorf("n=%d: EstimateNodes = %.4g, the sum over every constellation is %.4g: want within 5%%", n, got, full)
		}
	}
}
