package main

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/store"
)

func (a *app) verifyCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "verify [N-LIST...]",
		Short: "Re-check the catalog and exit 3 on any mismatch",
		Long: `Verify re-reads the classes of each n (default: every n in the catalog) and
checks that every placement is a valid solution, is its class's canonical
representative, and appears once, in order; that every orbit size matches
the placement's symmetry; that the orbits sum to the recorded total and the
classes to the recorded unique count; that the build is complete; and that
the counts equal the published ones (OEIS A000170 and A002562). It names each
mismatch and exits with status 3 if there is any.`,
		Example: "  nqueens verify\n  nqueens verify 8 16",
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

// verifyJSON is the shape of one object of verify --json.
type verifyJSON struct {
	N        int      `json:"n"`
	OK       bool     `json:"ok"`
	Total    uint64   `json:"total"`
	Unique   uint64   `json:"unique"`
	Problems []string `json:"problems"`
	// Shard is set when the catalog holds a shard of n (build --shard):
	// its classes are checked, the published counts are not.
	Shard *nqueens.Shard `json:"shard,omitempty"`
}

// maxProblems bounds the mismatches reported per n.
const maxProblems = 20

func (a *app) verify(ctx context.Context, ns []int, asJSON bool) error {
	db, err := store.Open(ctx, a.cfg.DB, store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer db.Close()
	builds, err := db.Builds(ctx)
	if err != nil {
		return err
	}
	audit, err := db.Audit(ctx)
	if err != nil {
		return err
	}
	orphans := map[int]string{}
	var whole []string // problems of the catalog as a whole
	for _, p := range audit {
		if p.N == 0 {
			whole = append(whole, p.Text)
		} else {
			orphans[p.N] = p.Text
		}
	}
	if len(ns) == 0 {
		for _, b := range builds {
			ns = append(ns, b.N)
		}
		for n := range orphans {
			ns = append(ns, n)
		}
		slices.Sort(ns)
		if len(ns) == 0 && len(whole) == 0 {
			return fmt.Errorf("the catalog %s holds nothing to verify", db.Path())
		}
	}
	var results []verifyJSON
	bad := 0
	if len(whole) > 0 {
		// n 0 stands for the catalog as a whole.
		results = append(results, verifyJSON{N: 0, Problems: whole})
		if !asJSON {
			for _, p := range whole {
				fmt.Fprintf(a.stdout, "catalog MISMATCH: %s\n", p)
			}
		}
	}
	for _, n := range ns {
		i := slices.IndexFunc(builds, func(b store.Build) bool { return b.N == n })
		var r verifyJSON
		if text, ok := orphans[n]; ok && i < 0 {
			r = verifyJSON{N: n, Problems: []string{text}}
		} else if i < 0 {
			r = verifyJSON{N: n, Problems: []string{fmt.Sprintf("n=%d is not in the catalog", n)}}
		} else {
			r, err = verifyBuild(ctx, db, builds[i])
			if err != nil {
				return err
			}
		}
		r.OK = len(r.Problems) == 0
		if r.Problems == nil {
			r.Problems = []string{}
		}
		if !r.OK {
			bad++
		}
		results = append(results, r)
		if !asJSON {
			if r.OK && r.Shard != nil {
				fmt.Fprintf(a.stdout, "n=%d shard %s ok: %s in %s (a shard: the published counts apply once merged)\n", n, r.Shard, plural(r.Total, "solution"), plural(r.Unique, "class"))
			} else if r.OK {
				fmt.Fprintf(a.stdout, "n=%d ok: %s in %s\n", n, plural(r.Total, "solution"), plural(r.Unique, "class"))
			}
			for _, p := range r.Problems {
				fmt.Fprintf(a.stdout, "n=%d MISMATCH: %s\n", n, p)
			}
		}
	}
	if asJSON {
		if err := writeJSON(a.stdout, results); err != nil {
			return err
		}
	}
	switch {
	case len(whole) > 0 && bad == 0:
		return fmt.Errorf("%w: the catalog's schema does not check out", errMismatch)
	case len(whole) > 0:
		return fmt.Errorf("%w: the catalog's schema and %d of %d n do not check out", errMismatch, bad, len(ns))
	case bad > 0:
		return fmt.Errorf("%w: %d of %d n do not check out", errMismatch, bad, len(ns))
	}
	return nil
}

// verifyBuild checks the stored classes of one build against themselves,
// its recorded counts, and the published counts.
func verifyBuild(ctx context.Context, db *store.DB, b store.Build) (verifyJSON, error) {
	n := b.N
	r := verifyJSON{N: n, Total: b.Total, Unique: b.Unique}
	if !b.Shard.IsWhole() {
		r.Shard = &b.Shard
	}
	problem := func(format string, args ...any) {
		if len(r.Problems) < maxProblems {
			r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
		} else if len(r.Problems) == maxProblems {
			r.Problems = append(r.Problems, "more mismatches not shown")
		}
	}
	if !b.Complete {
		problem("build is incomplete (%d of %d work units)", b.UnitsDone, b.UnitsTotal)
	}
	switch s := b.Shard; {
	case s.Count < 0 || (s.Count == 0 && s.Index != 0) || (s.Count > 0 && (s.Index < 0 || s.Index >= s.Count)):
		problem("the build records shard index %d of %d, which is no shard", s.Index, s.Count)
	default:
		var units int
		if s.IsWhole() {
			units = len(canonical.Units(n))
		} else if u, _, err := canonical.ShardUnits(n, s.Index, s.Count); err == nil {
			units = len(u)
		}
		if b.UnitsTotal != units {
			problem("the build records %d work units in all, the search of %s has %d", b.UnitsTotal, describe(s), units)
		}
	}
	if b.UnitsDone < 0 || b.UnitsDone > b.UnitsTotal || (b.Complete && b.UnitsDone != b.UnitsTotal) {
		problem("the build records %d of %d work units done%s, which cannot be", b.UnitsDone, b.UnitsTotal, map[bool]string{true: " and complete", false: ""}[b.Complete])
	}
	var got nqueens.Counts
	var prev nqueens.Placement
	for l, err := range db.Classes(ctx, n) {
		if err != nil {
			if errors.Is(err, store.ErrCorrupt) || ctx.Err() != nil {
				return r, err
			}
			problem("unreadable row: %v", err)
			continue
		}
		p := l.Placement
		if err := p.Valid(); err != nil {
			problem("class %d (%s) is not a solution: %v", l.Class, p, err)
		} else if sym, ok := canonical.Classify(p); !ok {
			problem("class %d (%s) is not canonical: its class's representative is %s", l.Class, p, canonical.Fold(p))
		} else if sym != l.Symmetry {
			problem("class %d (%s) has orbit %d recorded, but its orbit is %d", l.Class, p, l.Symmetry.Orbit(), sym.Orbit())
		}
		if l.Class > 1 && p.Compare(prev) <= 0 {
			problem("class %d (%s) is out of order or repeated after %s", l.Class, p, prev)
		}
		prev = p
		got.Add(l.Symmetry)
	}
	if err := ctx.Err(); err != nil {
		return r, errors.New("verify interrupted")
	}
	if got != b.Counts {
		problem("stored classes add up to total %d, unique %d (orbit 8/4/2/1: %d/%d/%d/%d), the build records total %d, unique %d (%d/%d/%d/%d)",
			got.Total, got.Unique, got.Orbit8, got.Orbit4, got.Orbit2, got.Orbit1,
			b.Total, b.Unique, b.Orbit8, b.Orbit4, b.Orbit2, b.Orbit1)
	}
	if k, ok := nqueens.KnownCounts(n); ok && b.Complete && b.Shard.IsWhole() && (got.Total != k.Total || got.Unique != k.Unique) {
		problem("counts total %d, unique %d differ from OEIS A000170/A002562: %d, %d", got.Total, got.Unique, k.Total, k.Unique)
	}
	return r, nil
}

// describe names what a build of s searches, for messages.
func describe(s nqueens.Shard) string {
	if s.IsWhole() {
		return "the whole board"
	}
	return "shard " + s.String()
}
