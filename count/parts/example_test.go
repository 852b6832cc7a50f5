package parts_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/count/parts"
)

// makeParts counts n in k shards, as k runs of count --shard would, and
// returns the JSON of each part.
func makeParts(n, k int) [][]byte {
	var out [][]byte
	for i := range k {
		p, err := parts.Make(context.Background(), n, nqueens.Shard{Index: i, Count: k}, count.Options{})
		if err != nil {
			log.Fatal(err)
		}
		data, _ := json.Marshal(p)
		out = append(out, data)
	}
	return out
}

// ExampleCombine counts n = 12 in 3 shards, as 3 processes would, writes
// and reads each part back, and combines them.
func ExampleCombine() {
	ctx := context.Background()
	var ps []parts.Part
	var names []string
	for i, data := range makeParts(12, 3) {
		p, err := parts.Read(data)
		if err != nil {
			fmt.Println(err)
			return
		}
		ps = append(ps, p)
		names = append(names, fmt.Sprintf("part-%d.json", i))
	}
	c, err := parts.Combine(ctx, ps, names, 0)
	fmt.Println(c.Total, c.Unique, err)

	// The same shard twice is refused.
	_, err = parts.Combine(ctx, []parts.Part{ps[0], ps[0], ps[2]}, names, 0)
	fmt.Println(err)
	// Output:
	// 14200 1787 <nil>
	// shard 0/3 given twice: part-0.json and part-1.json
}

func ExampleRead() {
	_, err := parts.Read([]byte(`{"n": 12, "unique": 1787}`))
	fmt.Println(err)
	_, err = parts.Read([]byte(`{"n": 1e3}`))
	fmt.Println(err)
	// Output:
	// unknown field "unique"
	// "n": 1e3: want a whole number from 0 to 9223372036854775807
}

// ExampleCombineFiles writes the 2 parts of n = 10 to files, as two runs of
// count --shard would, and combines them: the counts are checked against
// OEIS too.
func ExampleCombineFiles() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "parts")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	var files []string
	for i, data := range makeParts(10, 2) {
		f := filepath.Join(dir, fmt.Sprintf("part-%d.json", i))
		os.WriteFile(f, data, 0o644)
		files = append(files, f)
	}
	c, k, err := parts.CombineFiles(ctx, files, 0)
	fmt.Println(c.Total, c.Unique, k, err)
	// Output: 724 92 2 <nil>
}
