package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/export"
	"github.com/nqueens/nqueens/input"
	"github.com/nqueens/nqueens/internal/phrase"
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
			switch {
			case format == "grid":
				// The name of the export format whose boards grids reads.
				return usageError{fmt.Errorf("lookup: --format grid: want %s (grids reads the boards of export --format grid)", orList(lookupFormats))}
			case !slices.Contains(lookupFormats, format):
				return usageError{fmt.Errorf("lookup: --format %s: want %s", quote(format), orList(lookupFormats))}
			case format == "grids" && (len(args) != 1 || args[0] != "-"):
				return usageError{errors.New("lookup: --format grids reads boards of several lines from stdin: it goes with -")}
			}
			var in iter.Seq2[nqueens.Placement, error]
			if len(args) == 1 && args[0] == "-" {
				in = input.ReadPlacements(input.Reader(cmd.Context(), cmd.InOrStdin()), format)
			} else {
				// The arguments are one placement.
				p, err := input.ParsePlacement(strings.Join(args, " "), format)
				if err != nil {
					return usageError{fmt.Errorf("lookup: %s: %w%s", quote(strings.Join(args, " ")), err, fromOne(args, format))}
				}
				in = func(yield func(nqueens.Placement, error) bool) { yield(p, nil) }
			}
			out := export.FormatText
			if asJSON {
				out = export.FormatJSON
			}
			return a.lookup(cmd.Context(), in, out)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "one JSON object a line")
	cmd.Flags().StringVar(&format, "format", "columns", "input: columns (or NDJSON export objects, or a grid on one line), leetcode grids, or grids (with -: a row a line, a blank line between boards)")
	completeValues(cmd, "format", lookupFormats...)
	return cmd
}

// lookupFormats are the forms of input lookup --format names, as
// input.ReadPlacements reads them.
var lookupFormats = []string{"columns", "leetcode", "grids"}

// fromOne returns, for the columns of a board that count from 1 (each of
// 1..n once) and make a solution so read, the hint that columns count
// from 0, with the board so written; "" for anything else.
func fromOne(args []string, format string) string {
	if format != "columns" {
		return ""
	}
	fields := strings.FieldsFunc(strings.Join(args, " "), func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == '[' || r == ']' })
	seen := make([]bool, len(fields)+1)
	zero := make([]string, len(fields))
	for i, f := range fields {
		c, err := nqueens.ParseWhole(f)
		if err != nil || c < 1 || c > uint64(len(fields)) || seen[c] || len(fields) > nqueens.MaxN {
			return ""
		}
		seen[c], zero[i] = true, strconv.FormatUint(c-1, 10)
	}
	if p, err := nqueens.Parse(strings.Join(zero, " ")); err != nil || p.Valid() != nil {
		return "" // not a solution from 0 either: no hint
	}
	return fmt.Sprintf(" (columns count from 0: written from 1, this board is %s)", strings.Join(zero, " "))
}

// lookupFormatAdvice words the error of input of another format
// (input.FormatError) with the lookup that reads it; other errors it
// returns as they are.
func lookupFormatAdvice(err error) error {
	var fe *input.FormatError
	if !errors.As(err, &fe) {
		return err
	}
	reads := map[string]string{
		"columns":  "lookup - reads a board a line",
		"leetcode": "lookup --format leetcode - reads LeetCode's boards",
		"grids":    "lookup --format grids - reads boards drawn a row a line, a blank line between two",
	}[fe.Format]
	return fmt.Errorf("%s: %s (%s)", fe.Where, fe.What, reads)
}

// lookup writes what export.Found says of each placement of in, with its
// class number when the catalog holds its n complete. It returns a usage
// error for input that is not a placement, and an error when a placement
// is not a solution.
func (a *app) lookup(ctx context.Context, in iter.Seq2[nqueens.Placement, error], format export.Format) error {
	classes := &classNumbers{a: a}
	defer classes.close()
	warned := map[int]bool{}
	find := func(canon nqueens.Placement) (int64, error) {
		k, err := classes.find(ctx, canon)
		if errors.As(err, new(noNumbers)) {
			switch k := canon.N(); {
			case classes.openErr != nil: // one error for every n: said once, if at all
				if !warned[0] && !errors.Is(err, store.ErrNoCatalog) {
					a.logf("lookup: no class numbers: %v", err)
				}
				warned[0] = true
			case !warned[k]:
				warned[k] = true
				a.logf("lookup: no class numbers for n=%d: %v", k, err)
			}
			return 0, nil
		} else if err != nil {
			return 0, fmt.Errorf("lookup: %w", err)
		}
		return k, nil
	}
	w := bufio.NewWriterSize(a.stdout, 1<<16)
	defer w.Flush()
	var read, bad int
	for p, err := range in {
		if ctx.Err() != nil {
			return errors.New("lookup interrupted")
		} else if err != nil {
			return usageError{fmt.Errorf("lookup: %w", lookupFormatAdvice(err))}
		}
		read++
		f, err := export.Identify(p, find)
		if err != nil {
			return err
		}
		if f.NotSolution != nil {
			bad++
		}
		if err := format.WriteFound(w, f); err != nil {
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
		return fmt.Errorf("%s of %s %s", phrase.Count(bad), phrase.Plural(read, "placement"), verb)
	}
	return nil
}
