package count_test

import (
	"context"
	"fmt"

	"github.com/nqueens/nqueens/count"
)

func ExampleBoard() {
	c, err := count.Board(context.Background(), 8, count.Options{Workers: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("n=8: %d solutions in %d classes (%d of 8, %d of 4)\n", c.Total, c.Unique, c.Orbit8, c.Orbit4)
	// Output: n=8: 92 solutions in 12 classes (11 of 8, 1 of 4)
}
