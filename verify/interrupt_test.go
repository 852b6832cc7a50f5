package verify_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/store"
	"github.com/nqueens/nqueens/verify"
)

// TestInterrupted cancels a verification of n = 8, 10, 12 and 14 (an
// index) from its callbacks, as Ctrl-C does: as n = 12 starts, as the
// index of n = 14 reports progress, and before anything is read. The
// error is one InterruptedError that says which n checked out and which
// was not finished, matches context.Canceled and never reads "context
// canceled"; the reports are those of the n finished.
func TestInterrupted(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "c.db"), store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, n := range []int{8, 10, 12, 14} {
		if _, err := db.Run(ctx, n, nqueens.Shard{}, store.RunOptions{Index: n == 14}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name    string
		ns      []int // the n to verify: all if nil
		atStart int   // cancel as this n starts
		atRead  int   // or as this n reports progress
		before  bool
		want    string
		reports int
	}{
		{name: "rows", atStart: 12, want: "verify interrupted after n=8,10 checked out; n=12 was not finished", reports: 2},
		{name: "index", atRead: 14, want: "verify interrupted after n=8,10,12 checked out; n=14 was not finished", reports: 3},
		// An n not in the catalog is neither checked out nor damaged.
		{name: "missing", ns: []int{8, 9, 10, 12}, atStart: 12, want: "verify interrupted after n=8,10 checked out; n=12 was not finished", reports: 3},
		{name: "first", atStart: 8, want: "verify interrupted: n=8 was not finished", reports: 0},
		{name: "before", before: true, want: "verify interrupted before any n was checked", reports: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.before {
				cancel()
			}
			cur := 0
			o := verify.Options{
				Start: func(n int, _ uint64) {
					if cur = n; n == tc.atStart {
						cancel()
					}
				},
				Progress: func(int64) {
					if cur == tc.atRead {
						cancel()
					}
				},
			}
			reports, err := o.Catalog(ctx, db, tc.ns)
			var ie *verify.InterruptedError
			if err == nil || err.Error() != tc.want || !errors.As(err, &ie) || !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want %q matching context.Canceled", err, tc.want)
			}
			if len(reports) != tc.reports {
				t.Errorf("%d reports, want %d: %+v", len(reports), tc.reports, reports)
			}
		})
	}
}
