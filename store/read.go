package store

import (
	"context"
	"fmt"
	"iter"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/store/internal/dbfile"
	"github.com/nqueens/nqueens/store/internal/query"
	"github.com/nqueens/nqueens/store/internal/record"
)

// Filter selects classes of one n: those numbered From to To (inclusive; 0
// leaves a bound open) whose symmetry is one of Symmetry (any when empty),
// and of those, at most Limit (0: no limit) after skipping the first
// Offset. The zero Filter selects every class. Filter.Check tells whether
// a filter can select from a build. See the query package.
type Filter = query.Filter

// Classes returns an iterator over the stored classes of n that f selects,
// in lexicographic order of their canonical placements, which is the order
// of their numbers. For an incomplete build it yields the classes stored
// so far. A row that cannot be decoded is yielded as an error naming its
// class number, and the iteration goes on; a read error is yielded once,
// with a zero Layout, and ends it. The iterator can be used more than
// once; each use queries again. Classes does not check f against the
// build (Count and Layouts do).
func (db *DB) Classes(ctx context.Context, n int, f Filter) iter.Seq2[nqueens.Layout, error] {
	return query.Classes(ctx, &db.h, n, f)
}

// Class returns class k (1-based, in lexicographic order) of n: one seek.
// It returns an error wrapping ErrNoClass if the catalog holds no class k
// of n.
func (db *DB) Class(ctx context.Context, n int, k int64) (nqueens.Layout, error) {
	return query.Class(ctx, &db.h, n, k)
}

// Count returns how many classes of the build b the filter f selects,
// after checking f against b (Filter.Check).
func (db *DB) Count(ctx context.Context, b Build, f Filter) (uint64, error) {
	return query.Count(ctx, &db.h, b, f)
}

// A Finder tells which class of a complete build a canonical placement
// is (Finder.Find), by bisection on the class numbers, remembering the
// placements it has read. A Finder is not safe for concurrent use. See the
// query package.
type Finder = query.Finder

// ClassOf returns the class in the catalog of the solution p: its number,
// canonical placement and symmetry, in one call. It returns DB.Complete's
// error when the catalog does not hold p's n complete (an
// *IncompleteError), Lookup's when p is not a solution, and an error
// wrapping ErrNoClass when the catalog lacks p's class. For many lookups,
// use Numbers.
func (db *DB) ClassOf(ctx context.Context, p nqueens.Placement) (nqueens.Layout, error) {
	b, err := db.Complete(ctx, p.N())
	if err != nil {
		return nqueens.Layout{}, err
	}
	return db.Lookup(ctx, b, p)
}

// Finder returns a Finder for the classes of the build b, which should be
// complete and of the whole board: the classes of an incomplete build are
// those of its first work units, so a placement's class may be missing.
func (db *DB) Finder(b Build) *Finder {
	return query.NewFinder(&db.h, b)
}

// Lookup returns the class of the build b that the solution p belongs to:
// its number, canonical placement and symmetry. It returns an error if p
// is not a solution (naming two queens that attack each other), and one
// wrapping ErrNoClass if the catalog lacks p's class. For many lookups,
// use a Finder.
func (db *DB) Lookup(ctx context.Context, b Build, p nqueens.Placement) (nqueens.Layout, error) {
	return query.Lookup(ctx, &db.h, b, p)
}

// Selection chooses what an export of one build holds: the classes its
// Filter selects, or, with All, each such class's distinct solutions,
// class by class or, with Lex, all in lexicographic order (searched on
// Workers goroutines). See the query package.
type Selection = query.Selection

// CountError is the error Layouts' iterator ends with when the catalog
// yields another number of layouts than its build records (N, Got,
// Want): a damaged catalog (verify.Catalog names the fault).
type CountError = query.CountError

// RowError is the error of a class row that a read finds is not what the
// catalog promises: N, the Layout as stored, its Key, and its Problems. It
// matches ErrBadRow; Detail says what is wrong without n.
type RowError = record.RowError

// Layouts returns the layouts of the build b that sel selects and how many
// there are: classes in order, each class's solutions in lexicographic
// order (canonical.Orbit) with its class number, orbit and symmetry, or
// with sel.Lex every solution in lexicographic order. The
// iterator stops at the first error it yields, a read error or, after the
// last layout, a *CountError if it yielded another number than it
// returned. It returns an error wrapping ErrNoClass if sel's class range
// goes past b's classes (see Filter.Check).
func (db *DB) Layouts(ctx context.Context, b Build, sel Selection) (iter.Seq2[nqueens.Layout, error], uint64, error) {
	return query.Layouts(ctx, &db.h, b, sel)
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
	rows, err := db.h.DB.QueryContext(ctx, `SELECT n, count(*) FROM classes WHERE n NOT IN (SELECT n FROM builds) GROUP BY n ORDER BY n`)
	if err != nil {
		return nil, fmt.Errorf("audit: %w", dbfile.Translate(err))
	}
	defer rows.Close()
	for rows.Next() {
		var n, k int64
		if err := rows.Scan(&n, &k); err != nil {
			return nil, fmt.Errorf("audit: %w", dbfile.Translate(err))
		}
		problems = append(problems, Problem{int(n), fmt.Sprintf("%d classes stored with no record of their build (its builds row was deleted?); %s", k, record.OrphanFix(db.h.Path, int(n)))})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("audit: %w", dbfile.Translate(err))
	}
	objects := []struct{ kind, name string }{{"table", "builds"}, {"table", "classes"}, {"view", "class_list"}}
	if db.h.Version >= 3 {
		// The queries of symmetric classes name it.
		objects = append(objects, struct{ kind, name string }{"index", "classes_symmetric"})
	}
	for _, obj := range objects {
		var k int
		err := db.h.DB.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = ? AND name = ?`, obj.kind, obj.name).Scan(&k)
		if err != nil {
			return nil, fmt.Errorf("audit: %w", dbfile.Translate(err))
		}
		if k == 0 {
			problems = append(problems, Problem{0, fmt.Sprintf("the %s %s is missing from the schema (dropped by hand?)", obj.kind, obj.name)})
		}
	}
	return problems, nil
}
