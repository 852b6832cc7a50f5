package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/store/internal/dbfile"
)

// Filter selects classes of one n: those numbered From to To (inclusive; 0
// leaves a bound open) whose symmetry is one of Symmetry (any when empty),
// and of those, at most Limit (0: no limit) after skipping the first
// Offset. The zero Filter selects every class.
type Filter struct {
	From, To      int64
	Symmetry      []nqueens.Symmetry
	Offset, Limit int64
}

// Check returns an error if f cannot select from the classes of the build
// b: a bound outside 1..b.Unique (wrapping ErrNoClass), From after To, or
// a negative Offset or Limit.
func (f Filter) Check(b Build) error {
	switch {
	case f.From < 0 || f.To < 0:
		return classError(fmt.Sprintf("n=%d: class numbers start at 1, got %d", b.N, min(f.From, f.To)))
	case f.To > 0 && f.From > f.To:
		return fmt.Errorf("n=%d: classes %d-%d: the range runs downwards", b.N, f.From, f.To)
	case uint64(max(f.From, f.To)) > b.Unique:
		return classError(fmt.Sprintf("n=%d has %s, no class %d", b.N, nqueens.Plural(b.Unique, "class"), max(f.From, f.To)))
	case f.Offset < 0 || f.Limit < 0:
		return fmt.Errorf("n=%d: offset %d, limit %d: want 0 or more", b.N, f.Offset, f.Limit)
	}
	return nil
}

// classError is an error about a class number that reads as its text and
// matches ErrNoClass.
type classError string

func (e classError) Error() string        { return string(e) }
func (e classError) Is(target error) bool { return target == ErrNoClass }

// hasOrbit reports whether f admits classes of the given orbit.
func (f Filter) hasOrbit(orbit int) bool {
	if len(f.Symmetry) == 0 {
		return true
	}
	for _, s := range f.Symmetry {
		if s.Orbit() == orbit {
			return true
		}
	}
	return false
}

// where returns the conditions of f on the classes of n but its offset and
// limit, as SQL with its arguments. A filter that leaves out the classes
// of no symmetry says so in the form classes_symmetric's WHERE has, so
// that SQLite may read that small index (query names it).
func (f Filter) where(n int) (string, []any) {
	q := "n = ? AND class >= ?"
	args := []any{n, max(f.From, 1)}
	if f.To > 0 {
		q += " AND class <= ?"
		args = append(args, f.To)
	}
	if len(f.Symmetry) > 0 {
		q += " AND orbit IN (" + strings.Repeat("?,", len(f.Symmetry)-1) + "?)"
		for _, s := range f.Symmetry {
			args = append(args, s.Orbit())
		}
		if !f.hasOrbit(8) {
			q += " AND orbit <> 8"
		}
	}
	return q, args
}

// query returns the query of Classes for f: with no symmetry to filter by,
// the offset moves the start of the range, a seek, rather than skipping
// rows.
func (f Filter) query(n int) (string, []any) {
	if len(f.Symmetry) == 0 && f.Offset > 0 {
		f.From, f.Offset = max(f.From, 1)+f.Offset, 0
	}
	where, args := f.where(n)
	from := "classes"
	if len(f.Symmetry) > 0 && !f.hasOrbit(8) {
		// The few symmetric classes: their index, then the rows by key.
		// SQLite's planner would rather walk the key in class order.
		from = "classes INDEXED BY classes_symmetric"
	}
	q := "SELECT class, placement, orbit FROM " + from + " WHERE " + where + " ORDER BY class"
	if f.Limit > 0 || f.Offset > 0 {
		limit := f.Limit
		if limit == 0 {
			limit = -1
		}
		q += " LIMIT ? OFFSET ?"
		args = append(args, limit, f.Offset)
	}
	return q, args
}

// Count returns how many classes of the build b the filter f selects,
// after checking f against b (Filter.Check).
func (db *DB) Count(ctx context.Context, b Build, f Filter) (uint64, error) {
	c, err := db.tally(ctx, b, f)
	return c.Unique, err
}

// tally counts the classes of b that f selects by symmetry. It reads the
// small index of symmetric classes, not the classes (named, as SQLite's
// planner would walk the key of the range instead: 1.4 s at n = 17), unless
// f pages through a symmetry filter or the catalog has no class numbers.
func (db *DB) tally(ctx context.Context, b Build, f Filter) (nqueens.Counts, error) {
	var c nqueens.Counts
	if err := f.Check(b); err != nil {
		return c, err
	}
	from, to := max(f.From, 1), int64(b.Unique)
	if f.To > 0 {
		to = f.To
	}
	if len(f.Symmetry) == 0 && (f.Offset > 0 || f.Limit > 0) {
		from += f.Offset
		if f.Limit > 0 {
			to = min(to, from+f.Limit-1)
		}
		f.Offset, f.Limit = 0, 0
	}
	if from > to {
		return c, nil
	}
	if db.version < 3 || f.Offset > 0 || f.Limit > 0 {
		f.From, f.To = from, to
		for l, err := range db.Classes(ctx, b.N, f) {
			if err != nil {
				return c, err
			}
			c.Add(l.Symmetry)
		}
		return c, nil
	}
	rows, err := db.db.QueryContext(ctx, tallySQL, b.N, from, to)
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
	if f.hasOrbit(8) {
		c.AddN(nqueens.SymNone, uint64(to-from+1)-symmetric)
	}
	return c, nil
}

// tallySQL counts the symmetric classes of n numbered from one number to
// another, by orbit.
const tallySQL = `SELECT orbit, count(*) FROM classes INDEXED BY classes_symmetric
	WHERE n = ? AND class >= ? AND class <= ? AND orbit <> 8 GROUP BY orbit`

// A Finder tells which class of a complete build a canonical placement
// is. Class order is placement order, so it searches the class numbers by
// bisection, one seek a step, and remembers the placements it has read:
// many lookups in one n soon need few seeks each. A Finder is not safe for
// concurrent use.
type Finder struct {
	db     *DB
	b      Build
	memo   map[int64]nqueens.Placement
	probes int
}

// maxMemo bounds the placements a Finder remembers.
const maxMemo = 1 << 20

// Finder returns a Finder for the classes of the build b, which should be
// complete and of the whole board: the classes of an incomplete build are
// those of its first work units, so a placement's class may be missing.
func (db *DB) Finder(b Build) *Finder {
	return &Finder{db: db, b: b, memo: map[int64]nqueens.Placement{}}
}

// Find returns the number of the class whose canonical placement is c, or
// an error wrapping ErrNoClass if no class of the build is c (c is not
// canonical, or not a solution, or the catalog lacks it).
func (f *Finder) Find(ctx context.Context, c nqueens.Placement) (int64, error) {
	if c.N() != f.b.N {
		return 0, fmt.Errorf("placement of n=%d in a finder of n=%d", c.N(), f.b.N)
	}
	lo, hi := int64(1), int64(f.b.Unique)
	for lo <= hi {
		if hi-lo < finderBlock {
			// Few classes left: read them in one range query.
			if err := f.block(ctx, lo, hi); err != nil {
				return 0, err
			}
		}
		mid := lo + (hi-lo)/2
		p, err := f.class(ctx, mid)
		if err != nil {
			return 0, err
		}
		switch cmp := p.Compare(c); {
		case cmp == 0:
			return mid, nil
		case cmp < 0:
			lo = mid + 1
		default:
			hi = mid - 1
		}
	}
	return 0, fmt.Errorf("n=%d: %s: %w", f.b.N, c, ErrNoClass)
}

// finderBlock is the most classes a Finder reads in one range query.
const finderBlock = 256

// block reads the classes lo to hi into the memo, unless it holds them.
func (f *Finder) block(ctx context.Context, lo, hi int64) error {
	if _, ok := f.memo[lo]; ok {
		if _, ok := f.memo[hi]; ok {
			if _, ok := f.memo[lo+(hi-lo)/2]; ok {
				return nil
			}
		}
	}
	if len(f.memo)+int(hi-lo+1) > maxMemo {
		clear(f.memo)
	}
	for l, err := range f.db.Classes(ctx, f.b.N, Filter{From: lo, To: hi}) {
		if err != nil {
			return err
		}
		f.memo[l.Class] = l.Placement
		f.probes++
	}
	return nil
}

// Probes returns how many classes the finder has read from the catalog.
func (f *Finder) Probes() int { return f.probes }

// class returns the placement of class k, from the memo or the catalog.
func (f *Finder) class(ctx context.Context, k int64) (nqueens.Placement, error) {
	if p, ok := f.memo[k]; ok {
		return p, nil
	}
	l, err := f.db.Class(ctx, f.b.N, k)
	if err != nil {
		return nqueens.Placement{}, err
	}
	f.probes++
	if len(f.memo) >= maxMemo {
		clear(f.memo)
	}
	f.memo[k] = l.Placement
	return l.Placement, nil
}

// Lookup returns the class of the build b that the solution p belongs to:
// its number, canonical placement and symmetry. It returns an error if p
// is not a solution (naming two queens that attack each other), and one
// wrapping ErrNoClass if the catalog lacks p's class. For many lookups,
// use a Finder.
func (db *DB) Lookup(ctx context.Context, b Build, p nqueens.Placement) (nqueens.Layout, error) {
	if err := p.Valid(); err != nil {
		return nqueens.Layout{}, fmt.Errorf("lookup %s: %w", p, err)
	}
	if p.N() != b.N {
		return nqueens.Layout{}, fmt.Errorf("lookup %s: a board of n=%d, not %d", p, p.N(), b.N)
	}
	c := canonical.Fold(p)
	k, err := db.Finder(b).Find(ctx, c)
	if err != nil {
		return nqueens.Layout{}, fmt.Errorf("lookup %s: %w", p, err)
	}
	sym, _ := canonical.Classify(c)
	return nqueens.Layout{Class: k, Placement: c, Symmetry: sym}, nil
}
