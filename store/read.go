package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"

	"github.com/nqueens/nqueens"
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
//
// Each row is checked as it is read (decodeClass, sequence), and the first
// and last against the classes numbered next to them (neighbours); a bad
// row is yielded with its *RowError.
func (db *DB) Classes(ctx context.Context, n int, f Filter) iter.Seq2[nqueens.Layout, error] {
	h := &db.h
	if h.Version < 3 {
		return db.classesV2(ctx, n, f)
	}
	query, args := f.query(n)
	seq := sequence{N: n, Turns: len(f.Symmetry) == 0}
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
			l, err := decodeClass(n, k, key, orbit)
			err = seq.Check(l, key, err)
			if err == nil && last.Class == 0 && k > 1 {
				err = db.neighbours(ctx, n, l, key, true, false)
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
				yield(missing, &RowError{N: n, Layout: missing, Problems: []string{fmt.Sprintf("is missing: classes %d to %d were asked for", max(f.From, 1)+f.Offset, end)}})
				return
			}
		}
		if last.Class != 0 {
			if err := db.neighbours(ctx, n, last, lastKey, false, true); err != nil {
				yield(last, err)
			}
		}
	}
}

// neighbours checks the class l, stored as key, read alone or at an end of
// a run of classes, against the classes numbered next to it: with before,
// class l.Class-1 must be there, its placement before l's; with after,
// class l.Class+1, if there, must come after. It returns a
// *RowError naming the fault.
func (db *DB) neighbours(ctx context.Context, n int, l nqueens.Layout, key string, before, after bool) error {
	h := &db.h
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
	return &RowError{N: n, Layout: l, Key: key, Problems: problems}
}

// classesV2 is Classes for a catalog of schema 1 or 2, opened read-only
// and so not migrated: its classes have no stored numbers, so it numbers
// them as it reads them all, checking each, and filters here.
func (db *DB) classesV2(ctx context.Context, n int, f Filter) iter.Seq2[nqueens.Layout, error] {
	h := &db.h
	return func(yield func(nqueens.Layout, error) bool) {
		rows, err := h.DB.QueryContext(ctx, `SELECT placement, orbit FROM classes WHERE n = ? ORDER BY placement`, n)
		if err != nil {
			yield(nqueens.Layout{}, fmt.Errorf("read classes n=%d: %w", n, dbfile.Translate(err)))
			return
		}
		defer rows.Close()
		seq := sequence{N: n}
		var k, matched, yielded int64
		var key string
		var orbit int
		for rows.Next() && (f.Limit == 0 || yielded < f.Limit) {
			if err := rows.Scan(&key, &orbit); err != nil {
				yield(nqueens.Layout{}, fmt.Errorf("read classes n=%d: %w", n, dbfile.Translate(err)))
				return
			}
			k++
			l, err := decodeClass(n, k, key, orbit)
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

// Class returns class k (1-based, in lexicographic order) of n: one seek.
// It returns an error wrapping ErrNoClass if the catalog holds no class k
// of n, and a *RowError if the row is not what the catalog promises.
func (db *DB) Class(ctx context.Context, n int, k int64) (nqueens.Layout, error) {
	h := &db.h
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
	l, err := decodeClass(n, k, key, orbit)
	if err == nil && h.Version >= 3 {
		err = db.neighbours(ctx, n, l, key, true, true)
	}
	return l, err
}
