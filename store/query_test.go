package store

import (
	"database/sql"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pressly/goose/v3"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/enumerate"
	"github.com/nqueens/nqueens/migrations"
)

// matching returns the classes of all that f selects, by its definition.
func matching(all []nqueens.Layout, f Filter) []nqueens.Layout {
	var out []nqueens.Layout
	skipped := int64(0)
	for _, l := range all {
		if (f.From > 0 && l.Class < f.From) || (f.To > 0 && l.Class > f.To) {
			continue
		}
		if len(f.Symmetry) > 0 && !slices.Contains(f.Symmetry, l.Symmetry) {
			continue
		}
		if f.Square != nil && l.Placement.Cols()[f.Square.Row] != f.Square.Col {
			continue
		}
		if skipped < f.Offset {
			skipped++
			continue
		}
		if f.Limit > 0 && int64(len(out)) == f.Limit {
			break
		}
		out = append(out, l)
	}
	return out
}

// TestFilterSelectsTheSlice checks, for n = 12 (1,787 classes: 1,765 of
// orbit 8, 18 of orbit 4, 4 of orbit 2), that Classes, Count and Layouts
// with a filter give exactly the matching slice of the unfiltered list,
// with the same class numbers.
func TestFilterSelectsTheSlice(t *testing.T) {
	const n = 12
	db := open(t, filepath.Join(t.TempDir(), "c.db"))
	b := run(t, db, n)
	all := classes(t, db, n)
	none, r180, r90 := nqueens.SymNone, nqueens.SymRot180, nqueens.SymRot90
	for _, f := range []Filter{
		{},
		{From: 1, To: 1},
		{From: 1000, To: 1099},
		{From: 1787},
		{To: 5},
		{Symmetry: []nqueens.Symmetry{r90}},
		{Symmetry: []nqueens.Symmetry{r180}},
		{Symmetry: []nqueens.Symmetry{r180, r90}},
		{Symmetry: []nqueens.Symmetry{none}},
		{Symmetry: []nqueens.Symmetry{nqueens.SymFull}},
		{Symmetry: []nqueens.Symmetry{r180}, From: 500, To: 1500},
		{Offset: 100, Limit: 100},
		{Offset: 1780, Limit: 100},
		{Offset: 5000, Limit: 100},
		{Symmetry: []nqueens.Symmetry{r180}, Offset: 5, Limit: 10},
		{Symmetry: []nqueens.Symmetry{none}, From: 10, To: 20, Offset: 3},
		{Square: &nqueens.Square{Row: 0, Col: 3}},
		{Square: &nqueens.Square{Row: 11, Col: 0}},
		{Square: &nqueens.Square{Row: 5, Col: 11}, From: 100, To: 1200},
		{Square: &nqueens.Square{Row: 0, Col: 3}, Offset: 20, Limit: 15},
		{Square: &nqueens.Square{Row: 0, Col: 0}},
		{Square: &nqueens.Square{Row: 6, Col: 4}, Symmetry: []nqueens.Symmetry{r180, r90}},
	} {
		want := matching(all, f)
		got := slices.Collect(func(yield func(nqueens.Layout) bool) {
			for l, err := range db.Classes(ctx, n, f) {
				if err != nil {
					t.Fatal(err)
				}
				if !yield(l) {
					return
				}
			}
		})
		if !slices.Equal(got, want) {
			t.Errorf("%+v: %d classes, want %d", f, len(got), len(want))
		}
		if k, err := db.Count(ctx, b, f); err != nil || k != uint64(len(want)) {
			t.Errorf("%+v: Count = %d, %v; want %d", f, k, err, len(want))
		}
		layouts, total, err := db.Layouts(ctx, b, Selection{Filter: f, All: true})
		if err != nil {
			t.Fatal(err)
		}
		var solutions uint64
		for _, l := range want {
			solutions += uint64(l.Symmetry.Orbit())
		}
		var read uint64
		for _, err := range layouts {
			if err != nil {
				t.Fatalf("%+v: %v", f, err)
			}
			read++
		}
		if total != solutions || read != solutions {
			t.Errorf("%+v --all: %d solutions announced, %d read; want %d", f, total, read, solutions)
		}
	}
	for _, f := range []Filter{{From: 1788}, {From: 5, To: 2000}, {To: -1}} {
		if _, err := db.Count(ctx, b, f); !errors.Is(err, ErrNoClass) {
			t.Errorf("%+v: Count error %v, want ErrNoClass", f, err)
		}
	}
	for sq, msg := range map[nqueens.Square]string{{Row: 12, Col: 0}: "square 12,0: n=12 has rows 0 to 11, no row 12", {Row: 0, Col: 20}: "square 0,20: n=12 has columns 0 to 11, no column 20"} {
		if _, err := db.Count(ctx, b, Filter{Square: &sq}); err == nil || err.Error() != msg {
			t.Errorf("square %s: Count error %v, want %q", sq, err, msg)
		}
	}
	if _, err := db.Count(ctx, b, Filter{From: 9, To: 3}); err == nil {
		t.Errorf("a range that runs downwards is accepted")
	}
}

// TestFinderFindsEveryClass looks up every solution of n = 4..12 (n = 11
// and 12 have more classes than a Finder reads in one block) and
// checks the class against the list of classes; a placement whose class
// the catalog lacks is ErrNoClass.
func TestFinderFindsEveryClass(t *testing.T) {
	db := open(t, filepath.Join(t.TempDir(), "c.db"))
	for n := 4; n <= 12; n++ {
		b := run(t, db, n)
		all := classes(t, db, n)
		f := db.Finder(b)
		i := 0
		for p := range enumerate.Solutions(n) {
			c := canonical.Fold(p)
			k, err := f.Find(ctx, c)
			if err != nil || all[k-1].Placement != c {
				t.Fatalf("Find(%s) = %d, %v", c, k, err)
			}
			// Lookup, a Finder of its own each time, on a sample.
			if i++; i%37 == 1 {
				l, err := db.Lookup(ctx, b, p)
				if err != nil || l.Placement != c || l.Class != k || l.Symmetry != all[k-1].Symmetry {
					t.Fatalf("Lookup(%s) = %+v, %v; want class %d", p, l, err, k)
				}
			}
		}
		if f.Probes() > len(all) {
			t.Errorf("n=%d: %d probes for %d classes", n, f.Probes(), len(all))
		}
	}
	b, _ := db.Build(ctx, 8)
	if _, err := db.Lookup(ctx, b, nqueens.MustNew(0, 1, 2, 3, 4, 5, 6, 7)); err == nil {
		t.Errorf("Lookup of a board that is not a solution: no error")
	}
	// A canonical placement the catalog lacks.
	if _, err := db.Finder(b).Find(ctx, nqueens.MustNew(0, 1, 2, 3, 4, 5, 6, 7)); !errors.Is(err, ErrNoClass) {
		t.Errorf("Find of a placement not stored: %v, want ErrNoClass", err)
	}
}

// TestMigrationNumbersClasses makes a catalog of schema version 2 (the
// schema before class numbers) holding n = 1..10 as version 2 stored them,
// opens it, and checks that the migration numbered every class in order:
// verify passes, and class K is the K-th in lexicographic order.
func TestMigrationNumbersClasses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v2.db")
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, raw, migrations.FS,
		goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 2); err != nil {
		t.Fatal(err)
	}
	want := map[int][]nqueens.Layout{}
	for n := 1; n <= 10; n++ {
		var c nqueens.Counts
		// Inserted in reverse, so that the numbers come from the order of
		// the placements, not of the rows.
		ls := slices.Collect(canonical.Classes(ctx, n, 1))
		for i := len(ls) - 1; i >= 0; i-- {
			if _, err := raw.Exec(`INSERT INTO classes (n, placement, orbit) VALUES (?, ?, ?)`, n, ls[i].Placement.Key(), ls[i].Symmetry.Orbit()); err != nil {
				t.Fatal(err)
			}
			c.Add(ls[i].Symmetry)
		}
		units := len(canonical.Units(n))
		if _, err := raw.Exec(`INSERT INTO builds (n, total, unique_count, orbit8, orbit4, orbit2, orbit1, complete, units_done, units_total, started_at, seconds)
			VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, '2026-01-01T00:00:00Z', 0.1)`, n, c.Total, c.Unique, c.Orbit8, c.Orbit4, c.Orbit2, c.Orbit1, units, units); err != nil {
			t.Fatal(err)
		}
		for i := range ls {
			ls[i].Class = int64(i + 1)
		}
		want[n] = ls
	}
	raw.Close()

	// Read-only, the catalog keeps its schema, and reads number the
	// classes as they go.
	ro, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	b10, _ := ro.Build(ctx, 10)
	for _, f := range []Filter{{From: 5, To: 60}, {Symmetry: []nqueens.Symmetry{nqueens.SymRot180}}, {Offset: 10, Limit: 7}, {Square: &nqueens.Square{Row: 0, Col: 2}, Offset: 3}} {
		var got []nqueens.Layout
		for l, err := range ro.Classes(ctx, 10, f) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, l)
		}
		if w := matching(want[10], f); !slices.Equal(got, w) {
			t.Errorf("schema 2, %+v: %d classes, want %d", f, len(got), len(w))
		}
		if k, err := ro.Count(ctx, b10, f); err != nil || k != uint64(len(matching(want[10], f))) {
			t.Errorf("schema 2, %+v: Count = %d, %v", f, k, err)
		}
	}
	if l, err := ro.Lookup(ctx, b10, want[10][40].Placement); err != nil || l.Class != 41 {
		t.Errorf("schema 2: Lookup of class 41 = %+v, %v", l, err)
	}
	ro.Close()
	if v := schemaVersion(t, path); v != 2 {
		t.Fatalf("schema version %d after a read-only open, want 2", v)
	}

	db := open(t, path)
	if v := schemaVersion(t, path); v != latestSchema {
		t.Fatalf("schema version %d after Open, want %d", v, latestSchema)
	}
	recountAll(t, db)
	for n, ls := range want {
		if got := classes(t, db, n); !slices.Equal(got, ls) {
			t.Errorf("n=%d after the migration: %d classes, want %d in order", n, len(got), len(ls))
		}
		for _, l := range ls {
			if got, err := db.Class(ctx, n, l.Class); err != nil || got != l {
				t.Errorf("Class(%d, %d) = %v, %v; want %v", n, l.Class, got, err, l)
			}
		}
	}
	// The view answers as before, by class and by placement.
	var key string
	var class int64
	if err := rawQuery(t, path, `SELECT placement FROM class_list WHERE n = 10 AND class = 92`, &key); err != nil || key != want[10][91].Placement.Key() {
		t.Errorf("class_list class 92 of n=10: %q, %v", key, err)
	}
	if err := rawQuery(t, path, fmt.Sprintf(`SELECT class FROM class_list WHERE n = 10 AND placement = '%s'`, want[10][40].Placement.Key()), &class); err != nil || class != 41 {
		t.Errorf("class_list placement of class 41 of n=10: %d, %v", class, err)
	}
}

// rawQuery runs a one-value query on the catalog at path with SQL alone.
func rawQuery(t *testing.T, path, query string, dest any) error {
	t.Helper()
	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	return raw.QueryRow(query).Scan(dest)
}

// TestClassTable joins a catalog's ClassTable with the search of every
// solution of n = 4..10 in lexicographic order (canonical.LexLayouts),
// with filters too (a square's on the class's canonical board): the plain search's order, each with the class and
// symmetry of the class-by-class export, as many as Layouts announces.
func TestClassTable(t *testing.T) {
	db := open(t, filepath.Join(t.TempDir(), "c.db"))
	for n := 4; n <= 10; n++ {
		b := run(t, db, n)
		classOf := map[nqueens.Placement]nqueens.Layout{}
		for _, l := range classes(t, db, n) {
			for _, p := range canonical.Orbit(l.Placement) {
				classOf[p] = l
			}
		}
		filters := []Filter{{}, {Symmetry: []nqueens.Symmetry{nqueens.SymRot180}}, {Square: &nqueens.Square{Row: 0, Col: 1}}}
		if b.Unique >= 7 {
			filters = append(filters, Filter{From: 3, To: 7})
		}
		for _, f := range filters {
			_, want, err := db.Layouts(ctx, b, Selection{Filter: f, All: true})
			if err != nil {
				t.Fatal(err)
			}
			table, err := db.ClassTable(ctx, b, f)
			if err != nil {
				t.Fatalf("n=%d %+v: %v", n, f, err)
			}
			got := slices.Collect(canonical.LexLayouts(ctx, n, 2, table.Find))
			var expect []nqueens.Layout
			for p := range enumerate.Solutions(n) {
				c := classOf[p]
				if (f.From == 0 || c.Class >= f.From && c.Class <= f.To) && (len(f.Symmetry) == 0 || slices.Contains(f.Symmetry, c.Symmetry)) &&
					(f.Square == nil || f.Square.Holds(c.Placement)) {
					expect = append(expect, nqueens.Layout{Class: c.Class, Placement: p, Symmetry: c.Symmetry})
				}
			}
			if !slices.Equal(got, expect) || want != uint64(len(expect)) {
				t.Errorf("n=%d %+v: %d layouts (announced %d), want %d in lexicographic order", n, f, len(got), want, len(expect))
			}
		}
	}
	b, err := db.Complete(ctx, 8)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ClassTable(ctx, b, Filter{Limit: 3}); err == nil {
		t.Error("ClassTable with a limit: no error")
	}
	if _, err := db.ClassTable(ctx, b, Filter{To: 13}); !errors.Is(err, ErrNoClass) {
		t.Errorf("ClassTable of classes 1-13 of n=8's 12: %v, want ErrNoClass", err)
	}
}

// TestClassBoardsView reads the class_boards view of n = 1..10 and 12 in
// plain SQL, through the driver and, where it is installed, the sqlite3
// shell (which knows no function of this program): each class's board is
// its placement as the exports write it, r0 .. r31 its columns and NULL
// beyond n, and the recipe of docs/catalog.md selects the classes whose
// canonical board has a queen on a square, as a square filter does.
func TestClassBoardsView(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	db := open(t, path)
	ns := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12}
	for _, n := range ns {
		run(t, db, n)
	}
	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	cols := "n, class, placement, orbit, symmetry, board"
	for r := range nqueens.MaxN {
		cols += fmt.Sprintf(", r%d", r)
	}
	rows, err := raw.Query(`SELECT ` + cols + ` FROM class_boards ORDER BY n, class`)
	if err != nil {
		t.Fatal(err)
	}
	var got []nqueens.Layout
	for rows.Next() {
		var n int
		var l nqueens.Layout
		var key, symmetry, board string
		var orbit int
		var rs [nqueens.MaxN]sql.NullInt64
		dest := []any{&n, &l.Class, &key, &orbit, &symmetry, &board}
		for i := range rs {
			dest = append(dest, &rs[i])
		}
		if err := rows.Scan(dest...); err != nil {
			t.Fatal(err)
		}
		p, err := nqueens.ParseKey(key)
		if err != nil {
			t.Fatal(err)
		}
		l.Placement = p
		l.Symmetry, _ = nqueens.SymmetryOfOrbit(orbit)
		if board != p.String() || symmetry != l.Symmetry.String() {
			t.Errorf("n=%d class %d: board %q, symmetry %q; want %q, %q", n, l.Class, board, symmetry, p.String(), l.Symmetry)
		}
		for r, v := range rs {
			if (r < n) != v.Valid || (r < n && int(v.Int64) != p.Cols()[r]) {
				t.Errorf("n=%d class %d: r%d = %v, want column %v", n, l.Class, r, v, r < n && true)
			}
		}
		got = append(got, l)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	var want []nqueens.Layout
	for _, n := range ns {
		want = append(want, classes(t, db, n)...)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("class_boards: %d classes, want %d in order", len(got), len(want))
	}

	// The recipe, as a square filter reads it.
	const recipe = `SELECT class, board FROM class_boards WHERE n = 12 AND r0 = 3`
	b, _ := db.Build(ctx, 12)
	var sq strings.Builder
	for l, err := range db.Classes(ctx, 12, Filter{Square: &nqueens.Square{Row: 0, Col: 3}}) {
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sq, "%d|%s\n", l.Class, l.Placement)
	}
	if k, _ := db.Count(ctx, b, Filter{Square: &nqueens.Square{Row: 0, Col: 3}}); k == 0 || strings.Count(sq.String(), "\n") != int(k) {
		t.Fatalf("square 0,3 of n=12: %d classes counted, %d read", k, strings.Count(sq.String(), "\n"))
	}
	var viaDriver strings.Builder
	rows, err = raw.Query(recipe)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var k int64
		var board string
		if err := rows.Scan(&k, &board); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&viaDriver, "%d|%s\n", k, board)
	}
	if viaDriver.String() != sq.String() {
		t.Errorf("%s through the driver:\n%s\nwant the square filter's\n%s", recipe, viaDriver.String(), sq.String())
	}
	shell, err := exec.LookPath("sqlite3")
	if err != nil {
		t.Logf("no sqlite3 shell on PATH: the recipe ran through the driver only")
		return
	}
	out, err := exec.Command(shell, path, recipe).Output()
	if err != nil {
		t.Fatalf("sqlite3 %s: %v", recipe, err)
	}
	if string(out) != sq.String() {
		t.Errorf("sqlite3 %s:\n%s\nwant the square filter's\n%s", recipe, out, sq.String())
	}
}
