package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/store"
)

// filterFlags gives cmd the flags that choose classes, --class K, --classes
// K-L, --symmetry S and --square R,C, and returns the function that reads them as a
// store.Filter once the command line is parsed.
func filterFlags(cmd *cobra.Command) func() (store.Filter, error) {
	fs := cmd.Flags()
	class := wholeFlag(fs, "class", int64(0), "only class K (1-based)")
	classes := fs.String("classes", "", "only classes K to L (K-L, inclusive)")
	symmetry := fs.String("symmetry", "", "only classes of this symmetry: none, rot180, rot90 or full (or a comma list)")
	square := fs.String("square", "", "only classes whose canonical board has a queen at row R, column C (R,C, from 0)")
	completeSymmetries(cmd)
	return func() (store.Filter, error) {
		var f store.Filter
		var err error
		switch {
		case fs.Changed("class") && fs.Changed("classes"):
			return f, usageError{fmt.Errorf("--class and --classes choose classes both: give one")}
		case fs.Changed("class") && *class < 1:
			return f, usageError{fmt.Errorf("--class must be 1 or more, got %d", *class)}
		case fs.Changed("class"):
			f.From, f.To = *class, *class
		case fs.Changed("classes"):
			if f.From, f.To, err = nqueens.ParseClassRange(*classes); err != nil {
				return f, usageError{fmt.Errorf("--%w", err)}
			}
		}
		if fs.Changed("symmetry") {
			if f.Symmetry, err = nqueens.ParseSymmetries(*symmetry); err != nil {
				return f, usageError{fmt.Errorf("--%w", err)}
			}
		}
		if fs.Changed("square") {
			sq, err := nqueens.ParseSquare(*square)
			if err != nil {
				return f, usageError{fmt.Errorf("--%w", err)}
			}
			f.Square = &sq
		}
		return f, nil
	}
}
