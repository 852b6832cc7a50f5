package store

import (
	"context"
	"fmt"
	"iter"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/internal/phrase"
)

// Selection chooses what an export of one build holds: the classes the
// Filter selects, or, with All, each such class's distinct solutions in
// place of its canonical representative, class by class. (The solutions
// of all classes in lexicographic order are a search, not a read: see
// ClassTable.)
type Selection struct {
	Filter
	All bool
}

// CountError is the error Layouts' iterator ends with when the catalog
// yields another number of layouts than its build records: a damaged
// catalog (verify.Catalog names the fault). A caller that joins a
// ClassTable with the search of all solutions ends with it too.
type CountError struct {
	N         int
	Got, Want uint64
}

// Error says how many layouts were read and how many the build records.
func (e *CountError) Error() string {
	return fmt.Sprintf("n=%d: read %s, the catalog records %s", e.N, phrase.Plural(e.Got, "layout"), phrase.Count(e.Want))
}

// Layouts returns the layouts of the build b that sel selects and how many
// there are (0 when sel searches every class, Filter.Searches: their
// number is known once they are found): classes in order, each class's solutions in lexicographic
// order (canonical.Orbit) with its class number, orbit and symmetry. The
// iterator stops
// at the first error it yields, a read error or, after the last layout, a
// *CountError if it yielded another number than it returned. It returns an
// error wrapping ErrNoClass if sel's class range goes past b's classes
// (see Filter.Check).
func (db *DB) Layouts(ctx context.Context, b Build, sel Selection) (iter.Seq2[nqueens.Layout, error], uint64, error) {
	var want uint64
	if sel.Searches(b) {
		// Counting them would be a search of its own: want is 0, and
		// each prefix's search is checked against the index instead.
		if err := sel.Check(b); err != nil {
			return nil, 0, err
		}
	} else {
		c, err := db.tally(ctx, b, sel.Filter)
		if err != nil {
			return nil, 0, err
		}
		want = c.Unique
		if sel.All {
			want = c.Total
		}
	}
	classes := db.Classes(ctx, b.N, sel.Filter)
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
		if ctx.Err() == nil && got != want && !sel.Searches(b) {
			yield(nqueens.Layout{}, &CountError{N: b.N, Got: got, Want: want})
		}
	}, want, nil
}
