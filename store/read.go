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
// and last against the classes numbered next to them (besides), never
// while the rows hold a connection; a bad row is yielded with its
// *RowError.
//
// Of an n built as an index (FormIndex), the classes are searched below
// the index's prefixes, in parallel, and those of a symmetry alone are
// read from the index's list of them; a prefix whose search finds another
// number of classes than the index records ends the iteration with an
// *IndexError.
func (db *DB) Classes(ctx context.Context, n int, f Filter) iter.Seq2[nqueens.Layout, error] {
	return func(yield func(nqueens.Layout, error) bool) {
		b, form, err := db.formOf(ctx, n)
		if err != nil {
			yield(nqueens.Layout{}, err)
			return
		}
		db.classes(ctx, b, form, f)(yield)
	}
}

// classes is Classes of the build b of n (the zero Build for none), read
// through its form.
func (db *DB) classes(ctx context.Context, b Build, form readForm, f Filter) iter.Seq2[nqueens.Layout, error] {
	return func(yield func(nqueens.Layout, error) bool) {
		f = f.paged()
		if f.To > 0 && f.From > f.To {
			return
		}
		if b.Complete && f.To > int64(b.Unique) {
			// No class is numbered past the build's: a range that runs past
			// them ends with them, of either form.
			if b.Unique == 0 {
				return
			}
			f.To = int64(b.Unique)
		}
		if f.Offset > 0 && len(f.Symmetry) > 0 && f.Square == nil && db.h.Version >= 3 && b.N != 0 {
			// An offset among the classes of a symmetry becomes the number
			// of the first class of the page: arithmetic over the list of
			// symmetric classes, not a walk of the classes before it.
			to := f.To
			if to == 0 {
				to = int64(b.Unique)
			}
			k, err := db.nth(ctx, b, form, f, max(f.From, 1), to, f.Offset)
			if err != nil {
				yield(nqueens.Layout{}, err)
				return
			} else if k == 0 {
				return
			}
			f.From, f.Offset = k, 0
		}
		form.classes(ctx, f)(yield)
	}
}

// rowClasses is Classes of the rows of n.
func (db *DB) rowClasses(ctx context.Context, n int, f Filter) iter.Seq2[nqueens.Layout, error] {
	h := &db.h
	if h.Version < 3 {
		return db.classesV2(ctx, n, f)
	}
	query, args := f.query(n)
	seq := sequence{N: n, Turns: !f.sparse()}
	if seq.Turns {
		seq.Next = max(f.From, 1) + f.Offset
	}
	return func(yield func(nqueens.Layout, error) bool) {
		// The class before the first, when the first is known, is read
		// before the rows: a check made while the rows are open would need
		// a second connection, which a capped pool may not have.
		first := seq.Next
		var before map[int64]string
		if first > 1 {
			var err error
			if before, err = db.neighbourKeys(ctx, n, first-1); err != nil {
				yield(nqueens.Layout{}, err)
				return
			}
		}
		rows, err := h.DB.QueryContext(ctx, query, args...)
		if err != nil {
			yield(nqueens.Layout{}, fmt.Errorf("read classes n=%d: %w", n, dbfile.Translate(err)))
			return
		}
		defer rows.Close()
		var k int64
		var key string
		var orbit int
		var head, last nqueens.Layout // the first and last rows read, to check against the classes beside them
		var headKey, lastKey string
		for rows.Next() {
			if err := rows.Scan(&k, &key, &orbit); err != nil {
				yield(nqueens.Layout{}, fmt.Errorf("read classes n=%d: %w", n, dbfile.Translate(err)))
				return
			}
			l, err := decodeClass(n, k, key, orbit)
			err = seq.Check(l, key, err)
			if err == nil && last.Class == 0 && k > 1 && before != nil && k == first {
				err = besides(n, l, key, true, false, before)
			}
			if l.Placement.N() != 0 {
				if head.Class == 0 {
					head, headKey = l, key
				}
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
		rows.Close()
		if seq.Turns && f.To > 0 && seq.Next != 0 {
			// Every class of a closed range is due: the rows must reach its end.
			end := f.To
			if f.Limit > 0 {
				end = min(end, max(f.From, 1)+f.Offset+f.Limit-1)
			}
			if seq.Next <= end {
				missing := nqueens.Layout{Class: seq.Next}
				yield(missing, &rowError{N: n, Layout: missing, Problems: []string{fmt.Sprintf("is missing: classes %d to %d were asked for", max(f.From, 1)+f.Offset, end)}})
				return
			}
		}
		if last.Class == 0 {
			return
		}
		// The class after the last row, and, where the first row's number
		// was not known in advance (a filter by symmetry or square), the class
		// before the first: read now that the rows are closed.
		checkHead := !seq.Turns && head.Class > 1
		keys, err := db.neighbourKeys(ctx, n, last.Class+1, head.Class-1)
		if err != nil {
			yield(nqueens.Layout{}, err)
			return
		}
		if checkHead {
			if err := besides(n, head, headKey, true, false, keys); err != nil && !yield(head, err) {
				return
			}
		}
		if err := besides(n, last, lastKey, false, true, keys); err != nil {
			yield(last, err)
		}
	}
}

// neighbours checks the class l, stored as key, read alone, against the
// classes numbered next to it (see besides).
func (db *DB) neighbours(ctx context.Context, n int, l nqueens.Layout, key string) error {
	keys, err := db.neighbourKeys(ctx, n, l.Class-1, l.Class+1)
	if err != nil {
		return err
	}
	return besides(n, l, key, true, true, keys)
}

// neighbourKeys reads the stored keys of the classes of n numbered ks
// (those below 1 are skipped), by number; a class that is not there has
// no entry. It holds its connection only while it reads.
func (db *DB) neighbourKeys(ctx context.Context, n int, ks ...int64) (map[int64]string, error) {
	keys := map[int64]string{}
	for _, k := range ks {
		if k < 1 {
			continue
		}
		var key string
		err := db.h.DB.QueryRowContext(ctx, `SELECT placement FROM classes WHERE n = ? AND class = ?`, n, k).Scan(&key)
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return nil, fmt.Errorf("read classes n=%d: %w", n, dbfile.Translate(err))
		default:
			keys[k] = key
		}
	}
	return keys, nil
}

// besides checks the class l, stored as key, against the stored keys of
// the classes numbered next to it (from neighbourKeys): with before, class
// l.Class-1 must be there, its placement before l's; with after, class
// l.Class+1, if there, must come after. A neighbour whose key cannot be
// read is its own fault, reported where it is read: it says nothing of
// l's order. It returns a *RowError naming the fault.
func besides(n int, l nqueens.Layout, key string, before, after bool, keys map[int64]string) error {
	var problems []string
	if p, ok := keys[l.Class-1]; before && l.Class > 1 {
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("is numbered out of turn: class %d is missing", l.Class-1))
		case readable(n, p) && p >= key:
			problems = append(problems, fmt.Sprintf("is out of order or repeated after class %d (%s)", l.Class-1, p))
		}
	}
	if p, ok := keys[l.Class+1]; after && ok && readable(n, p) && p <= key {
		problems = append(problems, fmt.Sprintf("is out of order or repeated before class %d (%s)", l.Class+1, p))
	}
	if len(problems) == 0 {
		return nil
	}
	return &rowError{N: n, Layout: l, Key: key, Problems: problems}
}

// readable reports whether key is the stored placement of a board of n.
func readable(n int, key string) bool {
	p, err := nqueens.ParseKey(key)
	return err == nil && p.N() == n
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
			if k < f.From || (f.To > 0 && k > f.To) || !f.hasOrbit(orbit) || (f.Square != nil && err == nil && !f.Square.Holds(l.Placement)) {
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

// Class returns class k (1-based, in lexicographic order) of n: one seek
// of its row, or, of an index, one seek of its block and the search of
// one prefix's subtree. It returns an error wrapping ErrNoClass if the
// catalog holds no class k of n, a *RowError if the row is not what the
// catalog promises, and an *IndexError if the index is not.
func (db *DB) Class(ctx context.Context, n int, k int64) (nqueens.Layout, error) {
	_, form, err := db.formOf(ctx, n)
	if err != nil {
		return nqueens.Layout{}, err
	}
	return form.class(ctx, k)
}

// rowClass is Class of the rows of n.
func (db *DB) rowClass(ctx context.Context, n int, k int64) (nqueens.Layout, error) {
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
		err = db.neighbours(ctx, n, l, key)
	}
	return l, err
}
