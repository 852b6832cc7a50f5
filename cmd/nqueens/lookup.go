package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"iter"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/export"
	"github.com/nqueens/nqueens/input"
	"github.com/nqueens/nqueens/store"
)

func (a *app) lookupCmd() *cobra.Command {
	var (
		asJSON bool
		format string
	)
	cmd := &cobra.Command{
		Use:   "lookup PLACEMENT... | -",
		Short: "Say whether boards are solutions, and which class each is",
		Args:  minArgs(1, `a placement such as "4 6 1 5 2 0 7 3", or - to read placements from stdin`),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "columns" && format != "leetcode" {
				return usageError{fmt.Errorf("lookup: --format %s: want columns or leetcode", quote(format))}
			}
			var in iter.Seq2[nqueens.Placement, error]
			if len(args) == 1 && args[0] == "-" {
				in = input.ReadPlacements(input.Reader(cmd.Context(), cmd.InOrStdin()), format)
			} else {
				// The arguments are one placement.
				p, err := input.ParsePlacement(strings.Join(args, " "), format)
				if err != nil {
					return usageError{fmt.Errorf("lookup: %s: %w", quote(strings.Join(args, " ")), err)}
				}
				in = func(yield func(nqueens.Placement, error) bool) { yield(p, nil) }
			}
			out := "text"
			if asJSON {
				out = "json"
			}
			return a.lookup(cmd.Context(), in, out)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "one JSON object a line")
	cmd.Flags().StringVar(&format, "format", "columns", "input: columns (or NDJSON export objects), or leetcode grids")
	return cmd
}

// lookup writes what export.Found says of each placement of in, with its
// class number when the catalog holds its n complete. It returns a usage
// error for input that is not a placement, and an error when a placement
// is not a solution.
func (a *app) lookup(ctx context.Context, in iter.Seq2[nqueens.Placement, error], format string) error {
	classes := newClassFinder(ctx, a)
	defer classes.close()
	w := bufio.NewWriterSize(a.stdout, 1<<16)
	var read, bad int
	for p, err := range in {
		if ctx.Err() != nil {
			w.Flush()
			return errors.New("lookup interrupted")
		}
		if err != nil {
			w.Flush()
			return usageError{fmt.Errorf("lookup: %w", err)}
		}
		read++
		f, err := export.Identify(p, classes.find)
		if err != nil {
			w.Flush()
			return err
		}
		if f.NotSolution != nil {
			bad++
		}
		if err := export.WriteFound(w, format, f); err != nil {
			return err
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if bad > 0 {
		verb := "is not a solution"
		if bad > 1 {
			verb = "are not solutions"
		}
		return fmt.Errorf("%d of %s %s", bad, nqueens.Plural(read, "placement"), verb)
	}
	return nil
}

// classFinder finds class numbers in the catalog, if there is one, with a
// store.Finder for each n it holds complete.
type classFinder struct {
	ctx     context.Context
	a       *app
	db      *store.DB
	opened  bool
	finders map[int]*store.Finder // nil for an n the catalog lacks
}

func newClassFinder(ctx context.Context, a *app) *classFinder {
	return &classFinder{ctx: ctx, a: a, finders: map[int]*store.Finder{}}
}

// find returns the class number of the canonical placement c, or 0 if the
// catalog does not hold its n complete (saying so on stderr once).
func (c *classFinder) find(canon nqueens.Placement) (int64, error) {
	n := canon.N()
	f, ok := c.finders[n]
	if !ok {
		f = c.finder(n)
		c.finders[n] = f
	}
	if f == nil {
		return 0, nil
	}
	k, err := f.Find(c.ctx, canon)
	if errors.Is(err, store.ErrNoClass) {
		return 0, fmt.Errorf("lookup: the catalog %s lacks the class of %s: run nqueens verify %d", c.db.Path(), canon, n)
	}
	return k, err
}

// finder returns a Finder for n, or nil if the catalog lacks n complete.
func (c *classFinder) finder(n int) *store.Finder {
	if !c.opened {
		c.opened = true
		if _, err := os.Stat(c.a.cfg.DB); err == nil {
			db, err := store.Open(c.ctx, c.a.cfg.DB, store.Options{ReadOnly: true})
			if err != nil {
				c.a.logf("lookup: no class numbers: %v", err)
			}
			c.db = db
		}
	}
	if c.db == nil {
		return nil
	}
	b, err := completeBuild(c.ctx, c.db, n)
	if err != nil {
		c.a.logf("lookup: no class numbers for n=%d: %v", n, err)
		return nil
	}
	return c.db.Finder(b)
}

func (c *classFinder) close() {
	if c.db != nil {
		c.db.Close()
	}
}
