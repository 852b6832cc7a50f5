package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/export"
)

func (a *app) showCmd() *cobra.Command {
	var (
		class int64
		limit int
		ascii bool
	)
	cmd := &cobra.Command{
		Use:   "show N [--class K]",
		Short: "Draw the classes of n as text boards",
		Args:  exactArgs(1, "one n"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := oneN("show", args[0])
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("class") && class < 1 {
				return usageError{fmt.Errorf("--class must be 1 or more, got %d", class)}
			}
			if limit < 1 {
				return usageError{fmt.Errorf("--limit must be 1 or more, got %d", limit)}
			}
			return a.show(cmd.Context(), n, class, limit, ascii)
		},
	}
	cmd.Flags().BoolVar(&ascii, "ascii", false, "draw with Q and . instead of box-drawing characters")
	cmd.Flags().Int64Var(&class, "class", 0, "draw only class K (1-based)")
	cmd.Flags().IntVar(&limit, "limit", 20, "draw at most this many classes")
	return cmd
}

func (a *app) show(ctx context.Context, n int, class int64, limit int, ascii bool) error {
	db, b, err := a.openBuilt(ctx, n)
	if err != nil {
		return err
	}
	defer db.Close()
	classes := db.Classes(ctx, n)
	if class > 0 {
		l, err := classK(ctx, db, b, class)
		if err != nil {
			return err
		}
		classes = func(yield func(nqueens.Layout, error) bool) { yield(l, nil) }
	} else if b.Unique == 0 {
		fmt.Fprintf(a.stdout, "n=%d has no solutions\n", n)
		return nil
	}
	tw := export.NewText(a.stdout)
	tw.ASCII, tw.Classes = ascii, b.Unique
	shown := 0
	for l, err := range classes {
		if err != nil {
			return err
		}
		if shown == limit {
			break
		}
		if err := tw.Write(l); err != nil {
			return err
		}
		shown++
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if rest := b.Unique - uint64(shown); class == 0 && rest > 0 {
		fmt.Fprintf(a.stdout, "\n... and %d more classes; draw one with --class K\n", rest)
	}
	return nil
}
