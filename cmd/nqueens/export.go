package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/export"
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/progress"
	"github.com/nqueens/nqueens/store"
)

func (a *app) exportCmd() *cobra.Command {
	var order, out string
	var all bool
	var filter func() (store.Filter, error)
	cmd := nCommand("export N --format json|ndjson|csv|leetcode|grid|svg|html|parquet [--all [--order lex]] [--class K | --classes K-L] [--symmetry S] [-o FILE]",
		"Write the classes (or all solutions) of n as JSON, NDJSON, CSV, LeetCode, text grids, SVG, HTML or Parquet", func(cmd *cobra.Command, n int) error {
			format, err := a.outputFormat(cmd, out)
			if err != nil {
				return usageError{err}
			}
			f, err := filter()
			if err != nil {
				return err
			}
			var asked *bool
			if cmd.Flags().Changed("all") {
				asked = &all
			}
			var ordered export.Order
			if cmd.Flags().Changed("order") {
				ordered = export.Order(order)
			}
			all, lex, err := format.Choose(asked, ordered)
			switch {
			case errors.Is(err, export.ErrLexNeedsAll):
				return usageError{errors.New("--order lex orders every solution: add --all (one board per class comes in lexicographic order already)")}
			case err != nil:
				return usageError{fmt.Errorf("--%w", err)}
			case format.OneBoard() && (all || f.From != f.To):
				return usageError{fmt.Errorf("format %s draws one board: drop --all, choose it with --class", format)}
			case format.Check(n) != nil:
				return usageError{format.Check(n)}
			}
			if format.OneBoard() {
				f.Limit = 1 // the first class the filter selects
			}
			if err := a.checkOutput(out); err != nil {
				return err
			}
			return a.export(cmd.Context(), n, format, store.Selection{Filter: f, All: all}, lex, out)
		})
	formatFlag(cmd, export.FormatJSON, export.Formats, "")
	cmd.ValidArgsFunction = a.completeBuilt(true)
	cmd.Flags().BoolVar(&all, "all", false, "every solution, not one per class (the default of leetcode and grid; --all=false for one per class)")
	cmd.Flags().StringVar(&order, "order", "class", "with --all: class (class by class) or lex (every solution in lexicographic order; the default of leetcode and grid)")
	completeValues(cmd, "order", string(export.OrderClass), string(export.OrderLex))
	outputFlag(cmd, &out)
	filter = filterFlags(cmd)
	return cmd
}

// export writes the layouts of n that sel selects in format to out: class
// by class, or, with lex, every solution of the selected classes in
// lexicographic order (sel.All must be set).
func (a *app) export(ctx context.Context, n int, format export.Format, sel store.Selection, lex bool, out string) error {
	db, b, err := a.openBuilt(ctx, n)
	if err != nil {
		return err
	}
	defer db.Close()
	// A square below the rows an index's prefixes fix is a search of every
	// class: said first, and metered as it goes.
	searching := sel.Searches(b)
	searched := progress.Nop
	if searching {
		searched = a.warnSquareSearch(b, *sel.Square)
		defer searched.Done()
		sel.Searched = func(k uint64) { searched.Add(int64(k)) }
	}
	layouts, want, err := db.Layouts(ctx, b, sel)
	var estimate time.Duration
	if err == nil && lex && store.LexSearches(want) {
		estimate, err = a.warnLexSearch(ctx, b)
	}
	if err == nil && lex {
		var table *store.ClassTable
		if table, err = db.ClassTable(ctx, b, sel.Filter); err == nil {
			layouts = table.Layouts(ctx, a.cfg.Workers)
		}
	}
	switch {
	case errors.Is(err, store.ErrNoClass):
		return usageError{err}
	case err != nil:
		return err
	case want == 0 && !searching && format.OneBoard():
		return usageError{fmt.Errorf("format %s draws one board, and n=%d has no %s", format, n, filterWords(sel.Filter))}
	}
	var written uint64
	boards := export.ClassBoards
	if sel.All {
		boards = export.SolutionBoards
	}
	write := func(w io.Writer) error {
		ew := format.New(w, boards)
		m := progress.Nop
		if want >= progressFromLayouts {
			m = a.progressEstimated(fmt.Sprintf("export n=%d", n), 0, int64(want), "layouts", estimate)
		}
		defer m.Done()
		var err error
		written, err = export.WriteAll(ctx, ew, layouts, func(uint64) { m.Add(export.ProgressEvery) })
		var ce *store.CountError
		switch {
		case errors.As(err, &ce):
			return fmt.Errorf("export n=%d: wrote %s, the catalog records %s; run %s", n, phrase.Plural(ce.Got, "layout"), phrase.Count(ce.Want), a.advice().verify(n))
		case ctx.Err() != nil:
			return errors.New("export interrupted")
		}
		return err
	}
	if searching {
		// The layouts are counted as they are written.
		return a.writeOutput(ctx, out, write, "wrote %s of n=%d", lazy(func() string { return phrase.Plural(written, "layout") }), n)
	}
	return a.writeOutput(ctx, out, write, "wrote %s of n=%d", phrase.Plural(want, "layout"), n)
}

// lazy is a value whose text, as %s prints it, is made when it is printed.
type lazy func() string

func (l lazy) String() string { return l() }

// warnSquareSearch writes to stderr, unless --quiet, that the classes of
// the index b with a queen on sq are found by searching every class, and
// returns the meter of that search, in classes, whose time left starts
// from the time the index's build took.
func (a *app) warnSquareSearch(b store.Build, sq nqueens.Square) progress.Meter {
	took := time.Duration(b.Seconds * float64(time.Second))
	if !a.cfg.Quiet {
		fmt.Fprintf(a.stderr, "n=%d is stored as an index whose prefixes fix rows 0 to %d: a queen on row %d is found by searching all %s (the build of its index took %s)\n",
			b.N, b.IndexDepth-1, sq.Row, phrase.Plural(b.Unique, "class"), phrase.Duration(took))
	}
	return a.progressEstimated(fmt.Sprintf("search n=%d", b.N), 0, int64(b.Unique), "classes", took)
}

// lexSearchFromN is the smallest n whose lexicographic export, when it
// searches every solution of n (store.LexSearches), says first how
// long that takes: the search of n = 16 takes about 6 seconds on 2 cores,
// and each n above about 7 times as long.
const lexSearchFromN = 16

// lexSearchFactor is how many times as long the search of every solution
// of n in lexicographic order (canonical.LexLayouts, which also folds each
// solution to find its class) takes as the count of n by constellations
// that package estimate times: 16 to 17 for each n from 13 to 17, measured
// on a 2-core AMD EPYC.
const lexSearchFactor = 16

// warnLexSearch writes to stderr, unless --quiet, that the export of the
// build b in lexicographic order searches every solution of its n, and
// about how long that takes on this machine (the count's estimate times
// lexSearchFactor), for n of lexSearchFromN and above; it returns that
// time for the progress meter to start from, 0 if it said nothing.
func (a *app) warnLexSearch(ctx context.Context, b store.Build) (time.Duration, error) {
	if a.cfg.Quiet || b.N < lexSearchFromN {
		return 0, nil
	}
	r, err := a.estimator().Rate(ctx)
	if ctx.Err() != nil {
		return 0, errors.New("export interrupted while measuring the search rate")
	} else if err != nil {
		return 0, fmt.Errorf("export %d: %w", b.N, err)
	}
	e := r.For(b.N)
	e.Seconds *= lexSearchFactor
	fmt.Fprintf(a.stderr, "export %d: the lexicographic order searches all %s of n=%d: %s\n",
		b.N, phrase.Plural(b.Total, "solution"), b.N, e.Time())
	return time.Duration(e.Seconds * float64(time.Second)), nil
}

// openBuilt opens the catalog read-only and returns it with its complete
// build of n, or an error saying how to make it. The caller must Close the
// DB.
func (a *app) openBuilt(ctx context.Context, n int) (*store.DB, store.Build, error) {
	db, err := a.open(ctx, n)
	if err != nil {
		return nil, store.Build{}, err
	}
	b, err := a.completeBuild(ctx, db, n)
	if err != nil {
		db.Close()
		return nil, b, err
	}
	return db, b, nil
}

// completeBuild returns the build of n, or an error saying how to make it
// if the catalog lacks n or holds it incomplete.
func (a *app) completeBuild(ctx context.Context, db *store.DB, n int) (store.Build, error) {
	b, err := db.Complete(ctx, n)
	return b, a.advise(ctx, err)
}

// progressFromLayouts is the smallest export that shows progress.
const progressFromLayouts = 200_000

func (a *app) solveCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{Use: "solve N", Short: "Print one solution for any n up to 10,000,000, by construction", Args: exactArgs(1, "one n"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := nqueens.ParseConstructN(args[0])
			f, ferr := a.outputFormat(cmd, out)
			switch {
			case err != nil:
				err = fmt.Errorf("solve: %w", err)
			case ferr != nil:
				err = ferr
			case f.Check(n) != nil:
				err = fmt.Errorf("solve: %w", f.Check(n))
			default:
				err = a.checkOutput(out)
			}
			if err != nil {
				return usageError{err}
			}
			cols, err := nqueens.Construct(n)
			if errors.Is(err, nqueens.ErrNoSolution) {
				return fmt.Errorf("solve: n=%d has no solution: no %d queens fit on a %dx%d board without attacking each other (every n >= 4 has one)", n, n, n, n)
			} else if err != nil {
				return usageError{err}
			} else if err := nqueens.CheckColumns(cols); err != nil {
				return fmt.Errorf("solve: the construction for n=%d is wrong (a bug): %v", n, err)
			}
			write := func(w io.Writer) error { return f.WriteSolution(w, cols) }
			return a.writeOutput(cmd.Context(), out, write, "wrote a solution of n=%d", n)
		},
	}
	formatFlag(cmd, export.FormatText, export.SolutionFormats, "")
	outputFlag(cmd, &out)
	return cmd
}
