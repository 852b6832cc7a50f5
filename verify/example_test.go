package verify_test

import (
	"context"
	"errors"
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
		fmt.Printf("n=%d ok=%v missing=%v total=%d unique=%d problems=%q\n", r.N, r.OK, r.Missing, r.Total, r.Unique, r.Problems)
	}
	// Output:
	// n=8 ok=true missing=false total=92 unique=12 problems=[]
	// n=9 ok=false missing=true total=0 unique=0 problems=[]
}

// Summary is the one-line verdict on the reports: a problem is a
// mismatch (errors.Is ErrMismatch), an n the catalog lacks is not.
func ExampleSummary() {
	class3 := []string{"class 3 (1 3 5 7 2 0 4 6) is not a solution"}
	fmt.Println(verify.Summary([]verify.Report{{N: 8, OK: true}, {N: 9, Problems: class3}}))
	fmt.Println(verify.Summary([]verify.Report{{N: 8, OK: true}, {N: 9, Problems: class3}, {N: 10, Missing: true}}))
	err := verify.Summary([]verify.Report{{N: 8, OK: true}, {N: 10, Missing: true}})
	fmt.Println(err, errors.Is(err, verify.ErrMismatch))
	// Output:
	// verification failed: 1 of 2 n do not check out
	// verification failed: 1 of 3 n do not check out, and 1 is not in the catalog
	// 1 of 2 n is not in the catalog, so not verified false
}
