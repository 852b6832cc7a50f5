package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/phrase"
)

// IncompleteError is the error DB.Complete returns when the catalog does
// not hold n complete and whole; it says why, and wraps Err, ErrNotBuilt
// or ErrIncomplete. Its text names n and the catalog, and the caller adds
// what to do: "n=7 is not in the catalog /data/nqueens.db", "n=14 in
// /data/s2.db is shard 2/5 of a sharded build, not the whole board", "n=14
// is only partly built in /data/nqueens.db (3 of 10 work units)".
type IncompleteError struct {
	Path  string // the catalog's path (DB.Path)
	N     int
	Build Build // what the catalog records of n: the zero Build if nothing
	Err   error // ErrNotBuilt or ErrIncomplete
}

func (e *IncompleteError) Error() string {
	switch {
	case errors.Is(e.Err, ErrNotBuilt):
		return fmt.Sprintf("n=%d is not in the catalog %s", e.N, e.Path)
	case e.Sharded():
		return fmt.Sprintf("n=%d in %s is shard %s of a sharded build, not the whole board", e.N, e.Path, e.Build.Shard)
	}
	return fmt.Sprintf("n=%d is only partly built in %s (%s of %s work units)", e.N, e.Path, phrase.Count(e.Build.UnitsDone), phrase.Count(e.Build.UnitsTotal))
}

// Unwrap returns Err.
func (e *IncompleteError) Unwrap() error { return e.Err }

// Sharded reports whether the catalog holds one shard of n: merging the
// shard catalogs (Merge), not building on, completes it.
func (e *IncompleteError) Sharded() bool {
	return errors.Is(e.Err, ErrIncomplete) && !e.Build.Shard.IsWhole()
}

// MissingClassError is the error of Numbers.Find when the catalog holds n
// complete but lacks the class of a canonical placement of n: a damaged
// catalog, whose fault verify.Catalog names. It wraps ErrNoClass.
type MissingClassError struct {
	Path      string // the catalog's path (DB.Path)
	Canonical nqueens.Placement
}

func (e *MissingClassError) Error() string {
	return fmt.Sprintf("the catalog %s lacks the class of %s", e.Path, e.Canonical)
}

// Unwrap returns ErrNoClass.
func (e *MissingClassError) Unwrap() error { return ErrNoClass }

// Numbers gives the catalog's numbers of classes by their canonical
// placements, for boards of any n the catalog holds complete, as nqueens
// lookup and complete --classes number them: it keeps a Finder for each n
// it is asked of, made on first use, and remembers why an n cannot be
// numbered, so the catalog is asked once for each n. A Numbers is not safe
// for concurrent use; it reads through the DB it was made from, which must
// stay open while it is used.
type Numbers struct {
	db      *DB
	finders map[int]*Finder
	missing map[int]error
}

// Numbers returns a Numbers of the catalog's classes.
func (db *DB) Numbers() *Numbers {
	return &Numbers{db: db, finders: map[int]*Finder{}, missing: map[int]error{}}
}

// Ready returns nil if the catalog can number the classes of n: it holds
// n complete and whole. Otherwise it returns the error of DB.Complete: an
// *IncompleteError saying why, or a read error. The answer for each n is
// read once and remembered, but for a read error or a cancelled ctx,
// which the next call asks again.
func (c *Numbers) Ready(ctx context.Context, n int) error {
	if c.finders[n] != nil || c.missing[n] != nil {
		return c.missing[n]
	}
	b, err := c.db.Complete(ctx, n)
	if errors.As(err, new(*IncompleteError)) {
		c.missing[n] = err
	} else if err == nil {
		c.finders[n] = c.db.Finder(b)
	}
	return err // a read error or a cancel is not remembered
}

// Find returns the number of the class whose canonical placement (see
// canonical.Fold) is canon. It returns Ready's error for canon's n, a
// *MissingClassError if the catalog holds that n complete but lacks the
// class (canon is not canonical, not a solution, or the catalog is
// damaged), or a read error.
func (c *Numbers) Find(ctx context.Context, canon nqueens.Placement) (int64, error) {
	if err := c.Ready(ctx, canon.N()); err != nil {
		return 0, err
	}
	k, err := c.finders[canon.N()].Find(ctx, canon)
	if errors.Is(err, ErrNoClass) {
		return 0, &MissingClassError{Path: c.db.Path(), Canonical: canon}
	}
	return k, err
}
