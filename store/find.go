package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
)

// A Finder tells which class of a complete build a canonical placement
// is (Finder.Find). Class order is placement order, so of rows it searches
// the class numbers by bisection, one seek a step, and remembers the
// placements it has read: many lookups in one n soon need few seeks each.
// Of an index it seeks the block of the placement's prefix and searches
// that prefix's subtree up to the placement (canonical.UnitRank). A Finder is not safe for
// concurrent use.
type Finder struct {
	db     *DB
	b      Build
	form   readForm
	memo   map[int64]nqueens.Placement
	probes int
}

// maxMemo bounds the placements a Finder remembers.
const maxMemo = 1 << 20

// Finder returns a Finder for the classes of the build b, which should be
// complete and of the whole board: the classes of an incomplete build are
// those of its first work units, so a placement's class may be missing.
func (db *DB) Finder(b Build) *Finder {
	return &Finder{db: db, b: b, form: db.form(b, b.N), memo: map[int64]nqueens.Placement{}}
}

// Find returns the number of the class whose canonical placement is c, or
// an error wrapping ErrNoClass if no class of the build is c (c is not
// canonical, or not a solution, or the catalog lacks it).
func (f *Finder) Find(ctx context.Context, c nqueens.Placement) (int64, error) {
	if c.N() != f.b.N {
		return 0, fmt.Errorf("placement of n=%d in a finder of n=%d", c.N(), f.b.N)
	}
	return f.form.rank(ctx, f, c)
}

// bisect is Find of the rows: a bisection on the class numbers, reading
// the classes through the memo.
func (f *Finder) bisect(ctx context.Context, c nqueens.Placement) (int64, error) {
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

// block reads the classes lo to hi of the rows into the memo, unless it
// holds them.
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
	for l, err := range f.db.rowClasses(ctx, f.b.N, Filter{From: lo, To: hi}) {
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

// class returns the placement of class k, from the memo or the rows (a
// Finder of an index never reads classes: Find searches its prefixes).
func (f *Finder) class(ctx context.Context, k int64) (nqueens.Placement, error) {
	if p, ok := f.memo[k]; ok {
		return p, nil
	}
	l, err := f.db.rowClass(ctx, f.b.N, k)
	if errors.Is(err, ErrNoClass) {
		// The build records f.b.Unique classes, numbered from 1.
		return nqueens.Placement{}, missing(f.b, k)
	}
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
	return db.lookup(ctx, db.Finder(b), p)
}

// lookup is Lookup through the Finder fi.
func (db *DB) lookup(ctx context.Context, fi *Finder, p nqueens.Placement) (nqueens.Layout, error) {
	if err := p.Valid(); err != nil {
		return nqueens.Layout{}, fmt.Errorf("lookup %s: %w", p, err)
	}
	if p.N() != fi.b.N {
		return nqueens.Layout{}, fmt.Errorf("lookup %s: a board of n=%d, not %d", p, p.N(), fi.b.N)
	}
	c := canonical.Fold(p)
	k, err := fi.Find(ctx, c)
	if err != nil {
		return nqueens.Layout{}, fmt.Errorf("lookup %s: %w", p, err)
	}
	sym, _ := canonical.Classify(c)
	return nqueens.Layout{Class: k, Placement: c, Symmetry: sym}, nil
}

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
