package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/enumerate"
	"github.com/nqueens/nqueens/internal/balance"
	"github.com/nqueens/nqueens/internal/testutil"
	"github.com/nqueens/nqueens/store"
)

// The helpers the store's tests share.

var ctx = context.Background()

// open opens the catalog at path, created if missing, and closes it when
// the test ends.
func open(t *testing.T, path string) *store.DB {
	t.Helper()
	db, err := store.Open(ctx, path, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// build stores the classes of n from the canonical search, units [from, to).
func build(t *testing.T, b *store.Builder, units []enumerate.Unit, from, to int) {
	t.Helper()
	for i, batch := range canonical.UnitClasses(context.Background(), units[:to], from, 1) {
		if err := b.Add(i, batch); err != nil {
			t.Fatal(err)
		}
	}
}

// buildShard builds shard i of k of n into a new catalog in dir and
// returns it open.
func buildShard(t *testing.T, dir string, n, i, k int) *store.DB {
	t.Helper()
	db := open(t, filepath.Join(dir, fmt.Sprintf("shard-%d-of-%d.db", i, k)))
	units, _, err := balance.Shard(canonical.Units(n), nqueens.Shard{Index: i, Count: k}, canonical.Cost)
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.BeginShard(ctx, n, nqueens.Shard{Index: i, Count: k}, len(units))
	if err != nil {
		t.Fatal(err)
	}
	build(t, b, units, 0, len(units))
	if _, err := b.Finish(); err != nil {
		t.Fatal(err)
	}
	return db
}

// classes returns every class of n that db holds, in order.
func classes(t *testing.T, db *store.DB, n int) []nqueens.Layout {
	t.Helper()
	return testutil.Collect(t, db.Classes(ctx, n, store.Filter{}))
}

// run builds n whole into db with Run and returns the build.
func run(t *testing.T, db *store.DB, n int) store.Build {
	t.Helper()
	b, err := db.Run(ctx, n, nqueens.Shard{}, store.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return b
}
