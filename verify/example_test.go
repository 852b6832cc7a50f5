package verify_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/store"
	"github.com/nqueens/nqueens/verify"
)

// Catalog reports each n: here one the catalog holds, and one it lacks.
func ExampleCatalog() {
	dir, err := os.MkdirTemp("", "nqueens-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	db, err := store.Open(context.Background(), filepath.Join(dir, "catalog.db"), store.Options{Create: true})
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Run(context.Background(), 8, nqueens.Shard{}, store.RunOptions{}); err != nil {
		log.Fatal(err)
	}
	reports, err := verify.Catalog(context.Background(), db, []int{8, 9})
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

// Summary is the one-line verdict on the reports.
func ExampleSummary() {
	fmt.Println(verify.Summary([]verify.Report{{N: 8, OK: true}, {N: 9, Problems: []string{"n=9 is not in the catalog"}}}))
	// Output: verification failed: 1 of 2 n do not check out
}
