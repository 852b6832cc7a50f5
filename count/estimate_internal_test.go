package count

import "testing"

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
