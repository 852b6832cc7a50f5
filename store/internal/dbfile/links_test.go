//go:build unix

package dbfile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/nqueens/nqueens/internal/catalogfile"
)

// TestOneName opens a catalog for writing through its one name, gives it
// a second name while that pool is open, and checks that no writer gets
// through either name (an open, a new connection of the open pool, the
// build lock) while readers read through both; a temporary name of
// Create's is not counted.
func TestOneName(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	if err := Create(ctx, a, nil); err != nil {
		t.Fatal(err)
	}
	w, _, err := OpenWrite(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.SetMaxIdleConns(0) // every query opens a new connection
	if _, err := w.ExecContext(ctx, "SELECT 1"); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(a, tempPrefix(a)+"0"); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	if err := oneName(a); err != nil {
		t.Errorf("a creation's temporary name counted: %v", err)
	}
	os.Remove(tempPrefix(a) + "0")
	if err := os.Link(a, b); err != nil {
		t.Fatal(err)
	}
	if _, err := w.ExecContext(ctx, "SELECT 1"); !errors.Is(err, ErrNames) {
		t.Errorf("a new connection of the open writer: %v, want ErrNames", err)
	}
	for _, name := range []string{a, b} {
		if db, _, err := OpenWrite(ctx, name); !errors.Is(err, ErrNames) {
			if err == nil {
				db.Close()
			}
			t.Errorf("OpenWrite %s: %v, want ErrNames", filepath.Base(name), err)
		}
		if unlock, err := Lock(name + catalogfile.Lock); !errors.Is(err, ErrNames) {
			if err == nil {
				unlock()
			}
			t.Errorf("Lock %s: %v, want ErrNames", filepath.Base(name), err)
		}
		h, err := OpenRead(ctx, name)
		if err != nil {
			t.Errorf("OpenRead %s: %v", filepath.Base(name), err)
			continue
		}
		h.DB.Close()
	}
}
