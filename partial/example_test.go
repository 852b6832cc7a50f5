package partial_test

import (
	"context"
	"fmt"

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

func ExampleCountUpTo() {
	b, err := partial.Parse("_ _ _ _ _ _ _ _")
	if err != nil {
		panic(err)
	}
	// Is there exactly one completion? Two tell "more than one" apart.
	fmt.Println(partial.CountUpTo(b, 2).Completions, partial.CountCompletions(b).Completions)
	// Output: 2 92
}
