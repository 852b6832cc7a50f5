package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/export"
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/store"
)

func (a *app) showCmd() *cobra.Command {
	var limit int
	var ascii bool
	var filter func() (store.Filter, error)
	cmd := nCommand("show N [--class K | --classes K-L] [--symmetry S]", "Draw the classes of n as text boards", func(cmd *cobra.Command, n int) error {
		f, err := filter()
		if err != nil {
			return err
		} else if limit < 1 {
			return usageError{fmt.Errorf("--limit must be 1 or more, got %d", limit)}
		}
		return a.show(cmd.Context(), n, f, limit, ascii)
	})
	cmd.Flags().BoolVar(&ascii, "ascii", false, "draw with Q and . instead of box-drawing characters")
	wholeVar(cmd.Flags(), &limit, "limit", 20, "draw at most this many classes")
	filter = filterFlags(cmd)
	cmd.ValidArgsFunction = a.completeBuilt(true)
	return cmd
}

func (a *app) show(ctx context.Context, n int, f store.Filter, limit int, ascii bool) error {
	db, b, err := a.openBuilt(ctx, n)
	if err != nil {
		return err
	}
	defer db.Close()
	counted := f
	if f.Searches(b) {
		// Counting them is a search of every class, metered.
		m := a.warnSquareSearch(b, *f.Square)
		counted.Searched = func(k uint64) { m.Add(int64(k)) }
		defer m.Done()
	}
	matching, err := db.Count(ctx, b, counted)
	if errors.Is(err, store.ErrNoClass) {
		return usageError{err}
	} else if err != nil {
		return err
	}
	if b.Unique == 0 {
		fmt.Fprintf(a.stdout, "n=%d has no solutions\n", n)
		return nil
	}
	tw := export.NewText(a.stdout)
	tw.ASCII, tw.Classes = ascii, b.Unique
	f.Limit = int64(limit)
	shown, err := export.WriteAll(ctx, tw, db.Classes(ctx, n, f), nil)
	if err != nil {
		return err
	}
	if rest := matching - shown; rest > 0 {
		fmt.Fprintf(a.stdout, "\n... and %s; draw one with --class K\n", phrase.Plural(rest, "more class"))
	} else if matching == 0 {
		fmt.Fprintf(a.stdout, "n=%d has no %s\n", n, filterWords(f))
	}
	return nil
}
