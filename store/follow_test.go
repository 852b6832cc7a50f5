package store_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/nqueens/nqueens/store"
)

// TestFollowReplacedAndRemoved follows a catalog while it is removed, a
// catalog of other n is renamed onto its path, and the first is renamed
// back: while the path holds nothing a Read fails with ErrChanged, calls
// nothing and creates no file; after each rename a Read answers from the
// file the path holds.
func TestFollowReplacedAndRemoved(t *testing.T) {
	dir := t.TempDir()
	path, other, moved := filepath.Join(dir, "c.db"), filepath.Join(dir, "other.db"), filepath.Join(dir, "moved.db")
	for _, c := range []struct {
		path string
		n    int
	}{{path, 8}, {other, 6}} {
		db := open(t, c.path)
		run(t, db, c.n)
		db.Close()
	}
	f, err := store.Follow(ctx, path, store.FollowOptions{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	has := func(n int) error {
		return f.Read(ctx, func(db *store.DB) error {
			_, err := db.Complete(ctx, n)
			return err
		})
	}
	if err := has(8); err != nil {
		t.Fatalf("at first: %v", err)
	}

	if err := os.Rename(path, moved); err != nil {
		t.Fatal(err)
	}
	called := false
	err = f.Read(ctx, func(*store.DB) error { called = true; return nil })
	if !errors.Is(err, store.ErrChanged) || called {
		t.Errorf("with the file removed: Read = %v, read called %v; want ErrChanged, not called", err, called)
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatalf("a Read created %s", path)
	}

	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	if err := has(6); err != nil {
		t.Errorf("after a rename onto the path: n=6: %v", err)
	}
	if err := has(8); !errors.Is(err, store.ErrNotBuilt) {
		t.Errorf("after a rename onto the path: n=8: %v, want ErrNotBuilt", err)
	}
	if err := os.Rename(moved, path); err != nil {
		t.Fatal(err)
	}
	if err := has(8); err != nil {
		t.Errorf("with the first file back: %v", err)
	}
}
