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
// selects, in class order: store.DB.Classes, which documents it. Each row
// is checked as it is read (record.Decode, record.Sequence), and the first
// and last against the classes numbered next to them (neighbours); a bad
// row is yielded with its *record.RowError, and the iteration goes on if
// the caller asks for more.
func Classes(ctx context.Context, h *dbfile.Handle, n int, f Filter) iter.Seq2[nqueens.Layout, error] {
	if h.Version < 3 {
		return classesV2(ctx, h, n, f)
	}
	query, args := f.query(n)
	seq := record.Sequence{N: n, Turns: len(f.Symmetry) == 0}
	if seq.Turns {
		seq.Next = max(f.From, 1) + f.Offset
	}
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
		var last nqueens.Layout // the last row read, to check against the class after it
		var lastKey string
		for rows.Next() {
			if err := rows.Scan(&k, &key, &orbit); err != nil {
				yield(nqueens.Layout{}, fmt.Errorf("read classes n=%d: %w", n, dbfile.Translate(err)))
				return
			}
			l, err := record.Decode(n, k, key, orbit)
			err = seq.Check(l, key, err)
			if err == nil && last.Class == 0 && k > 1 {
				err = neighbours(ctx, h, n, l, key, true, false)
			}
			if l.Placement.N() != 0 {
				last, lastKey = l, key
			}
			if !yield(l, err) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(nqueens.Layout{}, fmt.Errorf("read classes n=%d: %w", n, dbfile.Translate(err)))
			return
		}
		if seq.Turns && f.To > 0 && seq.Next != 0 {
			// Every class of a closed range is due: the rows must reach its end.
			end := f.To
			if f.Limit > 0 {
				end = min(end, max(f.From, 1)+f.Offset+f.Limit-1)
			}
			if seq.Next <= end {
				missing := nqueens.Layout{Class: seq.Next}
				yield(missing, &record.RowError{N: n, Layout: missing, Problems: []string{fmt.Sprintf("is missing: classes %d to %d were asked for", max(f.From, 1)+f.Offset, end)}})
				return
			}
		}
		if last.Class != 0 {
			if err := neighbours(ctx, h, n, last, lastKey, false, true); err != nil {
				yield(last, err)
			}
		}
	}
}

// neighbours checks the class l, stored as key, read alone or at an end of
// a run of classes, against the classes numbered next to it: with before,
// class l.Class-1 must be there, its placement before l's; with after,
// class l.Class+1, if there, must come after. It returns a
// *record.RowError naming the fault.
func neighbours(ctx context.Context, h *dbfile.Handle, n int, l nqueens.Layout, key string, before, after bool) error {
	before = before && l.Class > 1
	if !before && !after {
		return nil
	}
	rows, err := h.DB.QueryContext(ctx, `SELECT class, placement FROM classes WHERE n = ? AND class IN (?, ?)`, n, l.Class-1, l.Class+1)
	if err != nil {
		return fmt.Errorf("read classes n=%d: %w", n, dbfile.Translate(err))
	}
	defer rows.Close()
	var problems []string
	found := false
	for rows.Next() {
		var k int64
		var p string
		if err := rows.Scan(&k, &p); err != nil {
			return fmt.Errorf("read classes n=%d: %w", n, dbfile.Translate(err))
		}
		if q, err := nqueens.ParseKey(p); err != nil || q.N() != n {
			// A neighbour that cannot be read is its own fault, reported
			// where it is read; it says nothing of this row's order.
			if k == l.Class-1 {
				found = true
			}
			continue
		}
		switch {
		case k == l.Class-1 && before:
			found = true
			if p >= key {
				problems = append(problems, fmt.Sprintf("is out of order or repeated after class %d (%s)", k, p))
			}
		case k == l.Class+1 && after && p <= key:
			problems = append(problems, fmt.Sprintf("is out of order or repeated before class %d (%s)", k, p))
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read classes n=%d: %w", n, dbfile.Translate(err))
	}
	if before && !found {
		problems = append(problems, fmt.Sprintf("is numbered out of turn: class %d is missing", l.Class-1))
	}
	if len(problems) == 0 {
		return nil
	}
	return &record.RowError{N: n, Layout: l, Key: key, Problems: problems}
}

// classesV2 is Classes for a catalog of schema 1 or 2, opened read-only
// and so not migrated: its classes have no stored numbers, so it numbers
// them as it reads them all, checking each, and filters here.
func classesV2(ctx context.Context, h *dbfile.Handle, n int, f Filter) iter.Seq2[nqueens.Layout, error] {
	return func(yield func(nqueens.Layout, error) bool) {
		rows, err := h.DB.QueryContext(ctx, `SELECT placement, orbit FROM classes WHERE n = ? ORDER BY placement`, n)
		if err != nil {
			yield(nqueens.Layout{}, fmt.Errorf("read classes n=%d: %w", n, dbfile.Translate(err)))
			return
		}
		defer rows.Close()
		seq := record.Sequence{N: n}
		var k, matched, yielded int64
		var key string
		var orbit int
		for rows.Next() && (f.Limit == 0 || yielded < f.Limit) {
			if err := rows.Scan(&key, &orbit); err != nil {
				yield(nqueens.Layout{}, fmt.Errorf("read classes n=%d: %w", n, dbfile.Translate(err)))
				return
			}
			k++
			l, err := record.Decode(n, k, key, orbit)
			err = seq.Check(l, key, err)
			if k < f.From || (f.To > 0 && k > f.To) || !f.hasOrbit(orbit) {
				continue
			}
			if matched++; matched <= f.Offset {
				continue
			}
			yielded++
			if !yield(l, err) {
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
	l, err := record.Decode(n, k, key, orbit)
	if err == nil && h.Version >= 3 {
		err = neighbours(ctx, h, n, l, key, true, true)
	}
	return l, err
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
