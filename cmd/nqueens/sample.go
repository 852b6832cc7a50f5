package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/export"
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/progress"
	"github.com/nqueens/nqueens/sample"
)

func (a *app) sampleCmd() *cobra.Command {
	var count int64
	var seed uint64
	var solutions bool
	var out string
	cmd := nCommand("sample N [--count M] [--seed S] [--solutions] [--format json|ndjson|csv|leetcode|grid|svg|html|parquet] [-o FILE]",
		"Draw classes (or solutions) of n uniformly at random, the same for the same seed", func(cmd *cobra.Command, n int) error {
			format, err := a.outputFormat(cmd, out)
			switch {
			case err != nil:
			case count < 1:
				err = fmt.Errorf("--count must be 1 or more, got %d", count)
			case format.OneBoard() && count != 1:
				err = fmt.Errorf("format %s draws one board: use --count 1", format)
			default:
				err = format.Check(n)
			}
			if err != nil {
				return usageError{fmt.Errorf("sample: %w", err)}
			} else if err := a.checkOutput(out); err != nil {
				return err
			}
			seed, seeded := seedOf(cmd, seed)
			what := sample.Classes
			if solutions {
				what = sample.Solutions
			}
			return a.sample(cmd.Context(), n, what, seed, seeded, uint64(count), format, out)
		})
	wholeVar(cmd.Flags(), &count, "count", 1, "how many draws")
	wholeVar(cmd.Flags(), &seed, "seed", 0, "seed of the draws (default: a random seed, printed on stderr)")
	cmd.Flags().BoolVar(&solutions, "solutions", false, "draw solutions, each with the same probability, instead of classes")
	formatFlag(cmd, export.FormatJSON, export.Formats, "")
	outputFlag(cmd, &out)
	return cmd
}

// sample writes count draws of what from the catalog's classes of n,
// made with seed, in format to out, as they are drawn; it prints a seed
// the user did not give once it has n's classes to draw from.
func (a *app) sample(ctx context.Context, n int, what sample.Of, seed uint64, seeded bool, count uint64, format export.Format, out string) error {
	if k, ok := nqueens.KnownCounts(n); ok && k.Total == 0 {
		return fmt.Errorf("sample: n=%d has no solution, so nothing to draw (every n >= 4 has one)", n)
	}
	src, closeSrc, err := a.drawSource(ctx, n, "sample")
	if err != nil {
		return err
	} else if src == nil {
		// Neither in the catalog nor small enough to list: say how to
		// build n, as every reader of n does.
		db, _, err := a.openBuilt(ctx, n)
		if err == nil {
			db.Close()
		}
		return fmt.Errorf("sample: %w", err)
	}
	defer closeSrc()
	if src.Count() == 0 {
		return fmt.Errorf("sample: n=%d has no solution, so nothing to draw (every n >= 4 has one)", n)
	}
	if !seeded {
		a.logf("sample: seed %d", seed)
	}
	noun, boards := "class", export.ClassBoards
	if what == sample.Solutions {
		noun, boards = "solution", export.SolutionBoards
	}
	write := func(w io.Writer) error {
		m := progress.Nop
		if count >= progressFromLayouts {
			m = a.progress(fmt.Sprintf("sample n=%d", n), 0, int64(count), what.String())
		}
		defer m.Done()
		draws := sample.Seeded(ctx, src, what, seed, count)
		_, err := export.WriteAll(ctx, format.New(w, boards), draws, func(uint64) { m.Add(export.ProgressEvery) })
		if ctx.Err() != nil {
			return errors.New("sample interrupted")
		}
		return err
	}
	return a.writeOutput(ctx, out, write, "wrote %s of n=%d", phrase.Plural(count, noun), n)
}
