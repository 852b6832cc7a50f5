package puzzle

import (
	"math/rand/v2"

	"github.com/nqueens/nqueens/sample"
)

// The draws of this package derive bounded numbers and orders from the
// generator's own output with sample.Uint64N, not with rand.Rand's IntN
// or Perm, whose algorithms Go does not promise to keep: a seed gives the
// same puzzles with every Go release and on every machine.

// intN returns a uniform random number in [0, n), n > 0.
func intN(rng *rand.Rand, n int) int { return int(sample.Uint64N(rng, uint64(n))) }

// perm returns a uniform random permutation of 0..n-1 (Fisher-Yates).
func perm(rng *rand.Rand, n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := intN(rng, i+1)
		p[i], p[j] = p[j], p[i]
	}
	return p
}
