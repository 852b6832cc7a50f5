package partial_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/nqueens/nqueens/partial"
)

func ExampleParse() {
	b, err := partial.Parse("_ Q _ _ / _ _ _ _ / _ _ _ _ / _ _ _ _")
	if err != nil {
		panic(err)
	}
	fmt.Println(b, b.Given())
	fmt.Print(b.Grid())
	_, err = partial.Parse("1 _ 9 _ _ _ _ 3")
	fmt.Println(err)
	// Output:
	// 1 _ _ _ [[0 1]]
	// _ Q _ _
	// _ _ _ _
	// _ _ _ _
	// _ _ _ _
	// row 2: column 9 is off the board of 8: want 0..7
}

func ExampleCompletions() {
	b, _ := partial.Parse("1 _ _ _ _ _ _ 3")
	for p := range partial.Completions(b) {
		fmt.Println(p)
	}
	// Output:
	// 1 4 6 0 2 7 5 3
	// 1 6 2 5 7 4 0 3
	// 1 7 5 0 2 4 6 3
}

func ExampleCountCompletions() {
	empty, _ := partial.Empty(8)
	fmt.Printf("%+v\n", partial.CountCompletions(empty))
	b, _ := partial.Parse("1 _ _ _ _ _ _ 3")
	fmt.Printf("%+v\n", partial.CountCompletions(b))
	// Output:
	// {Completions:92 Nodes:2056}
	// {Completions:3 Nodes:76}
}

// CountContext stops when its context is cancelled, as Ctrl-C cancels
// nqueens complete: here the count of an empty board of 32, which would
// take years, stops at once.
func ExampleCountContext() {
	b, _ := partial.Parse("1 _ _ _ _ _ _ 3")
	fmt.Println(partial.CountContext(context.Background(), b))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	empty, _ := partial.Empty(32)
	_, err := partial.CountContext(ctx, empty)
	fmt.Println(err)
	// Output:
	// {3 76} <nil>
	// context canceled
}

func ExampleBoard_Check() {
	b, _ := partial.Parse("0 _ 2 _ _ _")
	fmt.Println(b.Check())
	// Output:
	// the queens at row 0 column 0 and row 2 column 2 attack each other
}

func ExamplePuzzle() {
	rng := rand.New(rand.NewPCG(1, 0))
	p, err := partial.Puzzle(rng, 8, partial.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Print(p.Board.Grid())
	fmt.Println("solution:", p.Solution, "givens:", p.Board.Givens(), "difficulty:", p.Difficulty)
	fmt.Println("minimal:", partial.Minimal(p.Board))
	// Output:
	// _ _ _ _ Q _ _ _
	// _ _ _ _ _ _ _ _
	// _ _ _ _ _ _ _ _
	// _ _ _ Q _ _ _ _
	// _ _ _ _ _ _ _ _
	// _ _ _ _ _ _ Q _
	// _ _ _ _ _ _ _ _
	// _ _ _ _ _ _ _ _
	// solution: 4 0 7 3 1 6 2 5 givens: 3 difficulty: 14
	// minimal: true
}

func ExamplePuzzles() {
	ctx := context.Background()
	opts := partial.Options{Givens: 4, Sampler: partial.SearchSampler(ctx, 8, 0)}
	for p, err := range partial.Puzzles(ctx, 8, 3, 42, opts, 0) {
		if err != nil {
			panic(err)
		}
		fmt.Println(p.Board, "class", p.Class, p.Symmetry, "difficulty", p.Difficulty)
	}
	// Output:
	// 2 _ _ _ _ 0 3 5 class 11 none difficulty 7
	// _ _ _ 7 2 _ 6 4 class 3 none difficulty 10
	// 0 _ _ _ _ 1 4 2 class 2 none difficulty 10
}

func ExampleRandom() {
	rng := rand.New(rand.NewPCG(7, 7))
	p, _ := partial.Random(rng, 32)
	fmt.Println(p.Valid() == nil, p.N())
	// Output:
	// true 32
}
