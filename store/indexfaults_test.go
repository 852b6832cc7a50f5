package store

import (
	"database/sql"
	"errors"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nqueens/nqueens"
)

// indexedCopy builds n as an index in a new catalog, runs the statements
// edit on it (if any), and opens it read-only.
func indexedCopy(t *testing.T, n int, edit string) (*DB, Build) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "c.db")
	db := open(t, path)
	runIndex(t, db, n)
	db.Close()
	if edit != "" {
		raw, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		_, err = raw.Exec(edit)
		raw.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	ro, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ro.Close() })
	b, err := ro.Build(ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	return ro, b
}

// TestIndexBlockBelowZero adds to the index of n = 13 a copy of block 3
// numbered -1, with 5 classes fewer before it, resealed: no class is
// answered unlike the intact index's with no error, a read of every class
// and a recount refuse it.
func TestIndexBlockBelowZero(t *testing.T) {
	t.Parallel()
	intact, _ := indexedCopy(t, 13, "")
	want := classes(t, intact, 13)
	db, b := indexedCopy(t, 13, `INSERT INTO index_blocks (n, block, first_entry, entries, classes_before, solutions_before, orbit4_before, orbit2_before, orbit1_before, first_prefix, checksum, data)
		SELECT n, -1, first_entry, entries, classes_before - 5, solutions_before, orbit4_before, orbit2_before, orbit1_before, first_prefix, 0, data FROM index_blocks WHERE n = 13 AND block = 3;
		UPDATE index_blocks SET checksum = nqueens_block_checksum(n, block, first_entry, entries, classes_before, solutions_before, orbit4_before, orbit2_before, orbit1_before, first_prefix, data) WHERE n = 13 AND block = -1`)
	for k := int64(1); k <= int64(b.Unique); k += 97 {
		if l, err := db.Class(ctx, 13, k); err == nil && l != want[k-1] {
			t.Errorf("class %d is %v with no error, the intact index's %v", k, l, want[k-1])
		} else if err != nil && !errors.Is(err, ErrBadRow) {
			t.Errorf("class %d: %v", k, err)
		}
	}
	// A walk from class 1 reads block 0 on, and never the forged block:
	// it answers as the intact index does (or refuses).
	var got []nqueens.Layout
	for l, err := range db.Classes(ctx, 13, Filter{}) {
		if err != nil {
			if !errors.Is(err, ErrBadRow) {
				t.Errorf("every class: %v", err)
			}
			got = want
			break
		}
		got = append(got, l)
	}
	if !slices.Equal(got, want) {
		t.Errorf("every class read with no error, %d of them, unlike the intact index's", len(got))
	}
	var problems []string
	_, ok, err := db.Recount(ctx, b, RecountOptions{Problem: func(p string) { problems = append(problems, p) }})
	if ok || err != nil || len(problems) == 0 {
		t.Errorf("Recount: ok %t, %v, problems %q; want the block named", ok, err, problems)
	}
}

// TestIndexSymmetricDropped drops the second class of symmetry rot180
// from the index of n = 10's list: every page, range and count that relies
// on the list is refused as damage, as a read of the whole list is; a read
// that searches the classes instead answers as the intact index does.
func TestIndexSymmetricDropped(t *testing.T) {
	t.Parallel()
	intact, _ := indexedCopy(t, 10, "")
	db, b := indexedCopy(t, 10, `DELETE FROM index_symmetric WHERE n = 10 AND class = (SELECT class FROM index_symmetric WHERE n = 10 AND orbit = 4 ORDER BY class LIMIT 1 OFFSET 1)`)
	rot180 := []nqueens.Symmetry{nqueens.SymRot180}
	none := []nqueens.Symmetry{nqueens.SymNone}
	for _, f := range []Filter{
		{Symmetry: rot180},
		{Symmetry: rot180, Offset: 1},
		{Symmetry: rot180, From: 2},
		{Symmetry: none, From: 2},
		{Symmetry: none, Offset: 50, Limit: 5},
		{Symmetry: append(none, rot180...), Offset: 3, Limit: 5},
	} {
		if c, err := db.Count(ctx, b, f); !errors.Is(err, ErrBadRow) {
			t.Errorf("Count %+v: %d, %v; want a damaged index", f, c, err)
		}
		var got, want []nqueens.Layout
		var refused error
		for l, err := range db.Classes(ctx, 10, f) {
			if err != nil {
				refused = err
				break
			}
			got = append(got, l)
		}
		for l, err := range intact.Classes(ctx, 10, f) {
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, l)
		}
		relies := !slices.Contains(f.Symmetry, nqueens.SymNone) || f.Offset > 0
		switch {
		case refused != nil && !errors.Is(refused, ErrBadRow):
			t.Errorf("Classes %+v: %v", f, refused)
		case refused == nil && relies:
			t.Errorf("Classes %+v: %d classes, no error; want a damaged index", f, len(got))
		case refused == nil && !slices.Equal(got, want):
			t.Errorf("Classes %+v: %d classes, unlike the intact index's %d, no error", f, len(got), len(want))
		}
	}
}

// TestFilterPagesSaturate asks both forms of n = 8 for pages whose offset
// or limit would overflow a class number: they are answered as the
// largest pages are, never wrapped round.
func TestFilterPagesSaturate(t *testing.T) {
	t.Parallel()
	rows := open(t, filepath.Join(t.TempDir(), "rows.db"))
	defer rows.Close()
	rb := run(t, rows, 8)
	index, ib := indexedCopy(t, 8, "")
	for _, tt := range []struct {
		f    Filter
		want []int64
	}{
		{Filter{From: 2, Limit: math.MaxInt64}, []int64{2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
		{Filter{Offset: math.MaxInt64}, nil},
		{Filter{From: 3, Offset: math.MaxInt64 - 1, Limit: 2}, nil},
		{Filter{Offset: 10, Limit: math.MaxInt64}, []int64{11, 12}},
	} {
		for _, form := range []struct {
			db *DB
			b  Build
		}{{rows, rb}, {index, ib}} {
			var got []int64
			for l, err := range form.db.Classes(ctx, 8, tt.f) {
				if err != nil {
					t.Fatalf("%s %+v: %v", form.b.Form, tt.f, err)
				}
				got = append(got, l.Class)
			}
			c, err := form.db.Count(ctx, form.b, tt.f)
			if !slices.Equal(got, tt.want) || err != nil || c != uint64(len(tt.want)) {
				t.Errorf("%s %+v: classes %v, count %d, %v; want %v", form.b.Form, tt.f, got, c, err, tt.want)
			}
		}
	}
}
