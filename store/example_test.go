package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
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

// A catalog built once answers for good: which class a board is, and how
// many classes of each symmetry n has.
func Example() {
	ctx := context.Background()
	db, done := exampleCatalog("catalog.db")
	defer done()
	if _, err := db.Run(ctx, 8, nqueens.Shard{}, store.RunOptions{}); err != nil {
		log.Fatal(err)
	}
	l, err := db.ClassOf(ctx, nqueens.MustNew(4, 6, 1, 5, 2, 0, 7, 3))
	fmt.Println(l.Class, l.Placement, l.Symmetry, err)
	_, err = db.ClassOf(ctx, nqueens.MustNew(1, 3, 0, 2))
	fmt.Println(errors.Is(err, store.ErrNotBuilt))
	// Output:
	// 9 1 6 4 7 0 3 5 2 none <nil>
	// true
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

// A build's JSON is one object of nqueens stats --json.
func ExampleBuild_MarshalJSON() {
	started := time.Date(2025, 1, 2, 3, 4, 5, 600, time.UTC)
	b := store.Build{N: 4, Counts: nqueens.Counts{Total: 2, Unique: 1, Orbit2: 1},
		Complete: false, UnitsDone: 1, UnitsTotal: 2, StartedAt: started, Seconds: 0.5,
		Shard: nqueens.Shard{Index: 0, Count: 2}}
	out, err := json.Marshal(b)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(out))
	// Output:
	// {"n":4,"total":2,"unique":1,"orbit8":0,"orbit4":0,"orbit2":1,"orbit1":0,"complete":false,"units_done":1,"units_total":2,"started_at":"2025-01-02T03:04:05Z","seconds":0.5,"shard":{"index":0,"count":2},"form":"rows"}
}

// The solutions of class 10 of n = 8, the one class of n = 8 with an
// orbit of 4, as export --class 10 --all lists them.
func ExampleDB_Layouts() {
	ctx := context.Background()
	db, done := exampleCatalog("catalog.db")
	defer done()
	b, err := db.Run(ctx, 8, nqueens.Shard{}, store.RunOptions{})
	if err != nil {
		log.Fatal(err)
	}
	layouts, want, err := db.Layouts(ctx, b, store.Selection{All: true, Filter: store.Filter{From: 10, To: 10}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(want, "layouts")
	for l, err := range layouts {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(l.Class, l.Placement, l.Symmetry)
	}
	// Output:
	// 4 layouts
	// 10 2 4 1 7 0 6 3 5 rot180
	// 10 3 5 7 1 6 0 2 4 rot180
	// 10 4 2 0 6 1 7 5 3 rot180
	// 10 5 3 6 0 7 1 4 2 rot180
}

// CheckLimit refuses an n above the limit, saying how large its catalog
// would be.
func ExampleCheckLimit() {
	fmt.Println(store.CheckLimit(17, 17))
	fmt.Println(store.CheckLimit(18, 17))
	// Output:
	// <nil>
	// n=18 is above the build limit 17: its catalog would hold 83,263,591 rows, about 2.4 GiB
}

// MergeFiles merges shard catalogs by their paths, as nqueens merge does,
// and refuses a path named twice before it opens anything.
func ExampleMergeFiles() {
	ctx := context.Background()
	var paths []string
	for i := range 2 {
		db, done := exampleCatalog(fmt.Sprintf("shard%d.db", i))
		defer done()
		if _, err := db.Run(ctx, 8, nqueens.Shard{Index: i, Count: 2}, store.RunOptions{}); err != nil {
			log.Fatal(err)
		}
		paths = append(paths, db.Path())
	}
	out := filepath.Join(filepath.Dir(paths[0]), "all.db")
	_, err := store.MergeFiles(ctx, out, append(paths, paths[0]), nil)
	fmt.Println(errors.Is(err, store.ErrNamedTwice))
	merged, err := store.MergeFiles(ctx, out, paths, func(ns []int) { fmt.Println("merging n =", ns) })
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("n=%d: %d classes, complete %v\n", merged[0].N, merged[0].Unique, merged[0].Complete)
	// Output:
	// true
	// merging n = [8]
	// n=8: 12 classes, complete true
}

// CheckBuild checks a build before any catalog is created: every n
// against the limit, then the shard against every n.
func ExampleCheckBuild() {
	fmt.Println(store.CheckBuild([]int{8, 12}, nqueens.Shard{}, 17))
	err := store.CheckBuild([]int{8, 20}, nqueens.Shard{}, 17)
	fmt.Println(errors.Is(err, store.ErrOverLimit))
	fmt.Println(store.CheckBuild([]int{14}, nqueens.Shard{Index: 7, Count: 5}, 17))
	// Output:
	// <nil>
	// true
	// n=14: shard 7/5: want an index from 0 to 4
}

// Classes with a Filter reads a slice of the classes: here the classes of
// n = 8 with a symmetry, and the classes 5 to 7.
func ExampleDB_Classes() {
	db, done := exampleCatalog("catalog.db")
	defer done()
	ctx := context.Background()
	if _, err := db.Run(ctx, 8, nqueens.Shard{}, store.RunOptions{}); err != nil {
		log.Fatal(err)
	}
	for _, f := range []store.Filter{{Symmetry: []nqueens.Symmetry{nqueens.SymRot180}}, {From: 5, To: 7}} {
		for l, err := range db.Classes(ctx, 8, f) {
			if err != nil {
				log.Fatal(err)
			}
			fmt.Println(l.Class, l.Placement, l.Symmetry)
		}
	}
	// Output:
	// 10 2 4 1 7 0 6 3 5 rot180
	// 5 1 4 6 3 0 7 5 2 none
	// 6 1 5 0 6 3 7 2 4 none
	// 7 1 5 7 2 0 3 6 4 none
}

// Lookup says which class a solution belongs to; a Finder does the same
// for many solutions, remembering what it has read.
func ExampleDB_Lookup() {
	db, done := exampleCatalog("catalog.db")
	defer done()
	ctx := context.Background()
	b, err := db.Run(ctx, 8, nqueens.Shard{}, store.RunOptions{})
	if err != nil {
		log.Fatal(err)
	}
	l, err := db.Lookup(ctx, b, nqueens.MustNew(4, 6, 1, 5, 2, 0, 7, 3))
	fmt.Println(l.Class, l.Placement, l.Symmetry, err)
	_, err = db.Lookup(ctx, b, nqueens.MustNew(0, 2, 4, 6, 1, 3, 5, 7))
	fmt.Println(err)
	// Output:
	// 9 1 6 4 7 0 3 5 2 none <nil>
	// lookup 0 2 4 6 1 3 5 7: queens at row 0 column 0 and row 7 column 7 attack each other
}

// Complete returns a build only once it holds all of n's classes; a build
// stopped part way is ErrIncomplete, with how far it got.
func ExampleDB_Complete() {
	db, done := exampleCatalog("catalog.db")
	defer done()
	ctx, cancel := context.WithCancel(context.Background())
	db.Run(ctx, 10, nqueens.Shard{}, store.RunOptions{Workers: 1, Progress: func(done, total int) { cancel() }})
	_, err := db.Complete(context.Background(), 10)
	fmt.Println(errors.Is(err, store.ErrIncomplete))
	_, err = db.Complete(context.Background(), 9)
	fmt.Println(errors.Is(err, store.ErrNotBuilt))
	db.Run(context.Background(), 10, nqueens.Shard{}, store.RunOptions{})
	b, err := db.Complete(context.Background(), 10)
	fmt.Println(b.Unique, b.Finished(), err)
	// Output:
	// true
	// true
	// 92 true <nil>
}

// Two machines each build one shard of n = 10 into a catalog of their own
// (nqueens build 10 --shard I/2); Merge joins them into one catalog that
// holds n = 10 whole, its classes numbered afresh.
func ExampleMerge() {
	var parts []*store.DB
	for i := range 2 {
		db, done := exampleCatalog(fmt.Sprintf("shard%d.db", i))
		defer done()
		if _, err := db.Run(context.Background(), 10, nqueens.Shard{Index: i, Count: 2}, store.RunOptions{}); err != nil {
			log.Fatal(err)
		}
		parts = append(parts, db)
	}
	ns, err := store.Mergeable(context.Background(), parts)
	fmt.Println("mergeable:", ns, err)

	dir, err := os.MkdirTemp("", "nqueens-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	merged, err := store.Merge(context.Background(), filepath.Join(dir, "all.db"), parts)
	if err != nil {
		log.Fatal(err)
	}
	for _, b := range merged {
		fmt.Printf("n=%d: %d solutions in %d classes, complete %v\n", b.N, b.Total, b.Unique, b.Complete)
	}
	// Output:
	// mergeable: [10] <nil>
	// n=10: 724 solutions in 92 classes, complete true
}

// Numbers numbers boards of any n the catalog holds complete, as nqueens
// lookup does, and says why it cannot number those of another n.
func ExampleDB_Numbers() {
	ctx := context.Background()
	db, done := exampleCatalog("catalog.db")
	defer done()
	_, err := db.Run(ctx, 8, nqueens.Shard{}, store.RunOptions{})
	fmt.Println("built n=8:", err == nil)
	nums := db.Numbers()
	for _, p := range []nqueens.Placement{nqueens.MustNew(4, 6, 1, 5, 2, 0, 7, 3), nqueens.MustNew(1, 3, 0, 2)} {
		k, err := nums.Find(ctx, canonical.Fold(p))
		var ie *store.IncompleteError
		fmt.Println(k, errors.As(err, &ie) && errors.Is(err, store.ErrNotBuilt))
	}
	// Output:
	// built n=8: true
	// 9 false
	// 0 true
}

// An n built as an index answers as rows do: class K, the class of any of
// its solutions, the counts, a range of classes.
func ExampleRunOptions_index() {
	dir, err := os.MkdirTemp("", "nqueens-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(dir, "catalog.db"), store.Options{Create: true})
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	b, err := db.Run(ctx, 10, nqueens.Shard{}, store.RunOptions{Index: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(b.Form, b.Unique, b.Total)
	l, err := db.Class(ctx, 10, 92)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(l.Class, l.Placement, l.Symmetry)
	found, err := db.Lookup(ctx, b, canonical.Transform(1).Apply(l.Placement))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(found.Class, found.Placement)
	for l, err := range db.Classes(ctx, 10, store.Filter{From: 90}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(l.Class, l.Placement)
	}
	// Output:
	// index 92 724
	// 92 3 7 4 8 0 9 1 5 2 6 rot180
	// 92 3 7 4 8 0 9 1 5 2 6
	// 90 3 7 2 4 9 0 8 5 1 6
	// 91 3 7 4 1 9 0 6 8 2 5
	// 92 3 7 4 8 0 9 1 5 2 6
}
