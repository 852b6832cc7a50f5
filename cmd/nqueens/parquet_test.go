package main

import (
	"encoding/json"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/sys/unix"

	"github.com/nqueens/nqueens/internal/testutil/parquetrows"
)

// sameParquet is the script command "sameparquet FILE.parquet
// FILE.ndjson": the Parquet file, read with a reader that shares no code
// with the writer, must hold the rows of the NDJSON file, in order, each
// row's columns the keys of its line's object (a puzzle's given queens,
// pairs of row and column, the object's [row, column] arrays) and a null
// where the object leaves a key out.
func sameParquet(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 || neg {
		ts.Fatalf("usage: sameparquet FILE.parquet FILE.ndjson")
	}
	f, err := parquetrows.Read([]byte(ts.ReadFile(args[0])))
	if err != nil {
		ts.Fatalf("sameparquet: %s: %v", args[0], err)
	}
	var want []map[string]any
	for line := range strings.Lines(ts.ReadFile(args[1])) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			ts.Fatalf("sameparquet: %s: line %d: %v", args[1], len(want)+1, err)
		}
		want = append(want, m)
	}
	for i, r := range f.Rows {
		if given, ok := r["given"].([]any); ok {
			for k, q := range given {
				q := q.(map[string]any)
				given[k] = []any{q["row"], q["column"]}
			}
		}
		if i < len(want) && !reflect.DeepEqual(r, want[i]) {
			ts.Fatalf("sameparquet: row %d: %s holds %v, %s %v", i+1, args[0], r, args[1], want[i])
		}
	}
	if len(f.Rows) != len(want) || len(want) == 0 {
		ts.Fatalf("sameparquet: %s holds %d rows, %s %d", args[0], len(f.Rows), args[1], len(want))
	}
}

// openTerminal returns the two ends of a new pseudo-terminal: the
// terminal a process writes to, and the side that reads what it wrote.
func openTerminal(t *testing.T) (tty, reader *os.File) {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlock the pseudo-terminal: %v", err)
	}
	k, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("name the pseudo-terminal: %v", err)
	}
	tty, err = os.OpenFile("/dev/pts/"+strconv.Itoa(k), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open the pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return tty, ptmx
}

// TestParquetNotToATerminal runs export, sample and puzzle in parquet
// with stdout a terminal: each is refused as bad usage, before any work,
// with a line that says where to write it instead.
func TestParquetNotToATerminal(t *testing.T) {
	t.Parallel()
	tty, _ := openTerminal(t)
	dir := t.TempDir()
	for _, args := range [][]string{
		{"export", "6", "--format", "parquet"},
		{"export", "6", "--format", "parquet", "-o", "-"},
		{"sample", "6", "--seed", "1", "--format", "parquet"},
		{"puzzle", "6", "--seed", "1", "--format", "parquet"},
	} {
		cmd := command(t, dir, args...)
		cmd.Stdout = tty
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		if exitStatus(err) != exitUsage || !strings.Contains(stderr.String(), "format parquet is binary, not for a terminal: write it to a file (-o FILE.parquet) or a pipe\n") {
			t.Errorf("nqueens %s to a terminal: exit %d, stderr %q; want %d and the refusal", strings.Join(args, " "), exitStatus(err), stderr.String(), exitUsage)
		}
	}
}
