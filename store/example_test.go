package store_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/store"
)

// exampleCatalog opens a new catalog in a temporary directory and returns
// it with a function that closes and removes it.
func exampleCatalog(name string) (*store.DB, func()) {
	dir, err := os.MkdirTemp("", "nqueens-example")
	if err != nil {
		log.Fatal(err)
	}
	db, err := store.Open(context.Background(), filepath.Join(dir, name), store.Options{Create: true})
	if err != nil {
		log.Fatal(err)
	}
	return db, func() { db.Close(); os.RemoveAll(dir) }
}

// A build stopped part way, as Ctrl-C stops it, resumes where it stopped.
func ExampleDB_Run() {
	db, done := exampleCatalog("catalog.db")
	defer done()
	ctx, cancel := context.WithCancel(context.Background())
	_, err := db.Run(ctx, 10, nqueens.Shard{}, store.RunOptions{
		Workers:  1,
		Progress: func(done, total int) { cancel() },
	})
	fmt.Println("first run stopped:", err != nil)

	b, err := db.Run(context.Background(), 10, nqueens.Shard{}, store.RunOptions{
		Start: func(from, total int, stored uint64) { fmt.Println("second run resumes:", from > 0) },
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("n=%d: %d solutions in %d classes, complete %v\n", b.N, b.Total, b.Unique, b.Complete)

	_, err = db.Run(context.Background(), 10, nqueens.Shard{}, store.RunOptions{})
	fmt.Println("third run:", errors.Is(err, store.ErrComplete))
	// Output:
	// first run stopped: true
	// second run resumes: true
	// n=10: 724 solutions in 92 classes, complete true
	// third run: true
}

// Verify reports each n: here one the catalog holds, and one it lacks.
func ExampleDB_Verify() {
	db, done := exampleCatalog("catalog.db")
	defer done()
	if _, err := db.Run(context.Background(), 8, nqueens.Shard{}, store.RunOptions{}); err != nil {
		log.Fatal(err)
	}
	reports, err := db.Verify(context.Background(), []int{8, 9})
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range reports {
		fmt.Printf("n=%d ok=%v total=%d unique=%d problems=%q\n", r.N, r.OK, r.Total, r.Unique, r.Problems)
	}
	// Output:
	// n=8 ok=true total=92 unique=12 problems=[]
	// n=9 ok=false total=0 unique=0 problems=["n=9 is not in the catalog"]
}
