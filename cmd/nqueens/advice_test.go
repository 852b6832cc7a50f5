package main

// Tests of the advice the command adds to the libraries' errors, which
// the libraries leave to it.

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/store"
)

// TestHotJournalAdvice reads, as another user, a catalog whose journal
// holds a write that a killed build left: the commands say what is wrong,
// as store words it, and that a writing command run by the catalog's
// owner rolls it back.
func TestHotJournalAdvice(t *testing.T) {
	t.Parallel()
	dir, exe := sharedDir(t)
	db := filepath.Join(dir, "c.db")
	if out, err := runAs(t, 0, exe, dir, "build", "4-6", "-q", "--db", db); err != nil {
		t.Fatalf("owner's build: %v\n%s", err, out)
	}
	// A reader that may not write the catalog refuses any journal beside
	// it before SQLite reads it, so its bytes do not matter here (store's
	// tests leave a real one).
	if err := os.WriteFile(db+"-journal", []byte("unfinished"), 0o644); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.EvalSymlinks(db)
	if err != nil {
		t.Fatal(err)
	}
	why := "open catalog " + db + ": catalog is read-only: " + abs + "-journal holds a write that a killed process left unfinished" +
		"; run a writing command such as nqueens build as the catalog's owner to roll it back"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"stats"}, "nqueens: " + why + "\n"},
		{[]string{"lookup", "4", "6", "1", "5", "2", "0", "7", "3"},
			"lookup: no class numbers: " + why + "\nn=8 4 6 1 5 2 0 7 3: canonical 1 6 4 7 0 3 5 2, orbit 8 (symmetry none), transform antitranspose\n"},
	} {
		out, _ := runAs(t, nobody, exe, dir, append(tc.args, "--db", db)...)
		if out != tc.want {
			t.Errorf("%s as another user:\n%s\nwant\n%s", strings.Join(tc.args, " "), out, tc.want)
		}
	}
}

// TestOpenAdvice checks the advice openAdvice adds to each error of a
// catalog that does not open, and that the error still matches its
// sentinel.
func TestOpenAdvice(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{store.ErrNoCatalog, "no catalog (run nqueens build to make one)"},
		{store.ErrEmptyCatalog, "no catalog (run nqueens build to make it a catalog)"},
		{store.ErrHotJournal, "catalog is read-only; run a writing command such as nqueens build as the catalog's owner to roll it back"},
		{store.ErrReadOnly, "catalog is read-only"},
		{store.ErrCorrupt, "catalog file is damaged"},
	} {
		got := openAdvice(tc.err)
		if got.Error() != tc.want || !errors.Is(got, tc.err) {
			t.Errorf("openAdvice(%v) = %q, want %q wrapping it", tc.err, got, tc.want)
		}
	}
	if err := openAdvice(nil); err != nil {
		t.Errorf("openAdvice(nil) = %v", err)
	}
}
