package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/internal/testutil"
)

// TestOutputRefusedIsUsage: an output file that is the catalog or one of
// its files is bad usage, exit status 2 (output.txtar checks the message
// and that the catalog is untouched).
func TestOutputRefusedIsUsage(t *testing.T) {
	t.Parallel()
	db := builtCatalog(t, "5")
	for _, args := range [][]string{
		{"export", "5", "-o", db},
		{"export", "5", "-o", db + "-wal"},
		{"export", "6", "-o", db + ".lock"}, // refused before the catalog is read
		{"solve", "8", "-o", db + "-shm"},
		{"--cpuprofile", db, "count", "4"},
	} {
		_, _, err := runCLI(t, append([]string{"--db", db}, args...)...)
		if got := exitCode(err); got != exitUsage {
			t.Errorf("nqueens %v: exit status %d (%v), want %d", args, got, err, exitUsage)
		}
	}
}

// TestMergeIntoAPartIsUsage: a merge whose output is one of its shard
// catalogs or one of their files is bad usage, exit status 2
// (merge_files.txtar checks the message and that nothing changed).
func TestMergeIntoAPartIsUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	runCLI(t, "--db", a, "-q", "build", "6", "--shard", "0/2")
	runCLI(t, "--db", b, "-q", "build", "6", "--shard", "1/2")
	for _, out := range []string{a, a + "-wal", b + "-journal", a + ".lock"} {
		_, _, err := runCLI(t, "merge", out, a, b)
		if got := exitCode(err); got != exitUsage {
			t.Errorf("nqueens merge %s: exit status %d (%v), want %d", filepath.Base(out), got, err, exitUsage)
		}
	}
}

// TestStdoutOntoCatalogRefused runs commands whose standard output is the
// catalog or one of its files, appended to as a shell's `>>` does: each is
// refused, exit status 2, with one line on stderr, and the catalog keeps
// every byte.
func TestStdoutOntoCatalogRefused(t *testing.T) {
	t.Parallel()
	db := builtCatalog(t, "8")
	before := testutil.ReadFile(t, db)
	for _, tt := range []struct {
		target string // what stdout appends to
		args   []string
	}{
		{db, []string{"export", "8"}},
		{db, []string{"export", "8", "-o", "-"}},
		{db, []string{"export", "8", "-o", "/dev/stdout"}},
		{db, []string{"stats"}},
		{db + ".lock", []string{"show", "8"}},
	} {
		f, err := os.OpenFile(tt.target, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		cmd := command(t, filepath.Dir(db), append([]string{"--db", db}, tt.args...)...)
		cmd.Stdout = f
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err = cmd.Run()
		f.Close()
		if got := exitStatus(err); got != exitUsage || strings.Count(stderr.String(), "\n") != 1 ||
			!strings.Contains(stderr.String(), "standard output is the catalog (or one of its files)") {
			t.Errorf("nqueens %v >> %s: exit status %d, stderr %q; want %d and one line", tt.args, filepath.Base(tt.target), got, stderr.String(), exitUsage)
		}
	}
	if !bytes.Equal(testutil.ReadFile(t, db), before) {
		t.Error("the catalog changed")
	}
	if got := testutil.ReadFile(t, db+".lock"); len(got) != 0 {
		t.Errorf("the lock file holds %q", got)
	}
}
