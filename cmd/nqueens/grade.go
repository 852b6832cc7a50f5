package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/input"
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/partial/grade"
)

// shownWrong is how many wrong answers grade lists without --json.
const shownWrong = 10

func (a *app) gradeCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{Use: "grade PUZZLES ANSWERS [--json]", Short: "Score answers to puzzles: 1 for any solution that keeps the given queens",
		Args: exactArgs(2, "two files, the puzzles and the answers (- for stdin)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if args[0] == "-" && args[1] == "-" {
				return usageError{errors.New("grade: only one of the puzzles and the answers can be read from stdin (-)")}
			}
			ctx := cmd.Context()
			var in [2]grade.Input
			for i, path := range args {
				r, closeFile, err := openInput(ctx, path, cmd.InOrStdin())
				if err != nil {
					return fmt.Errorf("grade: %w", err)
				}
				defer closeFile()
				in[i] = grade.Input{Name: path, R: r}
				if path == "-" {
					in[i].Name = "stdin"
				}
			}
			w := bufio.NewWriter(a.stdout)
			err := a.grade(ctx, w, in[0], in[1], asJSON)
			if ferr := w.Flush(); err == nil {
				err = ferr
			}
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "a JSON object a line: each answer's score, form and reason, then the summary")
	cmd.ValidArgsFunction = completeRecords
	return cmd
}

// grade grades the answers against the puzzles and writes each grade
// (--json) or the wrong ones, up to shownWrong, and then the summary.
func (a *app) grade(ctx context.Context, w io.Writer, puzzles, answers grade.Input, asJSON bool) error {
	var sum grade.Summary
	wrong := 0
	for g, err := range grade.Files(puzzles, answers) {
		if ctx.Err() != nil {
			return errors.New("grade interrupted")
		} else if err != nil {
			return fmt.Errorf("grade: %w", err)
		}
		sum.Add(g)
		switch {
		case asJSON:
			if err := writeJSONLine(w, g); err != nil {
				return err
			}
		case g.Score == 0:
			if wrong++; wrong <= shownWrong {
				fmt.Fprintf(w, "%s\n", wrongLine(g, puzzles.Name, answers.Name))
			}
		}
	}
	if asJSON {
		return writeJSONLine(w, sum)
	}
	if wrong > shownWrong {
		fmt.Fprintf(w, "... and %d more (--json lists every answer)\n", wrong-shownWrong)
	}
	fmt.Fprintf(w, "%s: %d correct, score %.3f", phrase.Plural(sum.Puzzles, "puzzle")+", "+phrase.Plural(sum.Answers, "answer"), sum.Correct, sum.Score)
	if sum.Unmatched > 0 {
		fmt.Fprintf(w, "; %s matched no puzzle", phrase.Plural(sum.Unmatched, "answer"))
	}
	if sum.Unanswered > 0 {
		fmt.Fprintf(w, "; %s unanswered", phrase.Plural(sum.Unanswered, "puzzle"))
	}
	_, err := fmt.Fprintln(w)
	return err
}

// wrongLine words a grade of 0 for grade's text output: where the answer
// (or the puzzle no answer matched) is, and why.
func wrongLine(g grade.Graded, puzzles, answers string) string {
	where := fmt.Sprintf("%s line %d", answers, g.Answer)
	if g.Answer == 0 {
		where = fmt.Sprintf("%s line %d", puzzles, g.Puzzle)
	}
	if g.ID != "" {
		where += " (id " + phrase.Quote(g.ID) + ")"
	}
	if g.Form != "" {
		return fmt.Sprintf("%s: %s (read as %s)", where, g.Reason, g.Form)
	}
	return where + ": " + g.Reason
}

// openInput opens the file at path to read, or stdin for "-", and returns
// it as a reader whose reads stop when ctx is cancelled, and the function
// that closes it. The open itself runs in a goroutine, so that a FIFO no
// one writes to does not keep the command from heeding ctx.
func openInput(ctx context.Context, path string, stdin io.Reader) (io.Reader, func(), error) {
	if path == "-" {
		return input.Reader(ctx, stdin), func() {}, nil
	}
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		done <- opened{f, err}
	}()
	select {
	case o := <-done:
		if o.err != nil {
			return nil, nil, o.err
		}
		return input.Reader(ctx, o.f), func() { o.f.Close() }, nil
	case <-ctx.Done():
		return nil, nil, fmt.Errorf("interrupted while reading %s", path)
	}
}
