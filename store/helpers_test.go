package store

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
)

// The helpers the store's tests share.

var ctx = context.Background()

// open opens the catalog at path, created if missing, and closes it when
// the test ends.
func open(t *testing.T, path string) *DB {
	t.Helper()
	db, err := Open(ctx, path, Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// build stores the classes of n from the canonical search, units [from, to).
func build(t *testing.T, b *builder, units []enumerate.Unit, from, to int) {
	t.Helper()
	for i, batch := range canonical.UnitClasses(context.Background(), units[:to], from, 1) {
		if err := b.Add(i, batch); err != nil {
			t.Fatal(err)
		}
	}
}

// buildShard builds shard i of k of n into a new catalog in dir and
// returns it open.
func buildShard(t *testing.T, dir string, n, i, k int) *DB {
	t.Helper()
	db := open(t, filepath.Join(dir, fmt.Sprintf("shard-%d-of-%d.db", i, k)))
	units, _, err := balance.Shard(canonical.Units(n), nqueens.Shard{Index: i, Count: k}, canonical.Cost)
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.beginShard(ctx, n, nqueens.Shard{Index: i, Count: k}, len(units))
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
func classes(t *testing.T, db *DB, n int) []nqueens.Layout {
	t.Helper()
	return testutil.Collect(t, db.Classes(ctx, n, Filter{}))
}

// run builds n whole into db with Run and returns the build.
func run(t *testing.T, db *DB, n int) Build {
	t.Helper()
	b, err := db.Run(ctx, n, nqueens.Shard{}, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// recountAll checks every complete build of db as verify does: its classes
// read again, checked and counted, and the counts those give its own and
// the published ones.
func recountAll(t *testing.T, db *DB) {
	t.Helper()
	ctx := context.Background()
	builds, err := db.Builds(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range builds {
		if !b.Complete {
			continue
		}
		got, ok, err := db.Recount(ctx, b, RecountOptions{})
		if err != nil || !ok || got != b.Counts || nqueens.CheckKnown(b.N, got) != nil {
			t.Fatalf("n=%d recounted: %+v, %v, %v; build %+v", b.N, got, ok, err, b)
		}
	}
}
