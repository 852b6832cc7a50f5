package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
)

// maxShards bounds K in --shard I/K.
const maxShards = 1_000_000

// shardEnv lists the environment variables --shard auto/K takes I from:
// the index of a Kubernetes Indexed Job's pod and of a Slurm array task.
var shardEnv = []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"}

// parseShard parses a --shard value: "I/K" with 0 <= I < K, or "auto/K",
// which takes I from the environment (shardEnv) through getenv.
func parseShard(s string, getenv func(string) string) (nqueens.Shard, error) {
	bad := func(format string, args ...any) (nqueens.Shard, error) {
		return nqueens.Shard{}, usageError{fmt.Errorf("--shard %s: "+format, append([]any{quote(s)}, args...)...)}
	}
	is, ks, ok := strings.Cut(s, "/")
	if !ok {
		return bad("want I/K (shard I of K, I from 0 to K-1) or auto/K")
	}
	k, err := strconv.Atoi(ks)
	if err != nil || k < 1 || k > maxShards {
		return bad("K must be a whole number from 1 to %d", maxShards)
	}
	if is == "auto" {
		var from, val string
		for _, name := range shardEnv {
			v := getenv(name)
			if v == "" {
				continue
			}
			if from != "" && v != val {
				return bad("%s=%s and %s=%s disagree", from, quote(val), name, quote(v))
			}
			from, val = name, v
		}
		if from == "" {
			return bad("auto takes I from %s (Kubernetes Indexed Job) or %s (Slurm job array); neither is set",
				shardEnv[0], shardEnv[1])
		}
		i, err := strconv.Atoi(val)
		if err != nil || i < 0 || i >= k {
			return bad("%s=%s: want a shard index from 0 to %d (a Slurm array must run 0-%d)", from, quote(val), k-1, k-1)
		}
		return nqueens.Shard{Index: i, Count: k}, nil
	}
	i, err := strconv.Atoi(is)
	if err != nil || i < 0 || i >= k {
		return bad("I must be a whole number from 0 to %d", k-1)
	}
	return nqueens.Shard{Index: i, Count: k}, nil
}

// quote quotes a value for a message, cut short if it is long.
func quote(s string) string { return nqueens.Quote(s) }

// shardFlag reads and parses cmd's --shard flag: the zero Shard if unset.
func shardFlag(cmd *cobra.Command) (nqueens.Shard, error) {
	f := cmd.Flags().Lookup("shard")
	if f == nil || !f.Changed {
		return nqueens.Shard{}, nil
	}
	return parseShard(f.Value.String(), os.Getenv)
}

// checkShard checks that n's work units split into the shards of s, as
// they must for build --shard; the whole board always can be built.
func checkShard(n int, s nqueens.Shard) error {
	if s.IsWhole() {
		return nil
	}
	if _, _, err := canonical.ShardUnits(n, s.Index, s.Count); err != nil {
		return usageError{fmt.Errorf("n=%d: %w", n, err)}
	}
	return nil
}
