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

// TestOptionsProgress verifies n = 8, 12 and 13 (9,233 classes: more than
// one call) as rows, and n = 14 as an index, with Options that count the
// calls: Start names each n with its classes before they are read, the
// Progress calls add up to them, none of more than 4,096 rows, and the
// reports are Catalog's.
func TestOptionsProgress(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "c.db"), store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, n := range []int{8, 12, 13, 14} {
		if _, err := db.Run(ctx, n, nqueens.Shard{}, store.RunOptions{Index: n == 14}); err != nil {
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
	if w := []start{{8, 12}, {12, 1787}, {13, 9233}, {14, 45752}}; !reflect.DeepEqual(starts, w) {
		t.Errorf("Start calls %v, want %v", starts, w)
	}
	for _, s := range starts {
		var sum int64
		for _, k := range read[s.n] {
			if k <= 0 || (s.n < 14 && k > 4096) {
				t.Errorf("n=%d: a Progress call of %d", s.n, k)
			}
			sum += k
		}
		if uint64(sum) != s.classes || (s.n == 13 && len(read[s.n]) < 2) {
			t.Errorf("n=%d: Progress calls %v, want them to add up to %d (more than one for n = 13)", s.n, read[s.n], s.classes)
		}
	}
}
