package verify_test

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/store"
	"github.com/nqueens/nqueens/verify"
)

// TestOptionsProgress verifies n = 8 and 12 (1,787 classes: no multiple
// of ProgressEvery) and n = 13 (9,233 classes: two calls of
// ProgressEvery, then the rest) with Options that count the calls: Start
// names each n with its classes before they are read, the Progress calls
// add up to them, and the reports are Catalog's.
func TestOptionsProgress(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "c.db"), store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, n := range []int{8, 12, 13} {
		if _, err := db.Run(ctx, n, nqueens.Shard{}, store.RunOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	type start struct {
		n       int
		classes uint64
	}
	var starts []start
	read := map[int][]int64{} // the Progress calls of each n
	cur := 0
	o := verify.Options{
		Start:    func(n int, classes uint64) { starts = append(starts, start{n, classes}); cur = n },
		Progress: func(k int64) { read[cur] = append(read[cur], k) },
	}
	got, err := o.Catalog(ctx, db, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := verify.Catalog(ctx, db, nil)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("reports with progress %+v, without %+v (%v)", got, want, err)
	}
	if w := []start{{8, 12}, {12, 1787}, {13, 9233}}; !reflect.DeepEqual(starts, w) {
		t.Errorf("Start calls %v, want %v", starts, w)
	}
	e := int64(verify.ProgressEvery)
	if w := map[int][]int64{8: {12}, 12: {1787}, 13: {e, e, 9233 - 2*e}}; !reflect.DeepEqual(read, w) {
		t.Errorf("Progress calls %v, want %v", read, w)
	}
}
