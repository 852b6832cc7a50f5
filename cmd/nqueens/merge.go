package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/store"
)

func (a *app) mergeCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "merge OUT.db SHARD.db...",
		Short: "Merge the shard catalogs of build --shard into one catalog",
		Args:  minArgs(2, "the output catalog, then the shard catalogs"),
		RunE: func(cmd *cobra.Command, args []string) error {
			err := a.merge(cmd.Context(), args[0], args[1:])
			if err != nil && cmd.Context().Err() != nil {
				return fmt.Errorf("merge interrupted: nothing written to %s", args[0])
			}
			return err
		},
	}
}

func (a *app) merge(ctx context.Context, out string, files []string) error {
	merged, err := store.MergeFiles(ctx, out, files, func(ns []int) {
		a.logf("merging n=%s from %d shard catalogs into %s", strings.Trim(strings.ReplaceAll(fmt.Sprint(ns), " ", ","), "[]"), len(files), out)
	})
	if errors.Is(err, store.ErrNamedTwice) || errors.Is(err, store.ErrPartFile) {
		return usageError{err}
	} else if errors.Is(err, store.ErrNotShard) {
		return fmt.Errorf("%w: only catalogs written by build --shard merge", err)
	} else if err != nil {
		return openAdvice(err)
	}
	for _, b := range merged {
		a.logf("n=%d: merged %d shards into %s: %s (%s)", b.N, len(files), out, phrase.Plural(b.Unique, "class"), phrase.Plural(b.Total, "solution"))
	}
	return writeBuilds(a.stdout, merged)
}
