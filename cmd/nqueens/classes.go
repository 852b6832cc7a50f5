package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/store"
)

// classNumbers gives lookup and complete --classes the catalog's numbers
// of classes (store.Numbers), opening the catalog read-only on first use.
type classNumbers struct {
	a       *app
	opened  bool
	db      *store.DB
	openErr error // why the catalog did not open
	nums    *store.Numbers
}

// noNumbers is find's error when the catalog cannot number the classes of
// an n: it is missing, or does not hold n complete.
type noNumbers struct{ error }

func (e noNumbers) Unwrap() error { return e.error }

// find returns the number of the class whose canonical placement is c, or
// a noNumbers error saying why the catalog cannot number the classes of
// c's n.
func (c *classNumbers) find(ctx context.Context, canon nqueens.Placement) (int64, error) {
	if err := c.ready(ctx, canon.N()); err != nil {
		return 0, err
	}
	k, err := c.nums.Find(ctx, canon)
	if errors.As(err, new(*store.MissingClassError)) {
		return 0, fmt.Errorf("%w: run %s", err, c.a.advice().verify(canon.N()))
	}
	return k, err
}

// ready returns nil if the catalog can number the classes of n, else a
// noNumbers error saying why.
func (c *classNumbers) ready(ctx context.Context, n int) error {
	if !c.opened {
		c.opened = true
		if c.db, c.openErr = c.a.open(ctx); c.openErr == nil {
			c.nums = c.db.Numbers()
		}
	}
	if errors.Is(c.openErr, store.ErrForeignFile) {
		return c.openErr // a file another user may have planted is no reason to go on without numbers
	} else if c.openErr != nil {
		return noNumbers{c.openErr}
	} else if err := c.nums.Ready(ctx, n); errors.Is(err, store.ErrBadRow) {
		return err // a damaged catalog is no reason to go on without numbers
	} else if err != nil {
		return noNumbers{c.a.advise(ctx, err)}
	}
	return nil
}

func (c *classNumbers) close() {
	if c.db != nil {
		c.db.Close()
	}
}
