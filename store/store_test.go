package store

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/internal/testutil"
)

func TestBuildAndRead(t *testing.T) {
	db := open(t, filepath.Join(t.TempDir(), "c.db"))
	for _, n := range []int{1, 3, 6, 8, 10} {
		want, _ := nqueens.KnownCounts(n)
		units := canonical.Units(n)
		b, err := db.begin(ctx, n, len(units))
		if err != nil {
			t.Fatal(err)
		}
		if b.Resume() != 0 {
			t.Fatalf("n=%d: new build resumes at %d", n, b.Resume())
		}
		build(t, b, units, 0, len(units))
		got, err := b.Finish()
		if err != nil {
			t.Fatal(err)
		}
		if !got.Complete || got.Total != want.Total || got.Unique != want.Unique {
			t.Errorf("n=%d: Finish = %+v", n, got)
		}
		classes := slices.Collect(canonical.Classes(ctx, n, 1))
		var read []nqueens.Layout
		for l, err := range db.Classes(ctx, n, Filter{}) {
			if err != nil {
				t.Fatal(err)
			}
			read = append(read, l)
		}
		if !slices.Equal(read, classes) {
			t.Errorf("n=%d: read back %d classes, want %d (or they differ)", n, len(read), len(classes))
		}
		if want.Unique > 0 {
			last, err := db.Class(ctx, n, int64(want.Unique))
			if err != nil || last != classes[len(classes)-1] {
				t.Errorf("n=%d: Class(last) = %v, %v", n, last, err)
			}
		}
		if _, err := db.Class(ctx, n, int64(want.Unique)+1); !errors.Is(err, ErrNoClass) {
			t.Errorf("n=%d: Class(unique+1) error = %v, want ErrNoClass", n, err)
		}
	}
	builds, err := db.Builds(ctx)
	if err != nil || len(builds) != 5 || builds[3].N != 8 || builds[3].Orbit8 != 11 || builds[3].Orbit4 != 1 {
		t.Errorf("Builds = %+v, %v", builds, err)
	}
	if _, err := db.Build(ctx, 9); !errors.Is(err, ErrNotBuilt) {
		t.Errorf("Build(9) error = %v, want ErrNotBuilt", err)
	}
	if _, err := db.begin(ctx, 8, len(canonical.Units(8))); !errors.Is(err, ErrComplete) {
		t.Errorf("Begin of a complete n: %v, want ErrComplete", err)
	}
}

func TestResumeAfterClose(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	db := open(t, path)
	const n = 11
	units := canonical.Units(n)
	b, err := db.begin(ctx, n, len(units))
	if err != nil {
		t.Fatal(err)
	}
	half := len(units) / 2
	build(t, b, units, 0, half)
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := db.Build(ctx, n)
	if err != nil || st.Complete || st.UnitsDone != half {
		t.Fatalf("after Close: %+v, %v", st, err)
	}
	db.Close()

	db = open(t, path)
	b, err = db.begin(ctx, n, len(units))
	if err != nil {
		t.Fatal(err)
	}
	if b.Resume() != half {
		t.Fatalf("Resume = %d, want %d", b.Resume(), half)
	}
	if err := b.Add(half+1, nil); err == nil {
		t.Fatal("Add out of order succeeded")
	}
	build(t, b, units, half, len(units))
	got, err := b.Finish()
	if err != nil || got.Total != 2680 || got.Unique != 341 || !got.Complete {
		t.Fatalf("Finish = %+v, %v", got, err)
	}
	// The classes are numbered 1.. in order across the two runs.
	recountAll(t, db)
	if k := len(classes(t, db, n)); k != 341 {
		t.Fatalf("%d classes stored, want 341", k)
	}
}

func TestRestartWhenUnitsDiffer(t *testing.T) {
	db := open(t, filepath.Join(t.TempDir(), "c.db"))
	units := canonical.Units(9)
	b, _ := db.begin(ctx, 9, len(units))
	build(t, b, units, 0, 3)
	b.Close()
	b, err := db.begin(ctx, 9, len(units)+1)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.Resume() != 0 || b.State().Unique != 0 {
		t.Fatalf("resume %d with %d classes, want a fresh start", b.Resume(), b.State().Unique)
	}
}

func TestOneBuilderAtATime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	db1, db2 := open(t, path), open(t, path)
	b, err := db1.begin(ctx, 8, len(canonical.Units(8)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db2.begin(ctx, 9, len(canonical.Units(9))); !errors.Is(err, ErrBusy) {
		t.Fatalf("second Begin: %v, want ErrBusy", err)
	}
	b.Close()
	b2, err := db2.begin(ctx, 9, len(canonical.Units(9)))
	if err != nil {
		t.Fatalf("Begin after the first closed: %v", err)
	}
	b2.Close()
}

func TestOpenRefusesForeignFilesUntouched(t *testing.T) {
	dir := t.TempDir()

	notSQLite := filepath.Join(dir, "notes.txt")
	os.WriteFile(notSQLite, bytes.Repeat([]byte("not a database\n"), 100), 0o644)

	foreign := filepath.Join(dir, "foreign.db")
	fdb, err := sql.Open("sqlite", foreign)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fdb.Exec(`CREATE TABLE t (x); INSERT INTO t VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	fdb.Close()

	newer := filepath.Join(dir, "newer.db")
	db, err := Open(ctx, newer, Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	ndb, _ := sql.Open("sqlite", newer)
	if _, err := ndb.Exec(`INSERT INTO goose_db_version (version_id, is_applied) VALUES (999, 1); PRAGMA journal_mode=DELETE`); err != nil {
		t.Fatal(err)
	}
	ndb.Close()

	truncated := filepath.Join(dir, "truncated.db")
	db, _ = Open(ctx, truncated, Options{Create: true})
	b, _ := db.begin(ctx, 10, len(canonical.Units(10)))
	build(t, b, canonical.Units(10), 0, len(canonical.Units(10)))
	b.Finish()
	db.Close()
	data, _ := os.ReadFile(truncated)
	os.WriteFile(truncated, data[:len(data)/2+100], 0o644)
	// A catalog with text appended, as `export 8 >> nqueens.db` would.
	appended := filepath.Join(dir, "appended.db")
	os.WriteFile(appended, append(data, "[[0,4,7,5,2,6,1,3]]\n"...), 0o644)

	for _, tt := range []struct {
		path string
		want error
		says string
	}{
		{notSQLite, ErrNotCatalog, "not a SQLite database"},
		{foreign, ErrNotCatalog, ""},
		{newer, ErrNewerSchema, ""},
		{truncated, ErrCorrupt, "shorter than the"},
		{appended, ErrCorrupt, "20 more than the"},
	} {
		before := testutil.Sum(t, tt.path)
		_, err := Open(ctx, tt.path, Options{Create: true})
		if !errors.Is(err, tt.want) || !strings.Contains(fmt.Sprint(err), tt.says) {
			t.Errorf("Open(%s) error = %v, want %v saying %q", filepath.Base(tt.path), err, tt.want, tt.says)
		}
		if testutil.Sum(t, tt.path) != before {
			t.Errorf("Open(%s) changed the file", filepath.Base(tt.path))
		}
	}
}

func TestOpenMissing(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(ctx, filepath.Join(dir, "none.db"), Options{}); !errors.Is(err, ErrNoCatalog) {
		t.Errorf("Open of a missing file: %v, want ErrNoCatalog", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "none.db")); !errors.Is(err, os.ErrNotExist) {
		t.Error("Open without Create made a file")
	}
	if _, err := Open(ctx, filepath.Join(dir, "no", "such", "dir.db"), Options{Create: true}); err == nil {
		t.Error("Open in a missing directory succeeded")
	}
	if _, err := Open(ctx, dir, Options{Create: true}); err == nil {
		t.Error("Open of a directory succeeded")
	}
}

func TestPathsWithSpecialCharacters(t *testing.T) {
	for _, name := range []string{"a b.db", "q'uote\".db", "semi;colon.db", "what?mode=ro#x.db", "100%.db"} {
		path := filepath.Join(t.TempDir(), name)
		db, err := Open(ctx, path, Options{Create: true})
		if err != nil {
			t.Fatalf("Open(%q): %v", name, err)
		}
		b, err := db.begin(ctx, 4, len(canonical.Units(4)))
		if err != nil {
			t.Fatal(err)
		}
		build(t, b, canonical.Units(4), 0, len(canonical.Units(4)))
		if _, err := b.Finish(); err != nil {
			t.Fatal(err)
		}
		db.Close()
		if _, err := os.Stat(path); err != nil {
			t.Errorf("catalog %q not at its path: %v", name, err)
		}
	}
}

// TestOpenMigratesOlderSchema makes a catalog of schema version 1 (before
// shard builds) holding n=8, and checks that Open brings it to the latest
// version with its data intact.
func TestOpenMigratesOlderSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.db")
	makeV1(t, path)

	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("Open of a version 1 catalog: %v", err)
	}
	defer db.Close()
	b, err := db.Build(ctx, 8)
	if err != nil || b.Total != 92 || b.Unique != 12 || !b.Complete || !b.Shard.IsWhole() {
		t.Fatalf("build of n=8 after the migration: %+v, %v", b, err)
	}
	if version := schemaVersion(t, path); version != latestSchema {
		t.Errorf("schema version %d after Open, want %d", version, latestSchema)
	}
	// The migration numbered the classes: class 1 is the one stored.
	if l, err := db.Class(ctx, 8, 1); err != nil || l.Placement.Key() != "04752613" {
		t.Errorf("class 1 of n=8 after the migration: %v, %v", l, err)
	}
}

// TestLayoutsCountsAndChecks reads every selection of n=8 and checks the
// counts, then deletes a class behind the store's back: the iterator ends
// with a CountError.
func TestLayoutsCountsAndChecks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	db := open(t, path)
	b := run(t, db, 8)
	for _, tt := range []struct {
		sel  Selection
		want uint64
	}{{Selection{}, 12}, {Selection{All: true}, 92}, {Selection{Filter: Filter{From: 3, To: 3}}, 1}, {Selection{All: true, Filter: Filter{From: 10, To: 10}}, 4}} {
		layouts, want, err := db.Layouts(ctx, b, tt.sel)
		if err != nil || want != tt.want {
			t.Fatalf("%+v: want %d, %v; expected %d", tt.sel, want, err, tt.want)
		}
		seen := map[nqueens.Placement]bool{}
		for l, err := range layouts {
			if err != nil {
				t.Fatal(err)
			}
			if l.Placement.Valid() != nil || seen[l.Placement] {
				t.Errorf("%+v: %v invalid or repeated", tt.sel, l.Placement)
			}
			seen[l.Placement] = true
		}
		if uint64(len(seen)) != tt.want {
			t.Errorf("%+v: %d distinct layouts, want %d", tt.sel, len(seen), tt.want)
		}
	}
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	// The last class deleted: every row left is right, and only the count
	// tells.
	twelve, err := db.Class(ctx, 8, 12)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`DELETE FROM classes WHERE n = 8 AND class = 12`); err != nil {
		t.Fatal(err)
	}
	layouts, _, _ := db.Layouts(ctx, b, Selection{All: true})
	var last error
	for _, err := range layouts {
		last = err
	}
	var ce *CountError
	if want := 92 - uint64(twelve.Symmetry.Orbit()); !errors.As(last, &ce) || ce.Got != want || ce.Want != 92 {
		t.Errorf("after deleting the last class the iterator ends with %v, want a CountError %d of 92", last, want)
	}
	// So does the lexicographic order, which finds the deleted class's
	// solutions nowhere in the table.
	table, err := db.ClassTable(ctx, b, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	last = nil
	for _, err := range table.Layouts(ctx, 2) {
		last = err
	}
	if want := 92 - uint64(twelve.Symmetry.Orbit()); !errors.As(last, &ce) || ce.Got != want || ce.Want != 92 {
		t.Errorf("after deleting the last class the lexicographic order ends with %v, want a CountError %d of 92", last, want)
	}
	// The first class deleted: the second is out of turn.
	if _, err := raw.Exec(`DELETE FROM classes WHERE n = 8 AND class = 1`); err != nil {
		t.Fatal(err)
	}
	layouts, _, _ = db.Layouts(ctx, b, Selection{All: true})
	for _, err := range layouts {
		last = err
	}
	if !errors.Is(last, ErrBadRow) || !strings.Contains(last.Error(), "n=8 class 2 (") || !strings.Contains(last.Error(), "is numbered out of turn: class 1 was due") {
		t.Errorf("after deleting the first class the iterator ends with %v, want class 2 out of turn", last)
	}
}

// TestBadTimestampIsAnError changes a build's started_at by hand to text
// that is no time: reading the build is an error naming n and the field,
// matching ErrBadRow, not a build that started at the zero time.
func TestBadTimestampIsAnError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	db := open(t, path)
	run(t, db, 6)
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	for _, set := range []string{`started_at = 'yesterday'`, `finished_at = '26/11/2026'`} {
		if _, err := raw.Exec(`UPDATE builds SET ` + set + ` WHERE n = 6`); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Build(ctx, 6); !errors.Is(err, ErrBadRow) || !strings.Contains(err.Error(), "read build n=6: ") {
			t.Errorf("%s: Build: %v, want ErrBadRow naming n=6", set, err)
		}
		if _, err := db.Builds(ctx); !errors.Is(err, ErrBadRow) {
			t.Errorf("%s: Builds: %v, want ErrBadRow", set, err)
		}
		raw.Exec(`UPDATE builds SET started_at = '2026-11-26T00:00:00Z', finished_at = '2026-11-26T00:00:01Z' WHERE n = 6`)
	}
}

// TestRunCommitRows builds n=10 with a commit after every unit that adds a
// class (CommitRows 1) and reads the build's progress from a second
// connection after each unit: it must see every unit that added classes
// committed at once, and never a unit not yet handed over.
func TestRunCommitRows(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "c.db")
	db := open(t, path)
	reader, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	seen, caughtUp := 0, 0
	_, err = db.Run(ctx, 10, nqueens.Shard{}, RunOptions{Workers: 1, CommitRows: 1, Progress: func(done, total int) {
		st, err := reader.Build(ctx, 10)
		if err != nil {
			t.Fatalf("after unit %d: %v", done-1, err)
		}
		switch st.UnitsDone {
		case done:
			caughtUp++
		case seen: // a unit that adds no class commits nothing
		default:
			t.Fatalf("after unit %d of %d: the reader sees %d units committed, want %d or %d", done-1, total, st.UnitsDone, seen, done)
		}
		seen = st.UnitsDone
	}})
	if err != nil {
		t.Fatal(err)
	}
	if caughtUp < 10 {
		t.Errorf("the reader saw the build committed after %d units, want one commit after each unit that adds classes", caughtUp)
	}
}
