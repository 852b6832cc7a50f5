package query

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/store/internal/dbfile"
	"github.com/nqueens/nqueens/store/internal/record"
)

// Classes returns an iterator over the stored classes of n in h that f
// selects, in class order: store.DB.Classes, which documents it.
func Classes(ctx context.Context, h *dbfile.Handle, n int, f Filter) iter.Seq2[nqueens.Layout, error] {
	if h.Version < 3 {
		return classesV2(ctx, h, n, f)
	}
	query, args := f.query(n)
	return func(yield func(nqueens.Layout, error) bool) {
		rows, err := h.DB.QueryContext(ctx, query, args...)
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
			if !yield(record.Decode(n, k, key, orbit)) {
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
func classesV2(ctx context.Context, h *dbfile.Handle, n int, f Filter) iter.Seq2[nqueens.Layout, error] {
	return func(yield func(nqueens.Layout, error) bool) {
		rows, err := h.DB.QueryContext(ctx, `SELECT placement, orbit FROM classes WHERE n = ? ORDER BY placement`, n)
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
			if !yield(record.Decode(n, k, key, orbit)) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(nqueens.Layout{}, fmt.Errorf("read classes n=%d: %w", n, dbfile.Translate(err)))
		}
	}
}

// Class returns class k of n in h, one seek: store.DB.Class, which
// documents it.
func Class(ctx context.Context, h *dbfile.Handle, n int, k int64) (nqueens.Layout, error) {
	if k < 1 {
		return nqueens.Layout{}, fmt.Errorf("n=%d class %d: %w: class numbers start at 1", n, k, ErrNoClass)
	}
	query := `SELECT placement, orbit FROM classes WHERE n = ? AND class = ?`
	args := []any{n, k}
	if h.Version < 3 {
		query, args = `SELECT placement, orbit FROM classes WHERE n = ? ORDER BY placement LIMIT 1 OFFSET ?`, []any{n, k - 1}
	}
	var key string
	var orbit int
	err := h.DB.QueryRowContext(ctx, query, args...).Scan(&key, &orbit)
	if errors.Is(err, sql.ErrNoRows) {
		return nqueens.Layout{}, fmt.Errorf("n=%d class %d: %w", n, k, ErrNoClass)
	}
	if err != nil {
		return nqueens.Layout{}, fmt.Errorf("read n=%d class %d: %w", n, k, dbfile.Translate(err))
	}
	return record.Decode(n, k, key, orbit)
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
// catalog (verify.Catalog names the fault).
type CountError struct {
	N         int
	Got, Want uint64
}

// Error says how many layouts were read and how many the build records.
func (e *CountError) Error() string {
	return fmt.Sprintf("n=%d: read %d layouts, the catalog records %d", e.N, e.Got, e.Want)
}

// Layouts returns the layouts of the build b in h that sel selects and how
// many there are: store.DB.Layouts, which documents it.
func Layouts(ctx context.Context, h *dbfile.Handle, b record.Build, sel Selection) (iter.Seq2[nqueens.Layout, error], uint64, error) {
	c, err := tally(ctx, h, b, sel.Filter)
	if err != nil {
		return nil, 0, err
	}
	want := c.Unique
	if sel.All {
		want = c.Total
	}
	classes := Classes(ctx, h, b.N, sel.Filter)
	if sel.All && sel.Lex {
		if classes, err = lexLayouts(ctx, h, b, sel.Filter, sel.Workers); err != nil {
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
