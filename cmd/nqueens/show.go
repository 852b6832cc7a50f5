package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/export"
	"github.com/nqueens/nqueens/store"
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
		Long: `Show draws the canonical board of each class of n from the catalog with
box-drawing characters, under a heading with its number, placement, orbit and
symmetry: class K alone with --class, otherwise the first --limit classes.
--ascii draws with Q and . only.

` + orbitHelp,
		Example: "  nqueens show 8\n  nqueens show 8 --class 12",
		Args:    exactArgs(1, "one n"),
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
			draw := drawBox
			if ascii {
				draw = drawASCII
			}
			return a.show(cmd.Context(), n, class, limit, draw)
		},
	}
	cmd.Flags().BoolVar(&ascii, "ascii", false, "draw with Q and . instead of box-drawing characters")
	cmd.Flags().Int64Var(&class, "class", 0, "draw only class K (1-based)")
	cmd.Flags().IntVar(&limit, "limit", 20, "draw at most this many classes")
	return cmd
}

func (a *app) show(ctx context.Context, n int, class int64, limit int, draw func(io.Writer, nqueens.Layout, uint64) error) error {
	db, err := store.Open(ctx, a.cfg.DB, store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer db.Close()
	b, err := completeBuild(ctx, db, n)
	if err != nil {
		return err
	}
	if class > 0 {
		if uint64(class) > b.Unique {
			return usageError{fmt.Errorf("n=%d has %s, no class %d", n, plural(b.Unique, "class"), class)}
		}
		l, err := db.Class(ctx, n, class)
		if err != nil {
			return err
		}
		return draw(a.stdout, l, b.Unique)
	}
	if b.Unique == 0 {
		fmt.Fprintf(a.stdout, "n=%d has no solutions\n", n)
		return nil
	}
	shown := 0
	for l, err := range db.Classes(ctx, n) {
		if err != nil {
			return err
		}
		if shown == limit {
			break
		}
		if shown > 0 {
			fmt.Fprintln(a.stdout)
		}
		if err := draw(a.stdout, l, b.Unique); err != nil {
			return err
		}
		shown++
	}
	if rest := b.Unique - uint64(shown); rest > 0 {
		fmt.Fprintf(a.stdout, "\n... and %d more classes; draw one with --class K\n", rest)
	}
	return nil
}

// heading writes the line above a board: its class, placement, orbit and
// symmetry.
func heading(s *strings.Builder, l nqueens.Layout, of uint64) {
	fmt.Fprintf(s, "n=%d class %d of %d: %s\norbit %d, %s\n",
		l.N(), l.Class, of, l.Placement, l.Symmetry.Orbit(), export.SymmetryText(l.Symmetry))
}

// drawBox writes a heading and the board of l drawn with box-drawing
// characters, a queen as ♛.
func drawBox(w io.Writer, l nqueens.Layout, of uint64) error {
	var s strings.Builder
	heading(&s, l, of)
	n := l.N()
	rule := func(left, mid, right string) {
		s.WriteString(left)
		for c := range n {
			if c > 0 {
				s.WriteString(mid)
			}
			s.WriteString("───")
		}
		s.WriteString(right + "\n")
	}
	rule("┌", "┬", "┐")
	for r := range n {
		if r > 0 {
			rule("├", "┼", "┤")
		}
		for c := range n {
			s.WriteString("│")
			if l.Placement.Col(r) == c {
				s.WriteString(" ♛ ")
			} else {
				s.WriteString("   ")
			}
		}
		s.WriteString("│\n")
	}
	rule("└", "┴", "┘")
	_, err := io.WriteString(w, s.String())
	return err
}

// drawASCII writes a heading and the board of l, 'Q' for queens and '.'
// for empty squares.
func drawASCII(w io.Writer, l nqueens.Layout, of uint64) error {
	var s strings.Builder
	heading(&s, l, of)
	for _, row := range l.Placement.Grid() {
		for i, c := range row {
			if i > 0 {
				s.WriteByte(' ')
			}
			s.WriteRune(c)
		}
		s.WriteByte('\n')
	}
	_, err := io.WriteString(w, s.String())
	return err
}
