package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"

	"github.com/jmoiron/sqlx"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/parallel"
)

// readForm is the read side of one form of a build (rows or index): what
// the readers of a catalog ask of the classes of one n, each answered as
// the form stores them. It is chosen once from the build (DB.form); the
// readers (Class, Classes, Count, Layouts, Finder, Reader) are written once
// over it, and a new form, or a new question, is one method a form.
type readForm interface {
	// class returns class k, 1 <= k, or an error wrapping ErrNoClass if
	// there is none.
	class(ctx context.Context, k int64) (nqueens.Layout, error)
	// classes returns the classes f selects, in order (Classes): f is
	// paged (Filter.paged), and an offset among the classes of a symmetry,
	// with no square, has been made a class number (nth).
	classes(ctx context.Context, f Filter) iter.Seq2[nqueens.Layout, error]
	// rank returns the number of the class whose canonical placement is c,
	// or an error wrapping ErrNoClass; fi is the Finder asking, whose memo
	// a form may use.
	rank(ctx context.Context, fi *Finder, c nqueens.Placement) (int64, error)
	// squareTally counts the classes numbered from to to that f, which has
	// a square, selects, by orbit.
	squareTally(ctx context.Context, f Filter, from, to int64) (nqueens.Counts, error)
	// symmetricList is the table of the form's symmetric classes (orbit 4,
	// 2 or 1) with its condition on n, as SQL after FROM, to which a
	// caller adds "AND ...": the short list that counts and pages by
	// symmetry read (tally, nth).
	symmetricList() string
	// checkList checks the list of symmetric classes between classes from
	// and to against what the form records of it elsewhere, before a
	// count or a page relies on it (an index's blocks count the symmetric
	// classes before them; rows are checked as each is read).
	checkList(ctx context.Context, from, to int64) error
	// recount checks the classes of the build as the form stores them
	// and returns what they add up to (Recount).
	recount(ctx context.Context, o RecountOptions) (nqueens.Counts, bool, error)
}

// form returns the read side of the form of the build b of n; a catalog
// that holds no build of n reads as rows (it yields none).
func (db *DB) form(b Build, n int) readForm {
	if b.Form == FormIndex {
		return indexRead{db: db, b: b}
	}
	return rowsRead{db: db, n: n}
}

// merger returns the merge of the shards of one n built in the form f,
// read from their catalogs (parts) and written into tx: the other thing
// a form does besides being read and built.
func merger(f Form) func(ctx context.Context, tx *sqlx.Tx, n int, shards []Build, parts []*DB) error {
	if f == FormIndex {
		return mergeIndex
	}
	return mergeRows
}

// formOf reads the build of n and returns it and its form's read side. A
// catalog with no build of n, or of a schema before the index, reads as
// rows.
func (db *DB) formOf(ctx context.Context, n int) (Build, readForm, error) {
	if db.h.Version < 4 {
		return Build{}, rowsRead{db: db, n: n}, nil
	}
	b, err := getBuild(ctx, db.h.DB, db.h.Version, n)
	if errors.Is(err, ErrNotBuilt) {
		return b, rowsRead{db: db, n: n}, nil
	} else if err != nil {
		return b, nil, err
	}
	return b, db.form(b, n), nil
}

// rowsRead is the read side of the rows form: a row per class in classes.
type rowsRead struct {
	db *DB
	n  int
}

func (r rowsRead) class(ctx context.Context, k int64) (nqueens.Layout, error) {
	return r.db.rowClass(ctx, r.n, k)
}

func (r rowsRead) classes(ctx context.Context, f Filter) iter.Seq2[nqueens.Layout, error] {
	return r.db.rowClasses(ctx, r.n, f)
}

func (r rowsRead) rank(ctx context.Context, fi *Finder, c nqueens.Placement) (int64, error) {
	return fi.bisect(ctx, c)
}

func (r rowsRead) squareTally(ctx context.Context, f Filter, from, to int64) (nqueens.Counts, error) {
	return r.db.squareTally(ctx, r.n, f, from, to)
}

func (r rowsRead) checkList(context.Context, int64, int64) error { return nil }

func (r rowsRead) symmetricList() string {
	return "classes INDEXED BY classes_symmetric WHERE n = ? AND orbit <> 8"
}

// indexRead is the read side of the index form: counts under prefixes,
// classes found by search (index.go).
type indexRead struct {
	db *DB
	b  Build
}

func (r indexRead) class(ctx context.Context, k int64) (nqueens.Layout, error) {
	return r.db.indexClass(ctx, r.b, k)
}

func (r indexRead) classes(ctx context.Context, f Filter) iter.Seq2[nqueens.Layout, error] {
	return r.db.indexClasses(ctx, r.b, f)
}

func (r indexRead) rank(ctx context.Context, _ *Finder, c nqueens.Placement) (int64, error) {
	return r.db.indexRank(ctx, r.b, c)
}

func (r indexRead) squareTally(ctx context.Context, f Filter, from, to int64) (nqueens.Counts, error) {
	return r.db.indexSquareTally(ctx, r.b, f, from, to)
}

func (r indexRead) symmetricList() string { return "index_symmetric WHERE n = ?" }

func (r indexRead) checkList(ctx context.Context, from, to int64) error {
	return r.db.checkSymmetric(ctx, r.b, from, to)
}

// A Reader reads the classes of one complete build of one n, whichever
// form holds it: the build is read and checked once (DB.Complete), and its
// form chosen once, so that many reads (the draws of a sample, the
// lookups of a stream of boards) read nothing else twice. It is a
// sample.Source, and a sample.Reader that reads a round of draws on
// Workers goroutines. Its methods are safe for concurrent use but Finder's
// result, which is not.
type Reader struct {
	db   *DB
	b    Build
	form readForm
	// Workers is how many goroutines ClassesAt reads on: all cores when
	// less than 1.
	Workers int
}

// Reader returns a Reader of the complete build of n, or DB.Complete's
// error: an *IncompleteError (wrapping ErrNotBuilt or ErrIncomplete) when
// the catalog does not hold n complete, and one wrapping ErrBadRow when
// its counts are not the published ones.
func (db *DB) Reader(ctx context.Context, n int) (*Reader, error) {
	b, err := db.Complete(ctx, n)
	if err != nil {
		return nil, err
	}
	return &Reader{db: db, b: b, form: db.form(b, n)}, nil
}

// Build returns the build the reader reads.
func (r *Reader) Build() Build { return r.b }

// Count returns the number of classes, C: they are numbered 1..C.
func (r *Reader) Count() int64 { return int64(r.b.Unique) }

// Class returns class k. A class number outside 1..Count is an error
// wrapping ErrNoClass; a class the build counts that the catalog lacks is
// a *RowError ("is missing"), a damaged catalog.
func (r *Reader) Class(ctx context.Context, k int64) (nqueens.Layout, error) {
	l, err := r.form.class(ctx, k)
	if errors.Is(err, ErrNoClass) && k >= 1 && uint64(k) <= r.b.Unique {
		return l, missing(r.b, k)
	}
	return l, err
}

// missing is the error of class k, which the build b counts and the
// catalog lacks.
func missing(b Build, k int64) error {
	return &rowError{N: b.N, Layout: nqueens.Layout{Class: k},
		Problems: []string{fmt.Sprintf("is missing: the build records classes 1 to %d", b.Unique)}}
}

// ClassesAt returns the classes numbered ks, read on Workers goroutines
// (a class of an index is a search), or the first error of them.
func (r *Reader) ClassesAt(ctx context.Context, ks []int64) ([]nqueens.Layout, error) {
	ls := make([]nqueens.Layout, len(ks))
	errs := make([]error, len(ks))
	err := parallel.Each(ctx, len(ks), r.Workers, func(i int, _ *parallel.Stop) {
		ls[i], errs[i] = r.Class(ctx, ks[i])
	})
	if err := cmp.Or(append(errs, err)...); err != nil {
		return nil, err
	}
	return ls, nil
}

// Classes returns the classes f selects, as DB.Classes does.
func (r *Reader) Classes(ctx context.Context, f Filter) iter.Seq2[nqueens.Layout, error] {
	return r.db.classes(ctx, r.b, r.form, f)
}

// Finder returns a Finder of the reader's build.
func (r *Reader) Finder() *Finder {
	return &Finder{db: r.db, b: r.b, form: r.form, memo: map[int64]nqueens.Placement{}}
}

// Lookup returns the class of the solution p, as DB.Lookup does.
func (r *Reader) Lookup(ctx context.Context, p nqueens.Placement) (nqueens.Layout, error) {
	return r.db.lookup(ctx, r.Finder(), p)
}
