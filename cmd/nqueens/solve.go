package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/export"
)

func (a *app) solveCmd() *cobra.Command {
	var format, out string
	cmd := &cobra.Command{
		Use:   "solve N",
		Short: "Print one solution for any n up to 10,000,000, by construction",
		Args:  exactArgs(1, "one n"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := strconv.Atoi(args[0])
			if strings.Trim(args[0], "0123456789") != "" || err != nil || n < 1 || n > nqueens.MaxConstructN {
				return usageError{fmt.Errorf("solve: n must be a whole number from 1 to %d, got %s", nqueens.MaxConstructN, quote(args[0]))}
			}
			if format, err = export.SolutionFormat(format); err != nil {
				return usageError{err}
			}
			if export.Draws(format) && n > export.MaxDrawN {
				return usageError{fmt.Errorf("solve: format %s draws n*n squares, so it stops at n = %d; use text, json, ndjson or csv for n = %d", format, export.MaxDrawN, n)}
			}
			if out != "" {
				if err := a.checkOutput(out); err != nil {
					return err
				}
			}
			return a.solve(cmd.Context(), n, format, out)
		},
	}
	cmd.Flags().StringVarP(&format, "format", "f", "text", strings.Join(export.SolutionFormats, ", "))
	cmd.Flags().StringVarP(&out, "output", "o", "", "write to FILE instead of stdout")
	return cmd
}

func (a *app) solve(ctx context.Context, n int, format, out string) error {
	cols, err := nqueens.Construct(n)
	if errors.Is(err, nqueens.ErrNoSolution) {
		return fmt.Errorf("solve: n=%d has no solution: no %d queens fit on a %dx%d board without attacking each other (every n >= 4 has one)", n, n, n, n)
	}
	if err != nil {
		return usageError{err}
	}
	if err := nqueens.CheckColumns(cols); err != nil {
		return fmt.Errorf("solve: the construction for n=%d is wrong (a bug): %v", n, err)
	}
	write := func(w io.Writer) error { return export.WriteSolution(w, format, cols) }
	if out == "" {
		return write(a.stdout)
	}
	return a.writeOutput(ctx, out, write, "wrote a solution of n=%d", n)
}
