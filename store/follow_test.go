package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nqueens/nqueens"
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
	f, err := Follow(ctx, path, FollowOptions{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	has := func(n int) error {
		return f.Read(ctx, func(db *DB) error {
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
	err = f.Read(ctx, func(*DB) error { called = true; return nil })
	if !errors.Is(err, ErrChanged) || called {
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
	if err := has(8); !errors.Is(err, ErrNotBuilt) {
		t.Errorf("after a rename onto the path: n=8: %v, want ErrNotBuilt", err)
	}
	if err := os.Rename(moved, path); err != nil {
		t.Fatal(err)
	}
	if err := has(8); err != nil {
		t.Errorf("with the first file back: %v", err)
	}
}

// TestReadsOnOneConnection reads classes from past the first, a class by
// number and a lookup through a Follower allowed one connection: each read
// checks its rows against the classes beside them without a second
// connection, so none waits for one that its own open rows hold. (A
// deadline ends the test if one does.)
func TestReadsOnOneConnection(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	run(t, open(t, path), 10)
	f, err := Follow(ctx, path, FollowOptions{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	deadline, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	err = f.Read(deadline, func(db *DB) error {
		for _, filter := range []Filter{{From: 2, To: 20}, {Offset: 5, Limit: 10}, {From: 3, Symmetry: []nqueens.Symmetry{nqueens.SymRot180}}} {
			got := 0
			for _, err := range db.Classes(deadline, 10, filter) {
				if err != nil {
					return err
				}
				got++
			}
			if got == 0 {
				return fmt.Errorf("%+v: no classes", filter)
			}
		}
		if _, err := db.Class(deadline, 10, 50); err != nil {
			return err
		}
		_, err := db.ClassOf(deadline, nqueens.MustNew(1, 3, 5, 7, 9, 0, 2, 4, 6, 8))
		return err
	})
	if err != nil {
		t.Fatalf("reads on one connection: %v", err)
	}
}
