package puzzle

import (
	"math/bits"
	"math/rand/v2"
)

// The draws of this package use only rng.Uint64, the output of the
// generator itself (PCG and ChaCha8 are specified algorithms), and derive
// bounded numbers and orders from it here, not with rand.Rand's IntN or
// Perm, whose algorithms Go does not promise to keep: a seed gives the
// same puzzles with every Go release and on every machine.

// uint64N returns a uniform random number in [0, n), n > 0, by Lemire's
// multiply-and-reject method.
func uint64N(rng *rand.Rand, n uint64) uint64 {
	hi, lo := bits.Mul64(rng.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(rng.Uint64(), n)
		}
	}
	return hi
}

// intN returns a uniform random number in [0, n), n > 0.
func intN(rng *rand.Rand, n int) int { return int(uint64N(rng, uint64(n))) }

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
