package puzzle_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/nqueens/nqueens/partial/puzzle"
	"github.com/nqueens/nqueens/sample"
)

func ExamplePuzzle() {
	rng := rand.New(rand.NewPCG(1, 0))
	p, err := puzzle.Puzzle(context.Background(), rng, 8, puzzle.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Print(p.Board.Grid())
	fmt.Println("solution:", p.Solution, "givens:", p.Board.Givens(), "nodes:", p.Nodes, "level:", p.Level)
	fmt.Println("minimal:", puzzle.Minimal(p.Board))
	// Output:
	// _ _ _ _ Q _ _ _
	// _ _ _ _ _ _ _ _
	// _ _ _ _ _ _ _ _
	// _ _ _ Q _ _ _ _
	// _ _ _ _ _ _ _ _
	// _ _ _ _ _ _ Q _
	// _ _ _ _ _ _ _ _
	// _ _ _ _ _ _ _ _
	// solution: 4 0 7 3 1 6 2 5 givens: 3 nodes: 14 level: easy
	// minimal: true
}

func ExamplePuzzles() {
	ctx := context.Background()
	src := sample.Search(8, 0)
	defer src.Close()
	opts := puzzle.Options{Givens: 4, Source: src}
	for p, err := range puzzle.Puzzles(ctx, 8, 3, 42, opts, 0) {
		if err != nil {
			panic(err)
		}
		fmt.Println(p.Board, "class", p.Class, p.Symmetry, p.Level, p.Nodes, "nodes")
	}
	// Output:
	// 2 _ _ _ _ 0 3 5 class 11 none easy 7 nodes
	// _ _ _ 6 0 _ 1 4 class 3 none easy 9 nodes
	// 2 _ _ _ _ 3 6 0 class 2 none easy 8 nodes
}

// Hard puzzles are drawn by rejection: the draws of Puzzles, the hard ones
// kept, enough draws for three of them.
func ExampleOfLevel() {
	ctx := context.Background()
	src := sample.Search(8, 0)
	defer src.Close()
	draws := puzzle.Puzzles(ctx, 8, puzzle.LevelDraws(3), 1, puzzle.Options{Source: src}, 0)
	k := 0
	for p, err := range puzzle.OfLevel(draws, 8, puzzle.Hard) {
		if err != nil {
			panic(err)
		}
		fmt.Println(p.Board, p.Level, p.Nodes, "nodes")
		if k++; k == 3 {
			break
		}
	}
	// Output:
	// _ 7 _ _ _ _ _ 5 hard 68 nodes
	// _ _ _ _ 1 3 _ _ hard 65 nodes
	// _ _ _ _ _ 7 _ 1 hard 73 nodes
}

func ExampleRandom() {
	rng := rand.New(rand.NewPCG(7, 7))
	p, _ := puzzle.Random(rng, 32)
	fmt.Println(p.Valid() == nil, p.N())
	// Output:
	// true 32
}
