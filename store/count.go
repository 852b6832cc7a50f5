package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/store/internal/dbfile"
)

// Count returns how many classes of the build b the filter f selects,
// after checking f against b (Filter.Check).
func (db *DB) Count(ctx context.Context, b Build, f Filter) (uint64, error) {
	c, err := db.tally(ctx, b, f)
	return c.Unique, err
}

// tally counts the classes of b that f selects by symmetry. It reads the
// small index of symmetric classes, not the classes (named, as SQLite's
// planner would walk the key of the range instead: 1.4 s at n = 17), unless
// f pages through a symmetry filter or the catalog has no class numbers;
// a square filter counts the classes of the range in SQL (squareTally).
func (db *DB) tally(ctx context.Context, b Build, f Filter) (nqueens.Counts, error) {
	h := &db.h
	var c nqueens.Counts
	if err := f.Check(b); err != nil {
		return c, err
	}
	form := db.form(b, b.N)
	f = f.paged()
	from, to := max(f.From, 1), int64(b.Unique)
	if f.To > 0 {
		to = min(f.To, to)
	}
	if from > to {
		return c, nil
	}
	if (f.Offset > 0 || f.Limit > 0) && f.Square == nil && h.Version >= 3 {
		// A page of the classes of a symmetry: the range from its first
		// class to its last, found by arithmetic over the symmetric list.
		first, err := db.nth(ctx, b, form, f, from, to, f.Offset)
		if err != nil || first == 0 {
			return c, err
		}
		last := to
		if f.Limit > 0 {
			if last, err = db.nth(ctx, b, form, f, first, to, f.Limit-1); err != nil {
				return c, err
			} else if last == 0 {
				last = to
			}
		}
		from, to, f.Offset, f.Limit = first, last, 0, 0
	}
	if (h.Version < 3 && b.Form == FormRows) || f.Offset > 0 || f.Limit > 0 {
		f.From, f.To = from, to
		return db.tallyRead(ctx, b.N, f)
	}
	if f.Square != nil {
		return form.squareTally(ctx, f, from, to)
	}
	// The symmetric classes of the range, by orbit: the rest have none.
	if err := form.checkList(ctx, from, to); err != nil {
		return c, err
	}
	rows, err := h.DB.QueryContext(ctx, tallySQL(form), b.N, from, to)
	if err != nil {
		return c, fmt.Errorf("count classes n=%d: %w", b.N, dbfile.Translate(err))
	}
	defer rows.Close()
	var symmetric uint64
	var all nqueens.Counts // every symmetric class of the range
	for rows.Next() {
		var orbit int
		var k uint64
		if err := rows.Scan(&orbit, &k); err != nil {
			return c, fmt.Errorf("count classes n=%d: %w", b.N, dbfile.Translate(err))
		}
		symmetric += k
		if s, err := nqueens.SymmetryOfOrbit(orbit); err == nil {
			all.AddN(s, k)
			if f.hasOrbit(orbit) {
				c.AddN(s, k)
			}
		}
	}
	if err := rows.Err(); err != nil {
		return c, fmt.Errorf("count classes n=%d: %w", b.N, dbfile.Translate(err))
	}
	if b.Complete && from == 1 && uint64(to) == b.Unique && (all.Orbit4 != b.Orbit4 || all.Orbit2 != b.Orbit2 || all.Orbit1 != b.Orbit1 || symmetric > b.Unique) {
		// Every class counted: the symmetric ones listed must be those the
		// build counts.
		return c, damage(fmt.Sprintf("n=%d: the catalog lists %s, %s and %s classes of orbit 4, 2 and 1, the build counts %s, %s and %s",
			b.N, phrase.Count(all.Orbit4), phrase.Count(all.Orbit2), phrase.Count(all.Orbit1), phrase.Count(b.Orbit4), phrase.Count(b.Orbit2), phrase.Count(b.Orbit1)))
	}
	if f.hasOrbit(8) {
		c.AddN(nqueens.SymNone, uint64(to-from+1)-symmetric)
	}
	return c, nil
}

// tallySQL counts the symmetric classes of n numbered from one number to
// another, by orbit, in the list of the form.
func tallySQL(form readForm) string {
	return `SELECT orbit, count(*) FROM ` + form.symmetricList() + ` AND class >= ? AND class <= ? GROUP BY orbit`
}

// squareTally counts the classes of b numbered from to to that f, which
// has a square, selects, by orbit: one scan of the range.
func (db *DB) squareTally(ctx context.Context, n int, f Filter, from, to int64) (nqueens.Counts, error) {
	var c nqueens.Counts
	f.From, f.To = from, to
	where, args := f.where(n)
	rows, err := db.h.DB.QueryContext(ctx, `SELECT orbit, count(*) FROM classes WHERE `+where+` GROUP BY orbit`, args...)
	if err != nil {
		return c, fmt.Errorf("count classes n=%d: %w", n, dbfile.Translate(err))
	}
	defer rows.Close()
	for rows.Next() {
		var orbit int
		var k uint64
		if err := rows.Scan(&orbit, &k); err != nil {
			return c, fmt.Errorf("count classes n=%d: %w", n, dbfile.Translate(err))
		}
		// A row of an orbit no class has is yielded as an error where it is
		// read, as tallySQL's are.
		if s, err := nqueens.SymmetryOfOrbit(orbit); err == nil {
			c.AddN(s, k)
		}
	}
	if err := rows.Err(); err != nil {
		return c, fmt.Errorf("count classes n=%d: %w", n, dbfile.Translate(err))
	}
	return c, nil
}

// nth returns the number of the class that is o-th (from 0) among those
// of the build b numbered from to to that f selects by symmetry (f has a
// Symmetry and no Square), or 0 if there are no more than o: arithmetic
// over the short list of symmetric classes (form.symmetricList), never a walk of the classes
// before it. Of the symmetric classes alone it is a seek in their list; of
// the classes of no symmetry (and maybe some symmetric ones) it counts off
// the symmetric classes f leaves out, reading their numbers one by one.
func (db *DB) nth(ctx context.Context, b Build, form readForm, f Filter, from, to, o int64) (int64, error) {
	list := form.symmetricList()
	var orbits []any
	for _, s := range f.Symmetry {
		if s.Orbit() != 8 {
			orbits = append(orbits, s.Orbit())
		}
	}
	in := "(" + strings.Repeat("?,", len(orbits)) + "0)"
	args := append([]any{b.N, from, to}, orbits...)
	if !f.hasOrbit(8) {
		var k int64
		err := db.h.DB.GetContext(ctx, &k, `SELECT class FROM `+list+` AND class >= ? AND class <= ? AND orbit IN `+in+` ORDER BY class LIMIT 1 OFFSET ?`, append(args, o)...)
		if errors.Is(err, sql.ErrNoRows) {
			return 0, form.checkList(ctx, from, to)
		} else if err != nil {
			return 0, fmt.Errorf("read classes n=%d: %w", b.N, dbfile.Translate(err))
		}
		return k, form.checkList(ctx, from, k)
	}
	rows, err := db.h.DB.QueryContext(ctx, `SELECT class FROM `+list+` AND class >= ? AND class <= ? AND orbit NOT IN `+in+` ORDER BY class`, args...)
	if err != nil {
		return 0, fmt.Errorf("read classes n=%d: %w", b.N, dbfile.Translate(err))
	}
	defer rows.Close()
	k := from + o
	for rows.Next() && k <= to {
		var skipped int64
		if err := rows.Scan(&skipped); err != nil {
			return 0, fmt.Errorf("read classes n=%d: %w", b.N, dbfile.Translate(err))
		}
		if skipped > k {
			break
		}
		k++
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("read classes n=%d: %w", b.N, dbfile.Translate(err))
	}
	rows.Close()
	if k > to {
		return 0, form.checkList(ctx, from, to)
	}
	return k, form.checkList(ctx, from, k)
}

// indexSquareTally is squareTally of an index: where the prefixes fix the
// square's row, the classes under the prefixes with a queen on it, counted
// from the index, and the symmetric ones among them from its list; below
// them, the classes of the range searched.
func (db *DB) indexSquareTally(ctx context.Context, b Build, f Filter, from, to int64) (nqueens.Counts, error) {
	var c nqueens.Counts
	sq := *f.Square
	if sq.Row >= b.IndexDepth {
		f.From, f.To = from, to
		return db.tallyRead(ctx, b.N, f)
	}
	if err := db.checkSymmetric(ctx, b, from, to); err != nil {
		return c, err
	}
	var unique uint64
	cur := db.blockCursor(b)
	err := cur.seekClass(ctx, from)
	for more := true; more; more, err = cur.Next(ctx) {
		if err != nil {
			return c, err
		}
		blk := cur.Block()
		k := uint64(blk.ClassesBefore)
		if k >= uint64(to) {
			break
		}
		for _, e := range blk.Prefixes {
			lo, hi := max(k+1, uint64(from)), min(k+e.Classes, uint64(to))
			if e.Unit.Queen(sq.Row) == sq.Col && lo <= hi {
				unique += hi - lo + 1
			}
			k += e.Classes
		}
	}
	rows, err := db.h.DB.QueryContext(ctx, `SELECT orbit, count(*) FROM index_symmetric
		WHERE n = ? AND class >= ? AND class <= ? AND substr(placement, ?, 1) = ? GROUP BY orbit`, b.N, from, to, sq.Row+1, sq.KeyDigit())
	if err != nil {
		return c, fmt.Errorf("count classes n=%d: %w", b.N, dbfile.Translate(err))
	}
	defer rows.Close()
	var symmetric uint64
	for rows.Next() {
		var orbit int
		var k uint64
		if err := rows.Scan(&orbit, &k); err != nil {
			return c, fmt.Errorf("count classes n=%d: %w", b.N, dbfile.Translate(err))
		}
		symmetric += k
		if s, err := nqueens.SymmetryOfOrbit(orbit); err == nil && f.hasOrbit(orbit) {
			c.AddN(s, k)
		}
	}
	if err := rows.Err(); err != nil {
		return c, fmt.Errorf("count classes n=%d: %w", b.N, dbfile.Translate(err))
	}
	if symmetric > unique {
		return c, &indexFault{N: b.N, Block: -1, Problem: fmt.Sprintf("lists %d symmetric classes with a queen on %s among classes %d to %d, its prefixes hold %d", symmetric, sq, from, to, unique)}
	}
	if f.hasOrbit(8) {
		c.AddN(nqueens.SymNone, unique-symmetric)
	}
	return c, nil
}

// tallyRead counts the classes of n that f selects, and their orbits, by
// reading each: the way of a filter that neither the counts recorded nor
// the index's prefixes answer.
func (db *DB) tallyRead(ctx context.Context, n int, f Filter) (nqueens.Counts, error) {
	var c nqueens.Counts
	for l, err := range db.Classes(ctx, n, f) {
		if err != nil {
			return c, err
		}
		c.Add(l.Symmetry)
	}
	return c, nil
}
