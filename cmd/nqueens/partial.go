package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/count/estimate"
	"github.com/nqueens/nqueens/export"
	"github.com/nqueens/nqueens/input"
	"github.com/nqueens/nqueens/internal/parallel"
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/partial"
	"github.com/nqueens/nqueens/partial/puzzle"
	"github.com/nqueens/nqueens/progress"
	"github.com/nqueens/nqueens/sample"
	"github.com/nqueens/nqueens/store"
)

// completer runs complete over the boards.
type completer struct {
	a                   *app
	ctx                 context.Context
	json, list, classes bool
	stdin               bool
	limit               int
	format              export.Format
	numbers             classNumbers
}

func (a *app) completeCmd() *cobra.Command {
	var asJSON, list, classes bool
	var limit int
	var out, form string
	cmd := &cobra.Command{Use: "complete BOARD|- [--input lines|grids]", Short: "Count (or list) the solutions that extend a partial board",
		Args: exactArgs(1, "one board, or - to read boards from stdin"),
		RunE: func(cmd *cobra.Command, args []string) error {
			var boards iter.Seq2[partial.Input, error]
			var perr error
			if args[0] != "-" {
				var b partial.Board
				b, perr = partial.Parse(args[0])
				boards = func(yield func(partial.Input, error) bool) { yield(partial.Input{Board: b, Line: 1}, nil) }
			}
			if args[0] == "-" {
				var f partial.Form
				f, perr = partial.ParseForm(form)
				boards = partial.Boards(input.Reader(cmd.Context(), cmd.InOrStdin()), f)
			} else if cmd.Flags().Changed("input") {
				perr = errors.New("--input says how to read boards from stdin: it goes with -")
			}
			f, err := a.outputFormat(cmd, out)
			switch {
			case !list && (cmd.Flags().Changed("limit") || cmd.Flags().Changed("format")):
				err = errors.New("--limit and --format go with --list")
			case list && asJSON:
				err = errors.New("--json prints counts, --list the completions: use --list --format json for the completions in JSON")
			case limit < 0:
				err = fmt.Errorf("--limit must be 0 (no limit) or more, got %d", limit)
			case err == nil && f.OneBoard() && limit != 1:
				err = fmt.Errorf("format %s draws one board: add --limit 1", f)
			case err == nil && !list:
				if asJSON, err = countsJSON(asJSON, out); err == nil {
					err = perr
				}
			case err == nil:
				err = perr
			}
			if err != nil {
				return usageError{fmt.Errorf("complete: %w", err)}
			} else if err := a.checkOutput(out); err != nil {
				return err
			}
			c := completer{a: a, numbers: classNumbers{a: a}, ctx: cmd.Context(), json: asJSON, list: list, classes: classes, limit: limit, format: f, stdin: args[0] == "-"}
			defer c.numbers.close()
			return a.writeOutput(cmd.Context(), out, func(w io.Writer) error { return c.run(w, boards) }, "wrote the completions")
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "one JSON object a board: n, given, count, nodes")
	cmd.Flags().BoolVar(&list, "list", false, "list the completions instead of counting them")
	wholeVar(cmd.Flags(), &limit, "limit", 0, "with --list: at most this many completions a board (0: all)")
	formatFlag(cmd, export.FormatText, export.CompletionFormats, "with --list: ")
	cmd.Flags().BoolVar(&classes, "classes", false, "name the classes of the completions (n must be in the catalog)")
	cmd.Flags().StringVar(&form, "input", "lines", "with -: lines (a board a line) or grids (grids of several lines, separated by blank lines)")
	completeValues(cmd, "input", partial.Lines.String(), partial.Grids.String())
	outputFlag(cmd, &out)
	return cmd
}

// countsJSON returns whether complete writes its counts (not --list) as
// JSON lines: with --json, or to a file named .json, .ndjson or .jsonl;
// a file named for another format (.csv, .svg, .html) is refused, as the
// counts are in none of them.
func countsJSON(asJSON bool, out string) (bool, error) {
	switch ext := strings.ToLower(filepath.Ext(out)); ext {
	case ".json", ".ndjson", ".jsonl":
		return true, nil
	case ".csv", ".svg", ".html", ".htm":
		return false, fmt.Errorf("the counts go out as text or, with --json, JSON lines, not %s: name the file .txt or .json (--list --format writes the completions in other formats)", ext)
	}
	return asJSON, nil
}

func (c *completer) run(w io.Writer, boards iter.Seq2[partial.Input, error]) error {
	lister := c.format.New(w, export.SolutionBoards) // completions
	for in, err := range boards {
		if c.ctx.Err() != nil {
			return errors.New("complete interrupted")
		} else if err != nil {
			return usageError{fmt.Errorf("complete: %w", formAdvice(err))}
		}
		b := in.Board
		if err := b.Check(); err != nil {
			where := "complete: "
			if c.stdin {
				where = fmt.Sprintf("complete: line %d: ", in.Line)
			}
			return fmt.Errorf("%s%v: no solution extends %s", where, err, b)
		}
		numbers, tallies, err := c.classNumbers(b)
		if err != nil {
			return err
		}
		if c.list {
			if err := c.listBoard(lister, b, numbers); err != nil {
				return err
			}
			continue
		}
		count, err := c.count(b)
		if err != nil {
			return err
		}
		rec := export.Completed{N: b.N(), Given: b.Given(), Count: count.Completions, Nodes: count.Nodes}
		if c.classes {
			rec.Classes = make([]export.ClassCount, 0, len(tallies)) // [] in JSON when none
		}
		for _, t := range tallies {
			rec.Classes = append(rec.Classes, export.ClassCount{Class: numbers[t.Canonical], Symmetry: t.Symmetry, Count: t.Count})
		}
		if c.json {
			err = rec.WriteJSON(w)
		} else {
			err = rec.WriteText(w)
		}
		if err != nil {
			return err
		}
	}
	if c.list {
		return lister.Close()
	}
	return nil
}

// longCompletion is how long a count of completions must be estimated to
// take for complete to say so and show its progress: as long as a count
// of solutions must (estimate.LongSeconds). longCompletionNodes is the
// nodes below which it does not estimate the time (under a second). Tests
// lower them.
var (
	longCompletion              = estimate.LongSeconds * time.Second
	longCompletionNodes float64 = 1e8
)

// count counts the completions of b on the configured workers. Before a
// count estimated at longCompletion or more it says on stderr (unless
// --quiet) how long it should take, and shows its progress.
func (c *completer) count(b partial.Board) (partial.Count, error) {
	o := partial.Options{Workers: c.a.cfg.Workers}
	if est := partial.Estimate(b); !c.a.cfg.Quiet && est >= longCompletionNodes {
		rate, err := partial.MeasureRate(c.ctx)
		if err != nil {
			return partial.Count{}, errors.New("complete interrupted")
		}
		workers := parallel.Workers(c.a.cfg.Workers)
		if secs := est / (rate * float64(workers)); secs >= longCompletion.Seconds() {
			c.a.logf("complete %s: %s on %s (%s, estimated); Ctrl-C stops it", b, phrase.About(secs), phrase.Plural(workers, "core"), phrase.Approx(est, "node"))
			m := progress.Nop
			estimate := time.Duration(secs * float64(time.Second))
			o.Start = func(units int) { m = c.a.progressEstimated("complete", 0, int64(units), "work units", estimate) }
			o.Progress = func() { m.Add(1) }
			defer func() { m.Done() }()
		}
	}
	count, err := partial.CountParallel(c.ctx, b, o)
	if err != nil {
		return count, errors.New("complete interrupted")
	}
	return count, nil
}

// formAdvice adds to the error of a line read in the wrong form
// (partial.FormError) the --input form that reads it; other errors it
// returns as they are.
func formAdvice(err error) error {
	var pe *partial.ParseError
	var fe *partial.FormError
	switch {
	case !errors.As(err, &pe) || !errors.As(err, &fe):
		return err
	case fe.Form == partial.Lines:
		return fmt.Errorf("line %d: %s is a row of a grid, not a board: a line holds one board (--input grids reads grids of several lines, separated by blank lines)", pe.Line, quote(fe.Text))
	}
	return err
}

// listBoard writes the completions of b, up to the limit.
func (c *completer) listBoard(w export.Writer, b partial.Board, numbers map[nqueens.Placement]int64) error {
	k := 0
	for p := range partial.Completions(b) {
		if c.limit > 0 && k == c.limit {
			break
		} else if c.ctx.Err() != nil {
			return errors.New("complete interrupted")
		}
		k++
		l := nqueens.Layout{Placement: p}
		if c.format != export.FormatText { // text writes the columns alone
			l.Symmetry = canonical.SymmetryOf(p)
		}
		if numbers != nil {
			l.Class = numbers[canonical.Fold(p)]
		}
		if err := w.Write(l); err != nil {
			return err
		}
	}
	c.a.logf("listed %s of %s", phrase.Plural(k, "completion"), b)
	return nil
}

// classNumbers returns, with --classes, the classes of b's completions and
// the catalog's number of each, by canonical placement.
func (c *completer) classNumbers(b partial.Board) (map[nqueens.Placement]int64, []partial.Tally, error) {
	if !c.classes {
		return nil, nil, nil
	} else if err := c.numbers.ready(c.ctx, b.N()); err != nil {
		return nil, nil, fmt.Errorf("complete --classes: %w", err)
	}
	tallies, err := partial.ClassesOf(c.ctx, b)
	if err != nil {
		return nil, nil, errors.New("complete interrupted")
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
	var count, given int
	var minimal, distinct bool
	var seed uint64
	var out, answersName, levelName string
	cmd := nCommand("puzzle N [--count M] [--seed S] [--given K | --minimal] [--difficulty easy|medium|hard] [--distinct] [--format text|json|ndjson|csv|dataset|parquet] [--answers with|none|only]", "Make partial boards of n with exactly one completion", func(cmd *cobra.Command, n int) error {
		f, err := a.outputFormat(cmd, out)
		answers, aerr := export.ParseAnswers(answersName)
		var level puzzle.Level
		var lerr error
		if cmd.Flags().Changed("difficulty") {
			level, lerr = puzzle.ParseLevel(levelName)
		}
		switch {
		case err != nil:
		case aerr != nil:
			err = fmt.Errorf("--answers %s: want with (puzzles and solutions), none (a puzzle book) or only (the answer key)", quote(answersName))
		case lerr != nil:
			err = fmt.Errorf("--difficulty %s: want easy, medium or hard", quote(levelName))
		case count < 1 || int64(count) > puzzle.MaxCount:
			err = fmt.Errorf("--count must be between 1 and %d, got %d", int64(puzzle.MaxCount), count)
		case distinct && count > puzzle.MaxDistinct:
			err = fmt.Errorf("--distinct keeps up to %d puzzles apart, got --count %d", puzzle.MaxDistinct, count)
		case cmd.Flags().Changed("given") && minimal:
			err = errors.New("--given K and --minimal exclude each other: choose one")
		case cmd.Flags().Changed("given") && (given < 1 || given > n):
			err = fmt.Errorf("--given must be between 1 and %d for n=%d, got %d", n, n, given)
		}
		if err != nil {
			return usageError{fmt.Errorf("puzzle: %w", err)}
		} else if n == 2 || n == 3 {
			return fmt.Errorf("puzzle: n=%d has no solution, so no puzzle (every n >= 4 has one)", n)
		} else if err := a.checkOutput(out); err != nil {
			return err
		}
		seed, seeded := seedOf(cmd, seed)
		if !seeded {
			a.logf("puzzle: seed %d", seed)
		}
		return a.makePuzzles(cmd.Context(), puzzleRun{n: n, count: count, seed: seed, distinct: distinct, level: level}, puzzle.Options{Givens: given}, f, answers, out)
	})
	wholeVar(cmd.Flags(), &count, "count", 1, "how many puzzles")
	wholeVar(cmd.Flags(), &seed, "seed", 0, "seed of the random draws (default: a random seed, printed on stderr)")
	wholeVar(cmd.Flags(), &given, "given", 0, "exactly K given queens")
	cmd.Flags().BoolVar(&minimal, "minimal", false, "minimal puzzles: no given queen can be removed (the default)")
	cmd.Flags().StringVar(&levelName, "difficulty", "", "only puzzles of this difficulty: easy, medium or hard (drawn as before, the others left out)")
	cmd.Flags().BoolVar(&distinct, "distinct", false, "no puzzle twice: draw on until --count puzzles differ (fails, naming how many, if n has too few)")
	formatFlag(cmd, export.FormatText, export.PuzzleFormats, "")
	cmd.Flags().StringVar(&answersName, "answers", "with", "with (each puzzle's solution), none (a puzzle book), only (the answer key, for the same --seed)")
	completeValues(cmd, "answers", export.AnswerChoices...)
	completeLevels(cmd)
	outputFlag(cmd, &out)
	return cmd
}

// progressFromPuzzles is the fewest puzzles whose making shows progress
// (on a terminal a bar; elsewhere a line every 2 s, none for a quick run).
const progressFromPuzzles = 1000

// puzzleRun is what puzzle is asked for: count puzzles of n drawn with
// seed, distinct or not, of one level (0: any).
type puzzleRun struct {
	n, count int
	seed     uint64
	distinct bool
	level    puzzle.Level
}

func (a *app) makePuzzles(ctx context.Context, run puzzleRun, opts puzzle.Options, format export.Format, answers export.Answers, out string) error {
	n, count, seed, distinct := run.n, run.count, run.seed, run.distinct
	src, closeSrc, err := a.drawSource(ctx, n, "puzzle")
	if err != nil {
		return err
	}
	defer closeSrc()
	opts.Source = src
	if src == nil {
		a.logf("puzzle: n=%d is not in the catalog and above %d: solutions come from a randomized search, which is not uniform (uniform draws need n in the catalog: %s)", n, sample.MaxSearchN, a.buildAdvice(ctx, n))
	}
	write := func(w io.Writer) error {
		pw := format.NewPuzzles(w, answers)
		i := 0
		draws := count
		if distinct {
			draws = puzzle.DistinctDraws(count)
		}
		if run.level != 0 {
			draws = puzzle.LevelDraws(draws)
		}
		puzzles := puzzle.Puzzles(ctx, n, draws, seed, opts, a.cfg.Workers)
		if run.level != 0 {
			puzzles = puzzle.OfLevel(puzzles, n, run.level)
		}
		if distinct {
			puzzles = puzzle.Distinct(puzzles, count)
		}
		m := progress.Nop
		if count >= progressFromPuzzles {
			m = a.progress(fmt.Sprintf("puzzle n=%d", n), 0, int64(count), "puzzles")
		}
		defer m.Done()
		for r, err := range puzzles {
			m.Add(1)
			if ctx.Err() != nil {
				return errors.New("puzzle interrupted")
			}
			if err != nil {
				return err
			}
			err := pw.Write(export.Puzzle{N: n, Given: r.Board.Given(), Solution: r.Solution, Class: r.Class, Symmetry: r.Symmetry, Difficulty: r.Level.String(), Nodes: r.Nodes, Seed: seed, Index: i})
			i++
			if err != nil {
				return err
			} else if i == count { // the draws of a level go on past count
				break
			}
		}
		if err := pw.Close(); err != nil {
			return err
		}
		switch {
		case i >= count:
		case run.level != 0 && distinct:
			return fmt.Errorf("puzzle --difficulty %s --distinct: n=%d gave %s in %s, fewer than the %d asked for", run.level, n, phrase.Plural(i, "distinct "+run.level.String()+" puzzle"), phrase.Plural(draws, "draw"), count)
		case run.level != 0:
			return fmt.Errorf("puzzle --difficulty %s: n=%d gave %s in %s, fewer than the %d asked for", run.level, n, phrase.Plural(i, run.level.String()+" puzzle"), phrase.Plural(draws, "draw"), count)
		default:
			return fmt.Errorf("puzzle --distinct: n=%d gave %s in %s, fewer than the %d asked for", n, phrase.Plural(i, "distinct puzzle"), phrase.Plural(draws, "draw"), count)
		}
		return nil
	}
	return a.writeOutput(ctx, out, write, "wrote %s of n=%d", phrase.Plural(count, "puzzle"), n)
}

// drawSource returns the classes of n that sample and puzzle (command,
// which words the errors) draw from, uniformly: the catalog's when it
// holds n complete, else the class search's up to sample.MaxSearchN, else
// none (nil). A missing catalog is no error. The caller must call the
// function returned when done.
func (a *app) drawSource(ctx context.Context, n int, command string) (sample.Source, func(), error) {
	search := func() (sample.Source, func(), error) {
		if s := sample.Search(n, a.cfg.Workers); s != nil {
			return s, s.Close, nil
		}
		return nil, func() {}, nil
	}
	db, err := a.open(ctx)
	if errors.Is(err, store.ErrNoCatalog) {
		return search()
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", command, err)
	}
	r, err := db.Reader(ctx, n)
	if err != nil {
		db.Close()
		if !errors.Is(err, store.ErrNotBuilt) && !errors.Is(err, store.ErrIncomplete) {
			return nil, nil, fmt.Errorf("%s: %w", command, err)
		}
		return search()
	}
	r.Workers = a.cfg.Workers
	return r, func() { db.Close() }, nil
}
