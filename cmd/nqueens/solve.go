package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/export"
)

func (a *app) solveCmd() *cobra.Command {
	var format, out string
	cmd := &cobra.Command{Use: "solve N", Short: "Print one solution for any n up to 10,000,000, by construction", Args: exactArgs(1, "one n"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := nqueens.ParseConstructN(args[0])
			f, ferr := export.SolutionFormat(format)
			switch {
			case err != nil:
				err = fmt.Errorf("solve: %w", err)
			case ferr != nil:
				err = ferr
			case export.Draws(f) && n > export.MaxDrawN:
				err = fmt.Errorf("solve: format %s draws n*n squares, so it stops at n = %d; use text, json, ndjson or csv for n = %d", f, export.MaxDrawN, n)
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
			write := func(w io.Writer) error { return export.WriteSolution(w, f, cols) }
			return a.writeOutput(cmd.Context(), out, write, "wrote a solution of n=%d", n)
		},
	}
	cmd.Flags().StringVarP(&format, "format", "f", "text", strings.Join(export.SolutionFormats, ", "))
	outputFlag(cmd, &out)
	return cmd
}
