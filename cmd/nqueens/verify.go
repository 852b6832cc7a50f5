package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/store"
)

func (a *app) verifyCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "verify [N-LIST...]",
		Short: "Re-check the catalog and exit 3 on any mismatch",
		RunE: func(cmd *cobra.Command, args []string) error {
			ns, err := nArgs(args)
			if err != nil {
				return err
			}
			return a.verify(cmd.Context(), ns, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array of objects")
	return cmd
}

func (a *app) verify(ctx context.Context, ns []int, asJSON bool) error {
	db, err := store.Open(ctx, a.cfg.DB, store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer db.Close()
	reports, err := db.Verify(ctx, ns)
	whole, bad := 0, 0 // whole is 1 if the catalog as a whole has problems
	for _, r := range reports {
		if r.N == 0 {
			whole = 1
		} else if !r.OK {
			bad++
		}
		if !asJSON {
			writeReport(a.stdout, r)
		}
	}
	if err != nil {
		return err
	}
	if asJSON {
		if err := writeJSON(a.stdout, reports); err != nil {
			return err
		}
	}
	switch all := len(reports) - whole; {
	case whole > 0 && bad == 0:
		return fmt.Errorf("%w: the catalog's schema does not check out", errMismatch)
	case whole > 0:
		return fmt.Errorf("%w: the catalog's schema and %d of %d n do not check out", errMismatch, bad, all)
	case bad > 0:
		return fmt.Errorf("%w: %d of %d n do not check out", errMismatch, bad, all)
	}
	return nil
}

// writeReport writes the lines of verify's text output for r.
func writeReport(w io.Writer, r store.Report) {
	switch {
	case r.N == 0:
		for _, p := range r.Problems {
			fmt.Fprintf(w, "catalog MISMATCH: %s\n", p)
		}
		return
	case r.OK && r.Shard != nil:
		fmt.Fprintf(w, "n=%d shard %s ok: %s in %s (a shard: the published counts apply once merged)\n", r.N, r.Shard, plural(r.Total, "solution"), plural(r.Unique, "class"))
	case r.OK:
		fmt.Fprintf(w, "n=%d ok: %s in %s\n", r.N, plural(r.Total, "solution"), plural(r.Unique, "class"))
	}
	for _, p := range r.Problems {
		fmt.Fprintf(w, "n=%d MISMATCH: %s\n", r.N, p)
	}
}
