package count

import "testing"

// TestCalibrationNodes checks the number of nodes MeasureRate divides by:
// a change to the search or to the order of Constellations changes it.
func TestCalibrationNodes(t *testing.T) {
	cs := Constellations(calibrationN)
	var nodes uint64
	for i := 0; i < len(cs); i += calibrationStride {
		nodes += cs[i].Nodes()
	}
	if nodes != calibrationNodes {
		t.Errorf("the calibration sample has %d nodes, calibrationNodes says %d", nodes, calibrationNodes)
	}
}

// TestEstimateNodesSampled checks the sampling of EstimateNodes against
// the sum over every constellation.
func TestEstimateNodesSampled(t *testing.T) {
	ns := []int{19, 22}
	if testing.Short() {
		ns = ns[:1]
	}
	for _, n := range ns {
		var full float64
		for _, c := range Constellations(n) {
			_, m := c.knuth()
			full += m
		}
		if got := EstimateNodes(n); got < 0.95*full || got > 1.05*full {
			t.Errorf("n=%d: EstimateNodes = %.4g, the sum over every constellation is %.4g: want within 5%%", n, got, full)
		}
	}
}

// TestCostUnchanged checks that Cost, which decides the shards, gives
// what it gave before EstimateNodes shared its estimator.
func TestCostUnchanged(t *testing.T) {
	var sum uint64
	for _, c := range Constellations(14) {
		sum += c.Cost()
	}
	if sum != 2937177 {
		t.Errorf("the costs of n=14 add up to %d, want 2937177", sum)
	}
}
