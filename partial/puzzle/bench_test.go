package puzzle

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/nqueens/nqueens/sample"
)

// BenchmarkPuzzles12 makes 1,000 minimal puzzles of n = 12 from uniform
// solutions (the class search's list) on all cores, as
// nqueens puzzle 12 --count 1000 --minimal does (the target: under 10 s on
// 2 cores).
func BenchmarkPuzzles12(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		src := sample.Search(12, 0)
		opts := Options{Source: src}
		k := 0
		for _, err := range Puzzles(ctx, 12, 1000, 1, opts, 0) {
			if err != nil {
				b.Fatal(err)
			}
			k++
		}
		src.Close()
		if k != 1000 {
			b.Fatalf("%d puzzles", k)
		}
	}
}

// BenchmarkPuzzle20 makes one minimal puzzle of n = 20 from a solution of
// Random (the target: under 10 s).
func BenchmarkPuzzle20(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		if _, err := Puzzle(context.Background(), rng, 20, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPuzzle32 makes one minimal puzzle of n = 32.
func BenchmarkPuzzle32(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		if _, err := Puzzle(context.Background(), rng, 32, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
