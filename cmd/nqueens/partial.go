package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/export"
	"github.com/nqueens/nqueens/input"
	"github.com/nqueens/nqueens/partial"
	"github.com/nqueens/nqueens/store"
)

// listFormats are the formats of complete --list: text (a completion a
// line) and the export formats.
var listFormats = append([]string{"text"}, export.Formats...)

func (a *app) completeCmd() *cobra.Command {
	var (
		asJSON, list, classes bool
		limit                 int
		format, out           string
	)
	cmd := &cobra.Command{
		Use:   "complete BOARD|-",
		Short: "Count (or list) the solutions that extend a partial board",
		Args:  exactArgs(1, "one board, or - to read boards from stdin"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !list && (cmd.Flags().Changed("limit") || cmd.Flags().Changed("format")) {
				return usageError{errors.New("complete: --limit and --format go with --list")}
			}
			if list && asJSON {
				return usageError{errors.New("complete: --json prints counts, --list the completions: use --list --format json for the completions in JSON")}
			}
			if limit < 0 {
				return usageError{fmt.Errorf("complete: --limit must be 0 (no limit) or more, got %d", limit)}
			}
			f, err := lookupFormat(format, listFormats)
			if err != nil {
				return usageError{fmt.Errorf("complete: %w", err)}
			}
			if export.OneBoard(f) && limit != 1 {
				return usageError{fmt.Errorf("complete: format %s draws one board: add --limit 1", f)}
			}
			boards := func(yield func(partial.Input, error) bool) {
				b, err := partial.Parse(args[0])
				yield(partial.Input{Board: b, Line: 1}, err)
			}
			if args[0] == "-" {
				boards = partial.Boards(input.Reader(cmd.Context(), cmd.InOrStdin()))
			} else if _, err := partial.Parse(args[0]); err != nil {
				return usageError{fmt.Errorf("complete: %w", err)}
			}
			if out != "" {
				if err := a.checkOutput(out); err != nil {
					return err
				}
			}
			c := completer{a: a, numbers: classNumbers{a: a}, ctx: cmd.Context(), json: asJSON, list: list, classes: classes, limit: limit, format: f, stdin: args[0] == "-"}
			defer c.close()
			write := func(w io.Writer) error { return c.run(w, boards) }
			if out == "" {
				return write(a.stdout)
			}
			return a.writeOutput(cmd.Context(), out, write, "wrote the completions")
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "one JSON object a board: n, given, count, nodes")
	cmd.Flags().BoolVar(&list, "list", false, "list the completions instead of counting them")
	cmd.Flags().IntVar(&limit, "limit", 0, "with --list: at most this many completions a board (0: all)")
	cmd.Flags().StringVarP(&format, "format", "f", "text", "with --list: "+strings.Join(listFormats, ", "))
	cmd.Flags().BoolVar(&classes, "classes", false, "name the classes of the completions (n must be in the catalog)")
	cmd.Flags().StringVarP(&out, "output", "o", "", "write to FILE instead of stdout")
	return cmd
}

// lookupFormat returns the name of one of formats, not case-sensitive.
func lookupFormat(name string, formats []string) (string, error) {
	for _, f := range formats {
		if strings.EqualFold(name, f) {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown format %s: must be one of %s", quote(name), strings.Join(formats, ", "))
}

// completer runs complete over the boards.
type completer struct {
	a                   *app
	ctx                 context.Context
	json, list, classes bool
	stdin               bool
	limit               int
	format              string
	numbers             classNumbers
	lister              export.Writer
	listed              int
}

func (c *completer) close() { c.numbers.close() }

// where names a board in messages: its line when read from stdin.
func (c *completer) where(line int) string {
	if c.stdin {
		return fmt.Sprintf("complete: line %d: ", line)
	}
	return "complete: "
}

func (c *completer) run(w io.Writer, boards iter.Seq2[partial.Input, error]) error {
	if c.list && c.format != "text" {
		c.lister, _ = export.New(c.format, w)
	}
	for in, err := range boards {
		if err := c.ctx.Err(); err != nil {
			return errors.New("complete interrupted")
		}
		if err != nil {
			return usageError{fmt.Errorf("complete: %w", err)}
		}
		b := in.Board
		if err := b.Check(); err != nil {
			return fmt.Errorf("%s%v: no solution extends %s", c.where(in.Line), err, b)
		}
		numbers, tallies, err := c.classNumbers(b)
		if err != nil {
			return err
		}
		if c.list {
			if err := c.listBoard(w, b, numbers); err != nil {
				return err
			}
			continue
		}
		count, err := interruptible(c.ctx, func() partial.Count { return partial.CountCompletions(b) })
		if err != nil {
			return err
		}
		rec := export.Completed{N: b.N(), Given: b.Given(), Count: count.Completions, Nodes: count.Nodes}
		if c.classes {
			rec.Classes = make([]export.ClassCount, 0, len(tallies))
			for _, t := range tallies {
				rec.Classes = append(rec.Classes, export.ClassCount{Class: numbers[t.Canonical], Symmetry: t.Symmetry, Count: t.Count})
			}
		}
		if c.json {
			err = export.WriteCompletedJSON(w, rec)
		} else {
			err = export.WriteCompletedText(w, rec)
		}
		if err != nil {
			return err
		}
	}
	if c.lister != nil {
		return c.lister.Close()
	}
	return nil
}

// listBoard writes the completions of b, up to the limit.
func (c *completer) listBoard(w io.Writer, b partial.Board, numbers map[nqueens.Placement]int64) error {
	k := 0
	var buf []byte
	for p := range partial.Completions(b) {
		if c.limit > 0 && k == c.limit {
			break
		}
		if c.ctx.Err() != nil {
			return errors.New("complete interrupted")
		}
		k++
		if c.lister == nil {
			buf = append(append(buf[:0], p.String()...), '\n')
			if _, err := w.Write(buf); err != nil {
				return err
			}
			continue
		}
		l := nqueens.Layout{Placement: p, Symmetry: canonical.SymmetryOf(p)}
		if numbers != nil {
			l.Class = numbers[canonical.Fold(p)]
		}
		if err := c.lister.Write(l); err != nil {
			return err
		}
	}
	c.a.logf("listed %s of %s", nqueens.Plural(k, "completion"), b)
	return nil
}

// interruptible returns f's result, or an error as soon as ctx is
// cancelled: the search of an empty board of 32 runs for years, and
// Ctrl-C must stop it. (The abandoned search ends with the process.)
func interruptible[T any](ctx context.Context, f func() T) (T, error) {
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v, nil
	case <-ctx.Done():
		var zero T
		return zero, errors.New("complete interrupted")
	}
}

// classNumbers returns, with --classes, the classes of b's completions and
// the catalog's number of each, by canonical placement.
func (c *completer) classNumbers(b partial.Board) (map[nqueens.Placement]int64, []partial.Tally, error) {
	if !c.classes {
		return nil, nil, nil
	} else if err := c.numbers.ready(c.ctx, b.N()); err != nil {
		return nil, nil, fmt.Errorf("complete --classes: %w", err)
	}
	tallies, err := interruptible(c.ctx, func() []partial.Tally { return partial.ClassesOf(b) })
	if err != nil {
		return nil, nil, err
	}
	numbers := make(map[nqueens.Placement]int64, len(tallies))
	for _, t := range tallies {
		if numbers[t.Canonical], err = c.numbers.find(c.ctx, t.Canonical); err != nil {
			return nil, nil, fmt.Errorf("complete --classes: %w", err)
		}
	}
	return numbers, tallies, nil
}

func (a *app) puzzleCmd() *cobra.Command {
	var (
		count, given int
		minimal      bool
		seed         uint64
		format, out  string
	)
	cmd := &cobra.Command{
		Use:   "puzzle N [--count M] [--seed S] [--given K | --minimal] [--format text|json|ndjson|csv]",
		Short: "Make partial boards of n with exactly one completion",
		Args:  exactArgs(1, "one n"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := oneN("puzzle", args[0])
			if err != nil {
				return err
			}
			if format, err = export.PuzzleFormat(format); err != nil {
				return usageError{fmt.Errorf("puzzle: %w", err)}
			}
			if count < 1 {
				return usageError{fmt.Errorf("puzzle: --count must be 1 or more, got %d", count)}
			}
			if cmd.Flags().Changed("given") && minimal {
				return usageError{errors.New("puzzle: --given K and --minimal exclude each other: choose one")}
			}
			if cmd.Flags().Changed("given") && (given < 1 || given > n) {
				return usageError{fmt.Errorf("puzzle: --given must be between 1 and %d for n=%d, got %d", n, n, given)}
			}
			if n == 2 || n == 3 {
				return fmt.Errorf("puzzle: n=%d has no solution, so no puzzle (every n >= 4 has one)", n)
			}
			if !cmd.Flags().Changed("seed") {
				var b [8]byte
				rand.Read(b[:])
				seed = binary.LittleEndian.Uint64(b[:])
				a.logf("puzzle: seed %d", seed)
			}
			if out != "" {
				if err := a.checkOutput(out); err != nil {
					return err
				}
			}
			return a.puzzle(cmd.Context(), n, count, seed, partial.Options{Givens: given}, format, out)
		},
	}
	cmd.Flags().IntVar(&count, "count", 1, "how many puzzles")
	cmd.Flags().Uint64Var(&seed, "seed", 0, "seed of the random draws (default: a random seed, printed on stderr)")
	cmd.Flags().IntVar(&given, "given", 0, "exactly K given queens")
	cmd.Flags().BoolVar(&minimal, "minimal", false, "minimal puzzles: no given queen can be removed (the default)")
	cmd.Flags().StringVarP(&format, "format", "f", "text", strings.Join(export.PuzzleFormats, ", "))
	cmd.Flags().StringVarP(&out, "output", "o", "", "write to FILE instead of stdout")
	return cmd
}

func (a *app) puzzle(ctx context.Context, n, count int, seed uint64, opts partial.Options, format, out string) error {
	sampler, closeDB, err := a.sampler(ctx, n)
	if err != nil {
		return err
	}
	defer closeDB()
	opts.Sampler = sampler
	if sampler == nil {
		a.logf("puzzle: n=%d is not in the catalog and above %d: solutions come from a randomized search, which is not uniform (uniform draws need n in the catalog)", n, partial.MaxSearchSampleN)
	}
	write := func(w io.Writer) error {
		pw, _ := export.NewPuzzles(format, w)
		for r, err := range partial.Puzzles(ctx, n, count, seed, opts, a.cfg.Workers) {
			if ctx.Err() != nil {
				return errors.New("puzzle interrupted")
			}
			if err != nil {
				return err
			}
			err := pw.Write(export.Puzzle{N: n, Given: r.Board.Given(), Solution: r.Solution, Class: r.Class, Symmetry: r.Symmetry, Difficulty: r.Difficulty})
			if err != nil {
				return err
			}
		}
		return pw.Close()
	}
	if out == "" {
		return write(a.stdout)
	}
	return a.writeOutput(ctx, out, write, "wrote %s of n=%d", nqueens.Plural(count, "puzzle"), n)
}

// sampler returns the uniform sampler of n's solutions: from the catalog
// when it holds n complete, else from the class search up to
// partial.MaxSearchSampleN, else nil. A missing catalog is no error.
func (a *app) sampler(ctx context.Context, n int) (*partial.Sampler, func(), error) {
	db, err := store.Open(ctx, a.cfg.DB, store.Options{ReadOnly: true})
	if errors.Is(err, store.ErrNoCatalog) {
		return partial.SearchSampler(ctx, n, a.cfg.Workers), func() {}, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("puzzle: %w", err)
	}
	b, err := db.Complete(ctx, n)
	if err != nil {
		db.Close()
		if !errors.Is(err, store.ErrNotBuilt) && !errors.Is(err, store.ErrIncomplete) {
			return nil, nil, fmt.Errorf("puzzle: %w", err)
		}
		return partial.SearchSampler(ctx, n, a.cfg.Workers), func() {}, nil
	}
	s := &partial.Sampler{N: n, Total: b.Total, Classes: func() iter.Seq2[nqueens.Layout, error] { return db.Classes(ctx, n, store.Filter{}) }}
	return s, func() { db.Close() }, nil
}
