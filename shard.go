package nqueens

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nqueens/nqueens/internal/phrase"
)

// Shard names one of Count disjoint slices of the work of a board (the
// work units of a build, or the constellations of a count): the one
// numbered Index, from 0. The zero Shard stands for the whole board.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// IsWhole reports whether s stands for the whole board.
func (s Shard) IsWhole() bool { return s.Count == 0 }

// ErrNoShard is matched by the errors of a shard that does not exist:
// that of Check, and that of a board whose work does not split into as
// many shards as K asks.
var ErrNoShard = errors.New("no such shard")

// Check returns nil if s is the whole board (the zero Shard) or a shard
// I/K with 0 <= I < K <= MaxShards, and an error matching ErrNoShard that
// names s and says what is allowed otherwise. Whether a board's work
// splits into K shards at all depends on the board, on how many work
// units or constellations it has.
func (s Shard) Check() error {
	switch {
	case s == Shard{}:
		return nil
	case s.Count < 1 || s.Count > MaxShards:
		return noShard(fmt.Sprintf("shard %d/%d: want a count from 1 to %d", s.Index, s.Count, MaxShards))
	case s.Index < 0 || s.Index >= s.Count:
		return noShard(fmt.Sprintf("shard %d/%d: want an index from 0 to %d", s.Index, s.Count, s.Count-1))
	}
	return nil
}

// noShard is an error that reads as its text and matches ErrNoShard.
type noShard string

func (e noShard) Error() string        { return string(e) }
func (e noShard) Is(target error) bool { return target == ErrNoShard }

// String returns "I/K", or "whole" for the whole board.
func (s Shard) String() string {
	if s.IsWhole() {
		return "whole"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Describe says what a build or count of s holds, for messages: "the
// whole board", "shard 3/8".
func (s Shard) Describe() string {
	if s.IsWhole() {
		return "the whole board"
	}
	return "shard " + s.String()
}

// MaxShards bounds K in a shard I/K.
const MaxShards = 1_000_000

// shardEnv lists the environment variables a shard "auto/K" takes I from:
// the index of a Kubernetes Indexed Job's pod and of a Slurm array task.
var shardEnv = []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"}

// ParseShard reads a shard as the command line writes it: "I/K", shard I
// (from 0) of K, with 0 <= I < K <= MaxShards, each as ParseWhole reads
// whole numbers; or "auto/K", which takes I
// from the first of shardEnv that getenv (os.Getenv, say) finds set, and
// refuses two of them that disagree. The error quotes s and says what is
// allowed.
func ParseShard(s string, getenv func(string) string) (Shard, error) {
	bad := func(format string, args ...any) (Shard, error) {
		return Shard{}, fmt.Errorf("%s: "+format, append([]any{phrase.Quote(s)}, args...)...)
	}
	is, ks, ok := strings.Cut(s, "/")
	if !ok {
		return bad("want I/K (shard I of K, I from 0 to K-1) or auto/K")
	}
	k, err := parseShardNumber(ks)
	if err != nil || k < 1 || k > MaxShards {
		return bad("K must be a whole number from 1 to %d%s", MaxShards, WholeHint(ks))
	}
	if is == "auto" {
		var from, val string
		for _, name := range shardEnv {
			v := getenv(name)
			if v == "" {
				continue
			}
			if from != "" && v != val {
				return bad("%s=%s and %s=%s disagree", from, phrase.Quote(val), name, phrase.Quote(v))
			}
			from, val = name, v
		}
		if from == "" {
			return bad("auto takes I from %s (Kubernetes Indexed Job) or %s (Slurm job array); neither is set",
				shardEnv[0], shardEnv[1])
		}
		i, err := parseShardNumber(val)
		if err != nil || i < 0 || i >= k {
			return bad("%s=%s: want a shard index from 0 to %d (a Slurm array must run 0-%d)%s", from, phrase.Quote(val), k-1, k-1, WholeHint(val))
		}
		return Shard{Index: i, Count: k}, nil
	}
	i, err := parseShardNumber(is)
	if err != nil || i < 0 || i >= k {
		return bad("I must be a whole number from 0 to %d%s", k-1, WholeHint(is))
	}
	return Shard{Index: i, Count: k}, nil
}

// parseShardNumber reads I or K of a shard as ParseWhole reads whole
// numbers, up to MaxShards.
func parseShardNumber(s string) (int, error) {
	n, err := ParseWhole(s)
	if err == nil && n > MaxShards {
		err = ErrTooLarge
	}
	return int(n), err
}
