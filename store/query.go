package store

import (
	"fmt"
	"math"
	"strings"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/phrase"
)

// Filter selects classes of one n: those numbered From to To (inclusive; 0
// leaves a bound open) whose symmetry is one of Symmetry (any when empty)
// and, if Square is not nil, whose canonical placement (the class's
// representative, as stored and as every export writes it) has a queen on
// Square; and of those, at most Limit (0: no limit) after skipping the
// first Offset. The zero Filter selects every class. Filter.Check tells
// whether a filter can select from a build.
//
// A square filter is a condition on the stored placement in SQL (substr),
// the one the class_boards view's r0..r31 columns spell out: a class whose
// canonical board has no queen on the square is left out even though some
// of its other 7 images may have one. Reading it scans the classes of the
// range, with no index: a page of 100 of the 1.8 million classes of n = 16
// took 0.6 to 1.8 s, counting them included, on 2 loaded cores.
type Filter struct {
	From, To      int64
	Symmetry      []nqueens.Symmetry
	Square        *nqueens.Square
	Offset, Limit int64
	// Searched, if not nil, is called as a read that searches every class
	// of its range (Searches) comes to them, a block of the index at a
	// time, with how many classes the block holds from the range's start
	// (or the block's) on, so that a caller can show the search's
	// progress: the calls of a read of every class add up to the build's.
	Searched func(classes uint64)
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
		return classError(fmt.Sprintf("n=%d has %s, no class %d", b.N, phrase.Plural(b.Unique, "class"), max(f.From, f.To)))
	case f.Offset < 0 || f.Limit < 0:
		return fmt.Errorf("n=%d: offset %d, limit %d: want 0 or more", b.N, f.Offset, f.Limit)
	case f.Square != nil:
		return f.Square.Check(b.N)
	}
	return nil
}

// Searches reports whether reading the classes f selects of the build b
// is a search of every class of its range: a square on a row that the
// prefixes of b's index do not fix (rows below them). Every other filter
// of either form is a read of what it selects (a square on a row the
// prefixes fix is decided by the prefixes).
func (f Filter) Searches(b Build) bool {
	return f.Square != nil && b.Form == FormIndex && f.Square.Row >= b.IndexDepth
}

// paged returns f with the offset and limit of a filter that selects by
// number alone (not sparse) made part of its range: the classes from From
// + Offset, Limit of them, the one home of that arithmetic. It saturates
// where the sum would overflow; a range that ends before it starts selects
// none. A sparse filter is returned as it is (an offset among the classes
// of a symmetry becomes a class number by nth).
func (f Filter) paged() Filter {
	if f.sparse() || (f.Offset == 0 && f.Limit == 0) {
		return f
	}
	from := max(f.From, 1)
	if f.Offset > math.MaxInt64-from {
		from = math.MaxInt64
	} else {
		from += f.Offset
	}
	if f.Limit > 0 {
		end := int64(math.MaxInt64)
		if f.Limit-1 <= math.MaxInt64-from {
			end = from + f.Limit - 1
		}
		if f.To == 0 || end < f.To {
			f.To = end
		}
	}
	f.From, f.Offset, f.Limit = from, 0, 0
	return f
}

// sparse reports whether f selects classes by what they are (symmetry or
// square), so that those it yields are not numbered in turn and an offset
// cannot be turned into a class number.
func (f Filter) sparse() bool { return len(f.Symmetry) > 0 || f.Square != nil }

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
	// With no lower bound, rows numbered 0 or below are read too, so that
	// the reader sees them out of turn.
	q, args := "n = ?", []any{n}
	if f.From > 1 {
		q += " AND class >= ?"
		args = append(args, f.From)
	}
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
	if f.Square != nil {
		q += " AND substr(placement, ?, 1) = ?"
		args = append(args, f.Square.Row+1, f.Square.KeyDigit())
	}
	return q, args
}

// query returns the query of DB.Classes for f: with no symmetry to filter by,
// the offset moves the start of the range, a seek, rather than skipping
// rows.
func (f Filter) query(n int) (string, []any) {
	f = f.paged()
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
