package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/config"
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/progress"
	"github.com/nqueens/nqueens/store"
)

func (a *app) buildCmd() *cobra.Command {
	cmd := nsCommand("build N-LIST", "Build the classes of each n into the catalog and print the counts", "a list of n such as 8, 4-12 or 1,5,9", func(cmd *cobra.Command, ns []int) error {
		shard, err := shardFlag(cmd)
		if err != nil {
			return err
		} else if !shard.IsWhole() && len(ns) != 1 {
			return usageError{fmt.Errorf("build --shard: want one n, got %d", len(ns))}
		}
		index, _ := cmd.Flags().GetBool("index")
		return a.build(cmd.Context(), ns, shard, index)
	})
	wholeFlag(cmd.Flags(), "max-rows-n", config.Defaults.MaxRowsN, "largest n build stores as rows; above it, build stores the index (max_rows_n)")
	wholeFlag(cmd.Flags(), "max-n", config.Defaults.MaxRowsN, "the former name of --max-rows-n")
	cmd.Flags().MarkHidden("max-n")
	cmd.Flags().Bool("index", false, "store the index of the class search instead of a row per class, for every n")
	cmd.Flags().String("shard", "", "build only shard I of K into a shard catalog (I/K, I from 0; or auto/K from the job index)")
	completeConfig(cmd)
	return cmd
}

// build builds each n of ns, or the given shard of it, into the catalog:
// as rows up to max_rows_n, as an index above it or with index.
func (a *app) build(ctx context.Context, ns []int, shard nqueens.Shard, index bool) error {
	// Every usage error comes before the catalog is created.
	if err := store.CheckBuild(ns, shard); err != nil {
		return usageError{err}
	}
	_, statErr := os.Stat(a.cfg.DB)
	db, err := store.Open(ctx, a.cfg.DB, store.Options{Create: true})
	if err != nil {
		return err
	}
	defer db.Close()
	if errors.Is(statErr, os.ErrNotExist) {
		if dir, mode, shared := store.SharedDir(a.cfg.DB); shared {
			a.logf("warning: others can write %s (%v), where the new catalog %s is: another user can put a file beside it that keeps its writers out; keep catalogs in a directory only you can write", dir, mode, a.cfg.DB)
		}
	}
	var built, already []store.Build
	for _, n := range ns {
		b, err := a.buildOne(ctx, db, n, shard, index || n > a.cfg.MaxRowsN)
		switch {
		case errors.Is(err, store.ErrComplete):
			already = append(already, b)
		case err != nil:
			return err
		}
		built = append(built, b)
	}
	a.logAlready(already, shard)
	return writeBuilds(a.stdout, built)
}

// logAlready says in one line which of the builds asked for were complete
// already, so that a build run again says so once, not once for each n.
func (a *app) logAlready(already []store.Build, shard nqueens.Shard) {
	switch len(already) {
	case 0:
	case 1:
		st := already[0]
		a.logf("n=%d%s is already built (%s, %s): nothing to do", st.N, shardSuffix(shard), phrase.Plural(st.Unique, "class"), phrase.Plural(st.Total, "solution"))
	default:
		ns := make([]int, len(already))
		for i, b := range already {
			ns[i] = b.N
		}
		a.logf("n=%s%s are already built: nothing to do for them", nqueens.FormatNList(ns), shardSuffix(shard))
	}
}

// testHookUnitAdded, when set by a test, is called after each work unit's
// classes are handed to the catalog, with the build's context.
var testHookUnitAdded func(ctx context.Context, unit int)

// testCommitRows, when set by a test, is the most classes a build commits
// at once (store.RunOptions.CommitRows), so that a kill of a small build
// lands between commits as one of a large build does.
var testCommitRows int

// buildOne builds n, or the given shard of it, into db, as rows or as an
// index, or resumes its build, saying on stderr how it goes. For an n
// already complete it returns its build and an error matching
// store.ErrComplete, and says nothing.
func (a *app) buildOne(ctx context.Context, db *store.DB, n int, shard nqueens.Shard, index bool) (store.Build, error) {
	m := progress.Nop
	start := time.Now()
	what := fmt.Sprintf("build n=%d%s", n, shardSuffix(shard))
	if index {
		what += " (index)"
	}
	st, err := db.Run(ctx, n, shard, store.RunOptions{
		Workers:    a.cfg.Workers,
		CommitRows: testCommitRows,
		Index:      index,
		Start: func(from, total int, stored uint64) {
			if index && n > a.cfg.MaxRowsN {
				a.logf("n=%d is above max_rows_n %d: building its index, %s", n, a.cfg.MaxRowsN, notRows(n))
			}
			if from > 0 {
				a.logf("n=%d: resuming at work unit %s of %s (%s already stored)", n, phrase.Count(from), phrase.Count(total), phrase.Plural(stored, "class"))
			}
			m = a.progress(what, int64(from), int64(total), "work units")
		},
		Progress: func(done, _ int) {
			m.Add(1)
			if testHookUnitAdded != nil {
				testHookUnitAdded(ctx, done-1)
			}
		},
	})
	m.Done()
	switch {
	case errors.Is(err, store.ErrComplete):
		return st, err
	case errors.Is(err, store.ErrShardMismatch), errors.Is(err, store.ErrFormMismatch):
		return st, fmt.Errorf("%w; use another --db", err)
	case err != nil:
		return st, err
	default:
		a.logf("n=%d%s: built %s%s (%s) in %s", n, shardSuffix(shard), map[bool]string{false: "", true: "the index of "}[index],
			phrase.Plural(st.Unique, "class"), phrase.Plural(st.Total, "solution"), phrase.Duration(time.Since(start)))
	}
	return st, nil
}

// shardSuffix is " shard I/K" for a shard, nothing for the whole board.
func shardSuffix(s nqueens.Shard) string {
	if s.IsWhole() {
		return ""
	}
	return " shard " + s.String()
}

// quote quotes a value for a message, cut short if it is long.
func quote(s string) string { return phrase.Quote(s) }

// shardFlag reads and parses cmd's --shard flag: the zero Shard if unset.
func shardFlag(cmd *cobra.Command) (nqueens.Shard, error) {
	f := cmd.Flags().Lookup("shard")
	if f == nil || !f.Changed {
		return nqueens.Shard{}, nil
	}
	s, err := nqueens.ParseShard(f.Value.String(), os.Getenv)
	if err != nil {
		return s, usageError{fmt.Errorf("--shard %w", err)}
	}
	return s, nil
}
