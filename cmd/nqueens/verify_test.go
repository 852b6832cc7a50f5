package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/progress"
)

// runCLI runs the command in-process and returns its stdout, stderr and
// error.
func runCLI(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, &out, &errOut)
	return out.String(), errOut.String(), err
}

// mustRun runs the command in-process, as runCLI does, and returns its
// stdout; it fails t if the command fails.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, stderr, err := runCLI(t, args...)
	if err != nil {
		t.Fatalf("nqueens %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return out
}

// TestVerifyCatchesTampering edits a built catalog behind nqueens' back in
// each way a row can go wrong and checks that verify names the n and the
// class and fails with errMismatch (exit status 3).
func TestVerifyCatchesTampering(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		sql  string
		want string
	}{
		{"edited placement", `UPDATE classes SET placement = '05726341' WHERE n = 8 AND placement = '05726314'`, "is not a solution"},
		{"non-canonical placement", `UPDATE classes SET placement = '46152037' WHERE n = 8 AND placement = '04752613'`, "(4 6 1 5 2 0 3 7) is not canonical: its class's representative is 0 4 7 5 2 6 1 3"},
		{"deleted row", `DELETE FROM classes WHERE n = 8 AND placement = '05726314'`, "stored classes add up to total 84, unique 11"},
		{"duplicated class (another member stored)", `INSERT INTO classes VALUES (8, 13, '73025164', 8)`, "(7 3 0 2 5 1 6 4) is not canonical: its class's representative is 0 4 7 5 2 6 1 3"},
		{"short placement", `INSERT INTO classes VALUES (8, 13, '0475261', 8)`, `class 13 (0475261) cannot be read: parse key "0475261"`},
		{"class numbered out of turn", `UPDATE classes SET class = 20 WHERE n = 8 AND class = 12`, "class 20 (2 5 1 4 7 0 6 3) is numbered out of turn: class 12 was due"},
		{"classes out of order", `UPDATE classes SET class = -class WHERE n = 8 AND class IN (1, 2); UPDATE classes SET class = 3 + class WHERE n = 8 AND class IN (-1, -2)`, "is out of order or repeated after"},
		{"wrong orbit", `UPDATE classes SET orbit = 4 WHERE n = 8 AND placement = '04752613'`, "has orbit 4 recorded, but its orbit is 8"},
		{"bad orbit value", `UPDATE classes SET orbit = 3 WHERE n = 8 AND placement = '04752613'`, "orbit size must be 8, 4, 2 or 1, got 3"},
		{"wrong count", `UPDATE builds SET total = 93 WHERE n = 8`, "the build records total 93"},
		// The published counts are checked by the one rule, nqueens.CheckKnown.
		{"counts agree but differ from OEIS", `DELETE FROM classes WHERE n = 8 AND placement = '05726314'; UPDATE builds SET total = 84, unique_count = 11, orbit8 = 10 WHERE n = 8`,
			"the classes add up to " + nqueens.CheckKnown(8, nqueens.Counts{Total: 84, Unique: 11}).Error()},
		{"build records other counts than its classes and OEIS", `UPDATE builds SET total = 100, unique_count = 13 WHERE n = 8`,
			"the build records " + nqueens.CheckKnown(8, nqueens.Counts{Total: 100, Unique: 13}).Error()},
		{"incomplete", `UPDATE builds SET complete = 0 WHERE n = 8`, "build is incomplete"},
		{"builds row deleted", `DELETE FROM builds WHERE n = 8`, "12 classes stored with no record of their build"},
		{"units_done edited", `UPDATE builds SET units_done = units_done - 1 WHERE n = 8`, "work units done and complete, which cannot be"},
		{"units_done past the end", `UPDATE builds SET units_done = units_total + 5, complete = 0 WHERE n = 8`, "which cannot be"},
		{"units_total edited", `UPDATE builds SET units_total = 3, units_done = 3 WHERE n = 8`, "the build records 3 work units in all, the search of the whole board has"},
		{"shard_count edited", `UPDATE builds SET shard_count = 4 WHERE n = 8`, "the search of shard 0/4 has"},
		{"shard_index edited", `UPDATE builds SET shard_index = 2 WHERE n = 8`, "shard index 2 of 0, which is no shard"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			db := builtCatalog(t, "7,8")
			if out, _, err := runCLI(t, "--db", db, "verify"); err != nil {
				t.Fatalf("verify before tampering: %v\n%s", err, out)
			}
			edit(t, db, tt.sql)
			out, _, err := runCLI(t, "--db", db, "verify")
			if !errors.Is(err, errMismatch) {
				t.Fatalf("verify after %s: err = %v, want errMismatch\n%s", tt.name, err, out)
			}
			if !strings.Contains(out, "n=8 MISMATCH: ") || !strings.Contains(out, tt.want) {
				t.Errorf("verify output does not name the problem %q:\n%s", tt.want, out)
			}
			if !strings.Contains(out, "n=7 ok: 40 solutions in 6 classes") {
				t.Errorf("verify output does not pass the untouched n=7:\n%s", out)
			}
		})
	}
}

// TestVerifyCatchesDroppedView drops the class_list and class_boards
// views: verify names each and exits 3, while the classes themselves
// check out.
func TestVerifyCatchesDroppedView(t *testing.T) {
	t.Parallel()
	for _, view := range []string{"class_list", "class_boards"} {
		db := builtAndEdited(t, `DROP VIEW `+view)
		out, _, err := runCLI(t, "--db", db, "verify")
		if !errors.Is(err, errMismatch) || !strings.Contains(err.Error(), "the catalog as a whole does not check out") {
			t.Fatalf("verify after dropping %s: %v\n%s", view, err, out)
		}
		if !strings.Contains(out, "catalog MISMATCH: the view "+view+" is missing from the schema") || !strings.Contains(out, "n=8 ok") {
			t.Errorf("verify output after dropping %s:\n%s", view, out)
		}
	}
}

// TestBuildRefusesOrphanClasses deletes the builds row of a built n: a
// build of that n says what is wrong and how to mend it, instead of
// failing on a constraint, and after the fix builds it again.
func TestBuildRefusesOrphanClasses(t *testing.T) {
	t.Parallel()
	db := builtAndEdited(t, `DELETE FROM builds WHERE n = 8`)
	_, _, err := runCLI(t, "--db", db, "-q", "build", "8")
	if err == nil || !strings.Contains(err.Error(), "holds 12 classes of n=8 but no record of their build") ||
		!strings.Contains(err.Error(), `"DELETE FROM classes WHERE n = 8"`) || strings.Contains(err.Error(), "constraint") {
		t.Fatalf("build over orphan classes: %v", err)
	}
	edit(t, db, `DELETE FROM classes WHERE n = 8`)
	if _, _, err := runCLI(t, "--db", db, "-q", "build", "8"); err != nil {
		t.Fatalf("build after the fix: %v", err)
	}
	if out, _, err := runCLI(t, "--db", db, "verify"); err != nil {
		t.Fatalf("verify after the fix: %v\n%s", err, out)
	}
}

func TestExitCodes(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "c.db")
	tests := []struct {
		args []string
		want int
	}{
		{[]string{"count", "8"}, exitOK},
		{[]string{"--db", db, "-q", "build", "5"}, exitOK},
		{[]string{"--db", db, "verify", "5"}, exitOK},
		// An n the catalog lacks is missing, not damage: exit 1; damage
		// beside it still exits 3.
		{[]string{"--db", db, "verify", "6"}, exitError},
		{[]string{"--db", db, "verify", "5", "6"}, exitError},
		{[]string{"--db", db, "export", "6"}, exitError},
		{[]string{"--db", filepath.Join(t.TempDir(), "none.db"), "stats"}, exitError},
		{[]string{"count", "0"}, exitUsage},
		{[]string{"count"}, exitUsage},
		{[]string{"export", "5", "--format", "xml"}, exitUsage},
		{[]string{"frobnicate"}, exitUsage},
		{[]string{"count", "8", "--no-such-flag"}, exitUsage},
		{[]string{"build", "33"}, exitUsage},
	}
	for _, tt := range tests {
		_, _, err := runCLI(t, tt.args...)
		if got := exitCode(err); got != tt.want {
			t.Errorf("nqueens %v: exit status %d (%v), want %d", tt.args, got, err, tt.want)
		}
	}
}

// TestInterruptedBuildResumes cancels a build part way, as Ctrl-C does,
// checks that the catalog reports the n incomplete and refuses to export
// it, then builds again and checks that the build resumes and verifies.
// It sets testHookUnitAdded, which every build in this process calls, so
// it does not run in parallel.
func TestInterruptedBuildResumes(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut bytes.Buffer
	done := make(chan error)
	// Cancel a third of the way through, as Ctrl-C would.
	testHookUnitAdded = func(_ context.Context, unit int) {
		if unit == len(canonical.Units(14))/3 {
			cancel()
		}
	}
	defer func() { testHookUnitAdded = nil }()
	go func() { done <- run(ctx, []string{"--db", db, "build", "14", "--workers", "1"}, &out, &errOut) }()
	err := <-done
	if err == nil || !strings.Contains(err.Error(), "interrupted: n=14 stopped after") || !strings.Contains(err.Error(), "run the same build again to resume") {
		t.Fatalf("interrupted build: err = %v", err)
	}
	stats, _, _ := runCLI(t, "--db", db, "stats", "--json")
	if !strings.Contains(stats, `"complete": false`) {
		t.Fatalf("interrupted build reported complete:\n%s", stats)
	}
	if _, _, err := runCLI(t, "--db", db, "export", "14"); err == nil || !strings.Contains(err.Error(), "only partly built") {
		t.Fatalf("export of an incomplete n: %v", err)
	}
	if _, _, err := runCLI(t, "--db", db, "verify", "14"); !errors.Is(err, errMismatch) {
		t.Fatalf("verify of an incomplete n: %v", err)
	}
	_, stderr, err := runCLI(t, "--db", db, "build", "14")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "n=14: resuming at work unit") {
		t.Errorf("second build did not resume:\n%s", stderr)
	}
	out2, _, err := runCLI(t, "--db", db, "verify", "14")
	if err != nil || !strings.Contains(out2, "n=14 ok: 365,596 solutions in 45,752 classes") {
		t.Fatalf("verify after resume: %v\n%s", err, out2)
	}
}

// builtAndEdited builds n=8 into a new catalog, runs the SQL statements
// stmts on it behind nqueens' back, and returns its path.
func builtAndEdited(t *testing.T, stmts string) string {
	t.Helper()
	db := builtCatalog(t, "8")
	edit(t, db, stmts)
	return db
}

// edit runs the SQL statements stmts on the catalog at db.
func edit(t *testing.T, db, stmts string) {
	t.Helper()
	sdb, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	if _, err := sdb.Exec(stmts); err != nil {
		t.Fatal(err)
	}
}

// TestInterruptedCountKeepsFinishedRows cancels count 10-13 as it starts
// n = 13, as Ctrl-C does: the rows of n = 10 to 12 are printed, in the
// table and in --json, and the error names the n interrupted and says the
// rows printed are complete. It sets testHookCountStart, which every count
// in this process calls, so it does not run in parallel.
func TestInterruptedCountKeepsFinishedRows(t *testing.T) {
	defer func() { testHookCountStart = nil }()
	for _, asJSON := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		testHookCountStart = func(n int) {
			if n == 13 {
				cancel()
			}
		}
		args := []string{"count", "10-13", "-q"}
		if asJSON {
			args = append(args, "--json")
		}
		var out, errOut bytes.Buffer
		err := run(ctx, args, &out, &errOut)
		cancel()
		if err == nil || err.Error() != "count n=13: interrupted (the counts of n=10 to 12, printed, are complete)" {
			t.Errorf("json %v: err = %v", asJSON, err)
		}
		if !asJSON {
			for _, row := range []string{"10 724 92 ", "11 2680 341 ", "12 14200 1787 "} {
				if !strings.Contains(strings.Join(strings.Fields(out.String()), " "), row) {
					t.Errorf("no row %q in\n%s", row, out.String())
				}
			}
			continue
		}
		var rows []struct{ N, Total int }
		if err := json.Unmarshal(out.Bytes(), &rows); err != nil || len(rows) != 3 || rows[2].N != 12 || rows[2].Total != 14200 {
			t.Errorf("--json: %v, %+v\n%s", err, rows, out.String())
		}
	}
	// Interrupted as it measures the search rate for a long count (n = 19,
	// which it warns of): the rows before are kept too.
	ctx, cancel := context.WithCancel(context.Background())
	testHookCountStart = func(n int) {
		if n == 19 {
			cancel()
		}
	}
	var out, errOut bytes.Buffer
	err := run(ctx, []string{"count", "10,19", "-q"}, &out, &errOut)
	cancel()
	if err == nil || !strings.Contains(err.Error(), "interrupted") || !strings.Contains(err.Error(), "(the counts of n=10, printed, are complete)") ||
		!strings.Contains(strings.Join(strings.Fields(out.String()), " "), "10 724 92 ") {
		t.Errorf("interrupted before n = 19: err = %v, stdout %q", err, out.String())
	}
}

// countingMeter counts the steps added to it, and whether it is done.
type countingMeter struct {
	progress.Meter
	added int64
	done  bool
}

func (m *countingMeter) Add(k int64) { m.added += k; m.Meter.Add(k) }
func (m *countingMeter) Done()       { m.done = true; m.Meter.Done() }

// TestVerifyShowsProgress verifies n = 8 and 12 with a threshold of 1,000
// classes for progress: n = 12 (1,787 classes) gets a meter that counts
// every class and is done, n = 8 (12) none, and stdout is verify's as
// ever. It sets package variables, so it does not run in parallel.
func TestVerifyShowsProgress(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "c.db")
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"build", "8,12", "-q", "--db", db}, &out, &errOut); err != nil {
		t.Fatal(err, errOut.String())
	}
	defer func(from uint64) { verifyProgressFrom, testHookVerifyMeter = from, nil }(verifyProgressFrom)
	verifyProgressFrom = 1000
	meters := map[int]*countingMeter{}
	testHookVerifyMeter = func(n int, m progress.Meter) progress.Meter {
		if m == progress.Nop {
			return m
		}
		meters[n] = &countingMeter{Meter: m}
		return meters[n]
	}
	out.Reset()
	if err := run(context.Background(), []string{"verify", "--db", db}, &out, &errOut); err != nil {
		t.Fatal(err, errOut.String())
	}
	if want := "n=8 ok: 92 solutions in 12 classes\nn=12 ok: 14,200 solutions in 1,787 classes\n"; out.String() != want {
		t.Errorf("verify printed %q, want %q", out.String(), want)
	}
	if len(meters) != 1 || meters[12] == nil || meters[12].added != 1787 || !meters[12].done {
		t.Errorf("meters %+v: want one for n=12, of 1787 classes, done", meters)
	}
}

// TestVerifySampleSeed moves a class between the two prefixes of each
// pair of the index of n = 12 (the sums of every block kept, the blocks
// resealed), so that each prefix searched again names itself, and
// verifies a sample of 5 prefixes: the same --seed searches the same
// prefixes, another seed others, and the seed a run without --seed
// prints, text or JSON, draws its prefixes again.
func TestVerifySampleSeed(t *testing.T) {
	t.Parallel()
	orig := filepath.Join(t.TempDir(), "index.db")
	if _, stderr, err := runCLI(t, "--db", orig, "build", "12", "--index", "-q"); err != nil {
		t.Fatalf("build: %v\n%s", err, stderr)
	}
	depth := indexDepth(t, orig, 12)
	db := tamperedCopy(t, orig, editBlocks(t, orig, func(blocks map[int64][]byte) {
		for k, data := range blocks {
			blocks[k] = editEntries(data, depth, func(classes []uint64) {
				for i := 0; i+1 < len(classes); i += 2 {
					if classes[i+1] > 0 {
						classes[i]++
						classes[i+1]--
					}
				}
			})
		}
	})+reseal)
	searched := regexp.MustCompile(`index prefix (\d+) `)
	verify := func(args ...string) (stdout string, prefixes []string) {
		t.Helper()
		stdout, stderr, err := runCLI(t, append([]string{"--db", db, "verify", "12", "--sample", "5"}, args...)...)
		if exitCode(err) != exitMismatch {
			t.Fatalf("verify %v: exit %d (%v), want %d\n%s%s", args, exitCode(err), err, exitMismatch, stdout, stderr)
		}
		for _, m := range searched.FindAllStringSubmatch(stdout, -1) {
			if !slices.Contains(prefixes, m[1]) {
				prefixes = append(prefixes, m[1])
			}
		}
		if len(prefixes) == 0 || len(prefixes) > 5 {
			t.Fatalf("verify %v names %d prefixes, want 1 to 5:\n%s", args, len(prefixes), stdout)
		}
		return stdout, prefixes
	}
	one, onePrefixes := verify("--seed", "1")
	if again, _ := verify("--seed", "1"); again != one {
		t.Errorf("two runs with --seed 1 differ:\n%s\n%s", one, again)
	}
	if !strings.HasPrefix(one, "n=12 sample: 5 of 275 index prefixes searched again, seed 1 (nqueens verify 12 --sample 5 --seed 1 --db ") {
		t.Errorf("the report of a sample does not begin with its seed:\n%s", one)
	}
	if _, two := verify("--seed", "2"); slices.Equal(two, onePrefixes) {
		t.Errorf("seeds 1 and 2 searched the same prefixes %v", two)
	}
	drawn, _ := verify()
	m := regexp.MustCompile(`^n=12 sample: 5 of 275 index prefixes searched again, seed (\d+) `).FindStringSubmatch(drawn)
	if m == nil {
		t.Fatalf("verify --sample without --seed prints no seed:\n%s", drawn)
	}
	if again, _ := verify("--seed", m[1]); again != drawn {
		t.Errorf("--seed %s, the seed printed, searched other prefixes:\n%s\nthan the run that printed it:\n%s", m[1], again, drawn)
	}
	// The JSON report holds the seed and the same problems.
	out, _, _ := runCLI(t, "--db", db, "verify", "12", "--sample", "5", "--seed", "1", "--json")
	var reports []struct {
		N      int
		Sample struct {
			Seed     uint64
			Prefixes int64
			Of       int64
		}
		Problems []string
	}
	if err := json.Unmarshal([]byte(out), &reports); err != nil || len(reports) != 1 {
		t.Fatalf("verify --json: %v\n%s", err, out)
	}
	if r := reports[0]; r.Sample.Seed != 1 || r.Sample.Prefixes != 5 || r.Sample.Of != 275 || len(r.Problems) == 0 || !strings.Contains(one, r.Problems[0]) {
		t.Errorf("verify --json: %+v, want the sample of seed 1 and the problems of the text report:\n%s", r, one)
	}
}
