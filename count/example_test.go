package count_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/nqueens/nqueens"
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

// ExampleCombine counts n = 12 in 3 shards, as 3 processes would, writes
// and reads each part back, and combines them.
func ExampleCombine() {
	ctx := context.Background()
	var parts []count.Part
	var names []string
	for i := range 3 {
		p, err := count.Shard(ctx, 12, nqueens.Shard{Index: i, Count: 3}, count.Options{})
		if err != nil {
			fmt.Println(err)
			return
		}
		data, _ := json.Marshal(p)
		if p, err = count.ReadPart(data); err != nil {
			fmt.Println(err)
			return
		}
		parts = append(parts, p)
		names = append(names, fmt.Sprintf("part-%d.json", i))
	}
	c, err := count.Combine(ctx, parts, names, 0)
	fmt.Println(c.Total, c.Unique, err)

	// The same shard twice is refused.
	_, err = count.Combine(ctx, []count.Part{parts[0], parts[0], parts[2]}, names, 0)
	fmt.Println(err)
	// Output:
	// 14200 1787 <nil>
	// shard 0/3 given twice: part-0.json and part-1.json
}

func ExampleReadPart() {
	_, err := count.ReadPart([]byte(`{"n": 12, "unique": 1787}`))
	fmt.Println(err)
	_, err = count.ReadPart([]byte(`{"n": 1e3}`))
	fmt.Println(err)
	// Output:
	// unknown field "unique"
	// "n": 1e3: want a whole number from 0 to 9223372036854775807
}

func ExampleDigest() {
	fmt.Println(count.Digest([]int{0, 3, 5})[:23])
	// Output: sha256:e7cad8c0feaf8219
}

func ExampleEstimate_String() {
	e := count.Rate{Workers: 2, Cores: 2, PerSecond: 1e7}.Estimate(20)
	fmt.Println(e.Long())
	fmt.Println(e.Time())
	// Output:
	// true
	// about 10 hours on 2 cores
}

func ExampleMinRate() {
	e := count.MinRate(1).Estimate(12)
	fmt.Println(e.Long())
	// Output: false
}
