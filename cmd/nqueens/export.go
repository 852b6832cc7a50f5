package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/export"
	"github.com/nqueens/nqueens/progress"
	"github.com/nqueens/nqueens/store"
)

func (a *app) exportCmd() *cobra.Command {
	var (
		format string
		all    bool
		out    string
		class  int64
	)
	cmd := &cobra.Command{
		Use:   "export N --format json|ndjson|csv|leetcode|svg|html [--all] [--class K] [-o FILE]",
		Short: "Write the classes (or all solutions) of n as JSON, NDJSON, CSV, LeetCode grids, SVG or HTML",
		Args:  exactArgs(1, "one n"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := oneN("export", args[0])
			if err != nil {
				return err
			}
			if format, err = export.Format(format); err != nil {
				return usageError{err}
			}
			if cmd.Flags().Changed("class") && class < 1 {
				return usageError{fmt.Errorf("--class must be 1 or more, got %d", class)}
			}
			if export.OneBoard(format) {
				if all {
					return usageError{fmt.Errorf("format %s draws one board: drop --all, choose it with --class", format)}
				}
				class = max(class, 1)
			}
			if format == "html" && n > export.MaxHTMLN {
				return usageError{fmt.Errorf("format html draws boards up to n=%d, not n=%d: use csv or ndjson", export.MaxHTMLN, n)}
			}
			if out != "" {
				if err := a.checkOutput(out); err != nil {
					return err
				}
			}
			return a.export(cmd.Context(), n, format, all, class, out)
		},
	}
	cmd.Flags().Int64Var(&class, "class", 0, "only class K (1-based)")
	cmd.Flags().StringVarP(&format, "format", "f", "json", strings.Join(export.Formats, ", "))
	cmd.Flags().BoolVar(&all, "all", false, "every solution, not one per class")
	cmd.Flags().StringVarP(&out, "output", "o", "", "write to FILE instead of stdout")
	return cmd
}

func (a *app) export(ctx context.Context, n int, format string, all bool, class int64, out string) error {
	db, b, err := a.openBuilt(ctx, n)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := checkClass(b, class); err != nil {
		return err
	}
	layouts, want, err := db.Layouts(ctx, b, store.Selection{All: all, Class: class})
	if err != nil {
		return err
	}
	write := func(w io.Writer) error {
		ew, _ := export.New(format, w)
		var written uint64
		m := progress.Nop
		if want >= progressFromLayouts {
			m = a.progress(fmt.Sprintf("export n=%d", n), 0, int64(want), "layouts")
		}
		defer m.Done()
		var reported uint64
		for l, err := range layouts {
			if written-reported >= 1<<14 {
				m.Add(int64(written - reported))
				reported = written
			}
			var ce *store.CountError
			if errors.As(err, &ce) {
				return fmt.Errorf("export n=%d: wrote %d layouts, the catalog records %d; run nqueens verify %d", n, ce.Got, ce.Want, n)
			}
			if err != nil {
				return err
			}
			if err := ew.Write(l); err != nil {
				return err
			}
			written++
		}
		if err := ctx.Err(); err != nil {
			return errors.New("export interrupted")
		}
		return ew.Close()
	}
	if out == "" {
		return write(a.stdout)
	}
	return a.writeOutput(ctx, out, write, "wrote %s of n=%d", plural(want, "layout"), n)
}

// progressFromLayouts is the smallest export that shows progress.
const progressFromLayouts = 200_000

// classK returns class k of the build b from db, or a usage error if b
// has fewer than k classes.
func classK(ctx context.Context, db *store.DB, b store.Build, k int64) (nqueens.Layout, error) {
	if err := checkClass(b, k); err != nil {
		return nqueens.Layout{}, err
	}
	return db.Class(ctx, b.N, k)
}

// checkClass returns a usage error if the build b has fewer than k classes.
func checkClass(b store.Build, k int64) error {
	if uint64(k) > b.Unique {
		return usageError{fmt.Errorf("n=%d has %s, no class %d", b.N, plural(b.Unique, "class"), k)}
	}
	return nil
}

// openBuilt opens the catalog read-only and returns it with its complete
// build of n, or an error saying how to make it. The caller must Close the
// DB.
func (a *app) openBuilt(ctx context.Context, n int) (*store.DB, store.Build, error) {
	db, err := store.Open(ctx, a.cfg.DB, store.Options{ReadOnly: true})
	if err != nil {
		return nil, store.Build{}, err
	}
	b, err := completeBuild(ctx, db, n)
	if err != nil {
		db.Close()
		return nil, b, err
	}
	return db, b, nil
}

// completeBuild returns the build of n, or an error saying how to make it
// if the catalog lacks n or holds it incomplete.
func completeBuild(ctx context.Context, db *store.DB, n int) (store.Build, error) {
	b, err := db.Build(ctx, n)
	if errors.Is(err, store.ErrNotBuilt) {
		return b, fmt.Errorf("n=%d is not in the catalog %s: run nqueens build %d first", n, db.Path(), n)
	}
	if err != nil {
		return b, err
	}
	if !b.Shard.IsWhole() {
		return b, fmt.Errorf("n=%d in %s is shard %s of a sharded build, not the whole board: merge the shards first (nqueens merge)", n, db.Path(), b.Shard)
	}
	if !b.Complete {
		return b, fmt.Errorf("n=%d is only partly built in %s (%d of %d work units): run nqueens build %d to finish it", n, db.Path(), b.UnitsDone, b.UnitsTotal, n)
	}
	return b, nil
}
