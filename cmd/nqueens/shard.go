package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
)

// quote quotes a value for a message, cut short if it is long.
func quote(s string) string { return nqueens.Quote(s) }

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

// checkShard checks that n's work units split into the shards of s, as
// they must for build --shard; the whole board always can be built.
func checkShard(n int, s nqueens.Shard) error {
	if s.IsWhole() {
		return nil
	}
	if err := canonical.CheckShard(n, s.Index, s.Count); err != nil {
		return usageError{fmt.Errorf("n=%d: %w", n, err)}
	}
	return nil
}
