package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/store/internal/dbfile"
)

// Classes returns an iterator over the stored classes of n that f selects,
// in lexicographic order of their canonical placements, which is the order
// of their numbers. For an incomplete build it yields the classes stored
// so far. A row that cannot be decoded is yielded as an error naming its
// class number, and the iteration goes on; a read error is yielded once,
// with a zero Layout, and ends it. The iterator can be used more than
// once; each use queries again. Classes does not check f against the
// build (Count and Layouts do).
func (db *DB) Classes(ctx context.Context, n int, f Filter) iter.Seq2[nqueens.Layout, error] {
	if db.version < 3 {
		return db.classesV2(ctx, n, f)
	}
	query, args := f.query(n)
	return func(yield func(nqueens.Layout, error) bool) {
		rows, err := db.db.QueryContext(ctx, query, args...)
		if err != nil {
			yield(nqueens.Layout{}, fmt.Errorf("read classes n=%d: %w", n, dbfile.Translate(err)))
			return
		}
		defer rows.Close()
		var k int64
		var key string
		var orbit int
		for rows.Next() {
			if err := rows.Scan(&k, &key, &orbit); err != nil {
				yield(nqueens.Layout{}, fmt.Errorf("read classes n=%d: %w", n, dbfile.Translate(err)))
				return
			}
			if !yield(decode(n, k, key, orbit)) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(nqueens.Layout{}, fmt.Errorf("read classes n=%d: %w", n, dbfile.Translate(err)))
		}
	}
}

// classesV2 is Classes for a catalog of schema 1 or 2, opened read-only
// and so not migrated: its classes have no stored numbers, so it numbers
// them as it reads them all and filters here.
func (db *DB) classesV2(ctx context.Context, n int, f Filter) iter.Seq2[nqueens.Layout, error] {
	return func(yield func(nqueens.Layout, error) bool) {
		rows, err := db.db.QueryContext(ctx, `SELECT placement, orbit FROM classes WHERE n = ? ORDER BY placement`, n)
		if err != nil {
			yield(nqueens.Layout{}, fmt.Errorf("read classes n=%d: %w", n, dbfile.Translate(err)))
			return
		}
		defer rows.Close()
		var k, matched, yielded int64
		var key string
		var orbit int
		for rows.Next() && (f.Limit == 0 || yielded < f.Limit) {
			if err := rows.Scan(&key, &orbit); err != nil {
				yield(nqueens.Layout{}, fmt.Errorf("read classes n=%d: %w", n, dbfile.Translate(err)))
				return
			}
			k++
			if k < f.From || (f.To > 0 && k > f.To) || !f.hasOrbit(orbit) {
				continue
			}
			if matched++; matched <= f.Offset {
				continue
			}
			yielded++
			if !yield(decode(n, k, key, orbit)) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(nqueens.Layout{}, fmt.Errorf("read classes n=%d: %w", n, dbfile.Translate(err)))
		}
	}
}

// decode turns a stored row into a layout, checking what the schema cannot.
func decode(n int, k int64, key string, orbit int) (nqueens.Layout, error) {
	p, err := nqueens.ParseKey(key)
	if err == nil && p.N() != n {
		err = fmt.Errorf("placement %q has %d rows", key, p.N())
	}
	if err != nil {
		return nqueens.Layout{}, fmt.Errorf("n=%d class %d: %w", n, k, err)
	}
	sym, err := nqueens.SymmetryOfOrbit(orbit)
	if err != nil {
		return nqueens.Layout{}, fmt.Errorf("n=%d class %d: %w", n, k, err)
	}
	return nqueens.Layout{Class: k, Placement: p, Symmetry: sym}, nil
}

// Class returns class k (1-based, in lexicographic order) of n: one seek.
// It returns an error wrapping ErrNoClass if the catalog holds no class k
// of n.
func (db *DB) Class(ctx context.Context, n int, k int64) (nqueens.Layout, error) {
	if k < 1 {
		return nqueens.Layout{}, fmt.Errorf("n=%d class %d: %w: class numbers start at 1", n, k, ErrNoClass)
	}
	query := `SELECT placement, orbit FROM classes WHERE n = ? AND class = ?`
	args := []any{n, k}
	if db.version < 3 {
		query, args = `SELECT placement, orbit FROM classes WHERE n = ? ORDER BY placement LIMIT 1 OFFSET ?`, []any{n, k - 1}
	}
	var key string
	var orbit int
	err := db.db.QueryRowContext(ctx, query, args...).Scan(&key, &orbit)
	if errors.Is(err, sql.ErrNoRows) {
		return nqueens.Layout{}, fmt.Errorf("n=%d class %d: %w", n, k, ErrNoClass)
	}
	if err != nil {
		return nqueens.Layout{}, fmt.Errorf("read n=%d class %d: %w", n, k, dbfile.Translate(err))
	}
	return decode(n, k, key, orbit)
}

// Problem is one thing Audit finds wrong with a catalog: of board size N,
// or of the catalog as a whole when N is 0.
type Problem struct {
	N    int
	Text string // one sentence, saying how to mend it where it can
}

// Audit returns what is wrong with the catalog beyond what its builds and
// classes rows say of themselves: classes of an n that has no builds row
// (its row was deleted: Begin refuses to build such an n, see ErrOrphans),
// and a table or view of the schema that is missing. A catalog in good
// order gives none.
func (db *DB) Audit(ctx context.Context) ([]Problem, error) {
	var problems []Problem
	rows, err := db.db.QueryContext(ctx, `SELECT n, count(*) FROM classes WHERE n NOT IN (SELECT n FROM builds) GROUP BY n ORDER BY n`)
	if err != nil {
		return nil, fmt.Errorf("audit: %w", dbfile.Translate(err))
	}
	defer rows.Close()
	for rows.Next() {
		var n, k int64
		if err := rows.Scan(&n, &k); err != nil {
			return nil, fmt.Errorf("audit: %w", dbfile.Translate(err))
		}
		problems = append(problems, Problem{int(n), fmt.Sprintf("%d classes stored with no record of their build (its builds row was deleted?); %s", k, orphanFix(db.path, int(n)))})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("audit: %w", dbfile.Translate(err))
	}
	objects := []struct{ kind, name string }{{"table", "builds"}, {"table", "classes"}, {"view", "class_list"}}
	if db.version >= 3 {
		// The queries of symmetric classes name it.
		objects = append(objects, struct{ kind, name string }{"index", "classes_symmetric"})
	}
	for _, obj := range objects {
		var k int
		err := db.db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = ? AND name = ?`, obj.kind, obj.name).Scan(&k)
		if err != nil {
			return nil, fmt.Errorf("audit: %w", dbfile.Translate(err))
		}
		if k == 0 {
			problems = append(problems, Problem{0, fmt.Sprintf("the %s %s is missing from the schema (dropped by hand?)", obj.kind, obj.name)})
		}
	}
	return problems, nil
}

// orphanFix says how to remove the classes of n that have no build.
func orphanFix(path string, n int) string {
	return fmt.Sprintf(`remove them with: sqlite3 %q "DELETE FROM classes WHERE n = %d", then build n=%d again`, path, n, n)
}

// Selection chooses what an export of one build holds: the classes the
// Filter selects, or, with All, each such class's distinct solutions in
// place of its canonical representative, class by class or, with Lex, all
// in lexicographic order.
type Selection struct {
	Filter
	All bool
	// Lex orders the solutions of All lexicographically, as the plain
	// search yields them, instead of class by class; Workers goroutines
	// search them (all cores when Workers < 1). Classes alone are in
	// lexicographic order already.
	Lex     bool
	Workers int
}

// CountError is the error Layouts' iterator ends with when the catalog
// yields another number of layouts than its build records: a damaged
// catalog (DB.Verify names the fault).
type CountError struct {
	N         int
	Got, Want uint64
}

func (e *CountError) Error() string {
	return fmt.Sprintf("n=%d: read %d layouts, the catalog records %d", e.N, e.Got, e.Want)
}

// Layouts returns the layouts of the build b that sel selects and how many
// there are: classes in order, each class's solutions in lexicographic
// order (canonical.Orbit) with its class number, orbit and symmetry, or
// with sel.Lex every solution in lexicographic order. The
// iterator stops at the first error it yields, a read error or, after the
// last layout, a *CountError if it yielded another number than it
// returned. It returns an error wrapping ErrNoClass if sel's class range
// goes past b's classes (see Filter.Check).
func (db *DB) Layouts(ctx context.Context, b Build, sel Selection) (iter.Seq2[nqueens.Layout, error], uint64, error) {
	c, err := db.tally(ctx, b, sel.Filter)
	if err != nil {
		return nil, 0, err
	}
	want := c.Unique
	if sel.All {
		want = c.Total
	}
	classes := db.Classes(ctx, b.N, sel.Filter)
	if sel.All && sel.Lex {
		if classes, err = db.lexLayouts(ctx, b, sel.Filter, sel.Workers); err != nil {
			return nil, 0, err
		}
		sel.All = false // each layout is one solution already
	}
	return func(yield func(nqueens.Layout, error) bool) {
		var got uint64
		for l, err := range classes {
			if err != nil {
				yield(l, err)
				return
			}
			members := []nqueens.Placement{l.Placement}
			if sel.All {
				members = canonical.Orbit(l.Placement)
			}
			for _, p := range members {
				got++
				l.Placement = p
				if !yield(l, nil) {
					return
				}
			}
		}
		if ctx.Err() == nil && got != want {
			yield(nqueens.Layout{}, &CountError{N: b.N, Got: got, Want: want})
		}
	}, want, nil
}
