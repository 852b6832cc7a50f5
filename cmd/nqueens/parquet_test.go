package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/sys/unix"

	"github.com/nqueens/nqueens/internal/testutil"
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

// TestParquetStreams draws 200,000 and 800,000 solutions of n = 8 into
// Parquet files: the process's peak memory grows by less than 10 MB from
// the first run to the second (by 3 MB, measured), as rows go out in row
// groups of 131,072 (both runs fill several) and the draws in batches.
// The children run with a soft memory limit of 40 MiB (GOMEMLIMIT), as in
// TestPuzzleCountStreams, so that a loaded machine's lagging collector
// does not raise one run's peak more than the other's. A writer that held
// every row in one row group grows by 14 MB, measured.
func TestParquetStreams(t *testing.T) {
	t.Parallel()
	if testutil.Race {
		t.Skip("the race detector's shadow memory grows with what the program has touched")
	}
	peak := func(count int) int64 {
		dir := t.TempDir()
		cmd, peakOf := peakCommand(t, dir, "sample", "8", "--solutions", "--count", strconv.Itoa(count), "--seed", "7", "-o", "draws.parquet", "-q")
		cmd.Env = append(cmd.Env, "GOMEMLIMIT=40MiB")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		data, err := os.ReadFile(filepath.Join(dir, "draws.parquet"))
		if err != nil {
			t.Fatal(err)
		}
		if f, err := parquetrows.Read(data); err != nil || len(f.Rows) != count || f.RowGroups != (count+(1<<17)-1)>>17 {
			t.Fatalf("draws.parquet: %v; want %d rows", err, count)
		}
		return peakOf()
	}
	small, large := peak(200_000), peak(800_000)
	if large-small > 10<<20 {
		t.Errorf("peak memory %d MB for 800,000 rows, %d MB for 200,000: want within 10 MB", large>>20, small>>20)
	}
	t.Logf("peak memory %.1f MB for 800,000 rows, %.1f MB for 200,000", float64(large)/(1<<20), float64(small)/(1<<20))
}
