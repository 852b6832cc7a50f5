package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/store"
)

// classNumbers finds the catalog's numbers of classes by their canonical
// placements, for lookup and complete --classes: it opens the catalog
// read-only on first use and keeps a store.Finder for each n.
type classNumbers struct {
	a       *app
	opened  bool
	db      *store.DB
	openErr error // why the catalog did not open
	finders map[int]*store.Finder
	missing map[int]error // why the catalog cannot number the classes of n
}

// noNumbers is find's error when the catalog cannot number the classes of
// an n: it is missing, or does not hold n complete.
type noNumbers struct{ error }

func (e noNumbers) Unwrap() error { return e.error }

// find returns the number of the class whose canonical placement is c, or
// a noNumbers error saying why the catalog cannot number the classes of
// c's n.
func (c *classNumbers) find(ctx context.Context, canon nqueens.Placement) (int64, error) {
	n := canon.N()
	if err := c.ready(ctx, n); err != nil {
		return 0, err
	}
	k, err := c.finders[n].Find(ctx, canon)
	if errors.Is(err, store.ErrNoClass) {
		return 0, fmt.Errorf("the catalog %s lacks the class of %s: run nqueens verify %d", c.db.Path(), canon, n)
	}
	return k, err
}

// ready returns nil if the catalog can number the classes of n, else a
// noNumbers error saying why.
func (c *classNumbers) ready(ctx context.Context, n int) error {
	if !c.opened {
		c.opened, c.finders, c.missing = true, map[int]*store.Finder{}, map[int]error{}
		c.db, c.openErr = c.a.open(ctx)
	}
	if c.openErr != nil {
		return noNumbers{c.openErr}
	}
	if c.finders[n] == nil && c.missing[n] == nil {
		if b, err := completeBuild(ctx, c.db, n); err != nil {
			c.missing[n] = err
		} else {
			c.finders[n] = c.db.Finder(b)
		}
	}
	if err := c.missing[n]; err != nil {
		return noNumbers{err}
	}
	return nil
}

func (c *classNumbers) close() {
	if c.db != nil {
		c.db.Close()
	}
}
