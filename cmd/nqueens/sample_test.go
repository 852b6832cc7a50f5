package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/internal/testutil"
)

// TestPuzzleDrawsLikeSample: on a catalog that holds n, puzzle i of a
// seed starts from solution i of sample --solutions with that seed, the
// uniform draw, class and all; so does it without a catalog, from the
// class search, for n up to 16.
func TestPuzzleDrawsLikeSample(t *testing.T) {
	t.Parallel()
	db := builtCatalog(t, "10")
	dir := t.TempDir()
	type record struct {
		Solution, Placement []int
		Class               int64
	}
	records := func(withDB bool, args ...string) []record {
		if withDB {
			args = append(args, "--db", db)
		}
		out, err := command(t, dir, append(args, "--format", "ndjson", "-q")...).Output()
		if err != nil {
			t.Fatalf("nqueens %s: %v", strings.Join(args, " "), err)
		}
		var rs []record
		for line := range strings.Lines(string(out)) {
			var r record
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			rs = append(rs, r)
		}
		return rs
	}
	draws := records(true, "sample", "10", "--solutions", "--seed", "11", "--count", "25")
	for _, withDB := range []bool{true, false} {
		puzzles := records(withDB, "puzzle", "10", "--seed", "11", "--count", "25")
		if len(puzzles) != 25 || len(draws) != 25 {
			t.Fatalf("%d puzzles, %d draws", len(puzzles), len(draws))
		}
		for i, p := range puzzles {
			if d := draws[i]; !slices.Equal(p.Solution, d.Placement) || p.Class != d.Class || p.Class == 0 {
				t.Errorf("catalog %v: puzzle %d starts from %v (class %d), solution %d of sample is %v (class %d)", withDB, i, p.Solution, p.Class, i, d.Placement, d.Class)
			}
		}
	}
}

// TestSampleCountStreams draws 100,000 and 400,000 classes of n = 8 and
// reads them as they come: every draw is printed, and the process's peak
// memory grows by less than 10 MB from the first run to the second, as
// draws are made in batches (of 65,536: both runs hold full batches),
// under a soft memory limit of 40 MiB as in TestPuzzleCountStreams.
func TestSampleCountStreams(t *testing.T) {
	t.Parallel()
	if testutil.Race {
		t.Skip("the race detector's shadow memory grows with what the program has touched")
	}
	db := builtCatalog(t, "8")
	peak := func(count int) int64 {
		return streamPeak(t, `{"n":8,`, count, "sample", "8", "--solutions", "--count", fmt.Sprint(count), "--seed", "7", "--format", "ndjson", "-q", "--db", db)
	}
	small, large := peak(100_000), peak(400_000)
	if large-small > 10<<20 {
		t.Errorf("peak memory %d MB for 400,000 draws, %d MB for 100,000: want within 10 MB", large>>20, small>>20)
	}
	t.Logf("peak memory %.1f MB for 400,000 draws, %.1f MB for 100,000", float64(large)/(1<<20), float64(small)/(1<<20))
}

// TestSampleTamperedRefused changes the classes of n = 8 by hand, as a
// user with sqlite3 could, so that a class drawn is missing, out of its
// range or not what the catalog promises: sample (of classes and of
// solutions) and puzzle each refuse with one line naming n and saying
// that the catalog is damaged (nqueens verify lists every fault), exit
// status 1, and never print the bad row. 200 draws of the
// 12 classes of n = 8 draw every class.
func TestSampleTamperedRefused(t *testing.T) {
	t.Parallel()
	orig := sharedCatalog(t, "8")
	data, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, sql string }{
		{"missing", `DELETE FROM classes WHERE n = 8 AND class = 12`},
		{"renumbered", `UPDATE classes SET class = 20 WHERE n = 8 AND class = 12`},
		{"more classes counted", `UPDATE builds SET unique_count = 13 WHERE n = 8`},
		{"not a solution", `UPDATE classes SET placement = '13572046' WHERE n = 8 AND class = 3`},
		{"wrong orbit", `UPDATE classes SET orbit = 4 WHERE n = 8 AND class = 3`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "c.db")
			os.WriteFile(db, data, 0o644)
			raw, err := sql.Open("sqlite", db)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := raw.Exec(tt.sql); err != nil {
				t.Fatal(err)
			}
			raw.Close()
			for _, args := range [][]string{
				{"sample", "8", "--count", "200", "--seed", "1", "--format", "csv"},
				{"sample", "8", "--count", "200", "--seed", "1", "--solutions", "--format", "csv"},
				{"puzzle", "8", "--count", "200", "--seed", "1", "--format", "csv"},
			} {
				stdout, _, err := runCLI(t, append([]string{"--db", db}, args...)...)
				msg := ""
				if err != nil {
					msg = err.Error()
				}
				if exitCode(err) != exitMismatch || strings.Contains(msg, "\n") || !strings.Contains(msg, "n=8") || !strings.Contains(msg, "nqueens verify") {
					t.Errorf("%s: exit %d, err %q, want one line naming n=8 and verify", strings.Join(args, " "), exitCode(err), msg)
				}
				if strings.Contains(stdout, "1 3 5 7 2 0 4 6") {
					t.Errorf("%s printed the bad row:\n%s", strings.Join(args, " "), stdout)
				}
			}
		})
	}
}
