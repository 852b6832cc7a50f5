package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
)

// collectLayouts returns what t.Layouts yields: the layouts and the error
// it ends with, if any.
func collectLayouts(ctx context.Context, t *ClassTable) ([]nqueens.Layout, error) {
	var out []nqueens.Layout
	for l, err := range t.Layouts(ctx, 2) {
		if err != nil {
			return out, err
		}
		out = append(out, l)
	}
	return out, nil
}

// searched returns what t.Layouts yields when it searches every solution
// of n, however few the table's solutions (a table of none yields none
// either way).
func searched(t *testing.T, table *ClassTable) ([]nqueens.Layout, error) {
	t.Helper()
	defer func(m uint64) { sortMax = m }(sortMax)
	sortMax = 0
	if table.solutions > 0 && !LexSearches(table.solutions) {
		t.Fatal("with sortMax 0 the table does not search")
	}
	return collectLayouts(context.Background(), table)
}

// TestClassTableSortIsTheSearch checks that the lexicographic order of a
// few classes' solutions, sorted from their orbits, is the search's:
// the same solutions, in the same order, with the same class numbers and
// symmetries, for n = 1..10 stored as rows and as an index, under filters
// by class range, symmetry and square. Both forms give the same too.
func TestClassTableSortIsTheSearch(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	forms := map[string]*DB{}
	for _, form := range []string{"rows", "index"} {
		db, err := Open(ctx, filepath.Join(dir, form+".db"), Options{Create: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		forms[form] = db
	}
	for n := 1; n <= 10; n++ {
		builds := map[string]Build{}
		for form, db := range forms {
			b, err := db.Run(ctx, n, nqueens.Shard{}, RunOptions{Workers: 2, Index: form == "index"})
			if err != nil {
				t.Fatal(err)
			}
			builds[form] = b
		}
		u := int64(builds["rows"].Unique)
		filters := []Filter{
			{},
			{Symmetry: []nqueens.Symmetry{nqueens.SymNone}},
			{Symmetry: []nqueens.Symmetry{nqueens.SymRot180}},
			{Symmetry: []nqueens.Symmetry{nqueens.SymRot90}},
			{Symmetry: []nqueens.Symmetry{nqueens.SymRot90, nqueens.SymNone}},
		}
		if u >= 1 {
			filters = append(filters, Filter{From: 1, To: 1}, Filter{From: u, To: u})
		}
		if u >= 7 {
			filters = append(filters, Filter{From: 1, To: 2}, Filter{From: 3, To: 7},
				Filter{From: 2, To: u - 1, Symmetry: []nqueens.Symmetry{nqueens.SymRot180}})
		}
		if n >= 2 {
			filters = append(filters, Filter{Square: &nqueens.Square{Row: 0, Col: 1}})
		}
		for _, f := range filters {
			var first []nqueens.Layout
			for _, form := range []string{"rows", "index"} {
				name := fmt.Sprintf("n=%d %s %+v", n, form, f)
				table, err := forms[form].ClassTable(ctx, builds[form], f)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if LexSearches(table.solutions) {
					t.Fatalf("%s: a table of %d solutions searches", name, table.solutions)
				}
				got, err := collectLayouts(ctx, table)
				if err != nil {
					t.Fatalf("%s: sorted: %v", name, err)
				}
				want, err := searched(t, table)
				if err != nil {
					t.Fatalf("%s: searched: %v", name, err)
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s: sorted %d layouts, the search %d, or in another order or numbering", name, len(got), len(want))
				}
				if uint64(len(got)) != table.solutions {
					t.Errorf("%s: %d layouts, the build records %d", name, len(got), table.solutions)
				}
				if first == nil {
					first = got
				} else if !slices.Equal(got, first) {
					t.Errorf("%s: the index's layouts are not the rows'", name)
				}
			}
		}
	}
}

// TestClassTableSortOfABadTable checks that a table whose classes are not
// what the catalog promises (a class lost, one not canonical, one twice,
// one that is no solution, more solutions recorded than held) gives the
// same layouts sorted as searched, and ends with the same *CountError.
func TestClassTableSortOfABadTable(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "c.db"), Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	b, err := db.Run(ctx, 8, nqueens.Shard{}, RunOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	good, err := db.ClassTable(ctx, b, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	const n = 8
	row := func(t *ClassTable, i int) []byte { return t.cols[i*n : (i+1)*n] }
	noCanon := canonical.Orbit(nqueens.FromBytes(row(good, 0)))[1]
	tests := []struct {
		name   string
		change func(t *ClassTable)
	}{
		{"class 5 lost", func(t *ClassTable) { t.cols = slices.Delete(t.cols, 4*n, 5*n) }},
		{"class 1 not canonical", func(t *ClassTable) { copy(row(t, 0), noCanon.Bytes()) }},
		{"class 1 twice", func(t *ClassTable) { copy(row(t, 1), row(t, 0)) }},
		{"class 1 no solution", func(t *ClassTable) { copy(row(t, 0), []byte{0, 1, 2, 3, 4, 5, 6, 7}) }},
		{"8 solutions more recorded", func(t *ClassTable) { t.solutions += 8 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bad := *good
			bad.cols = slices.Clone(good.cols)
			tt.change(&bad)
			got, gotErr := collectLayouts(ctx, &bad)
			want, wantErr := searched(t, &bad)
			if !slices.Equal(got, want) {
				t.Errorf("sorted %d layouts, the search %d, or in another order or numbering", len(got), len(want))
			}
			var ce *CountError
			if !errors.As(gotErr, &ce) || !reflect.DeepEqual(gotErr, wantErr) || ce.Got != uint64(len(got)) || ce.Want != bad.solutions {
				t.Errorf("sorted, the iterator ends with %v; searched, with %v; want a CountError of %d layouts", gotErr, wantErr, len(got))
			}
		})
	}

	// A table whose classes hold more solutions than it records, and more
	// than the sort holds, is searched.
	bad := *good
	bad.solutions = 60
	defer func(m uint64) { sortMax = m }(sortMax)
	sortMax = 60
	got, err := collectLayouts(ctx, &bad)
	var ce *CountError
	if len(got) != 92 || !errors.As(err, &ce) || ce.Got != 92 || ce.Want != 60 {
		t.Errorf("a table of 92 solutions that records 60, sorting at most 60: %d layouts and %v, want 92 and a CountError", len(got), err)
	}
}

// TestClassTableSortCancel cancels the context after the first layout:
// the sorted iterator ends at once, without an error, as the search does.
func TestClassTableSortCancel(t *testing.T) {
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "c.db"), Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	b, err := db.Run(context.Background(), 8, nqueens.Shard{}, RunOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	table, err := db.ClassTable(context.Background(), b, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	k := 0
	for _, err := range table.Layouts(ctx, 2) {
		if err != nil {
			t.Fatalf("after a cancel: %v", err)
		}
		k++
		cancel()
	}
	if k != 1 {
		t.Errorf("%d layouts after a cancel at the first, want 1", k)
	}
}
