package nqueens_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
)

func TestParseShard(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(name string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == name {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	tests := []struct {
		s      string
		getenv func(string) string
		want   nqueens.Shard
		err    string
	}{
		{s: "0/1", want: nqueens.Shard{Index: 0, Count: 1}},
		{s: "3/8", want: nqueens.Shard{Index: 3, Count: 8}},
		{s: "auto/8", getenv: env("JOB_COMPLETION_INDEX", "5"), want: nqueens.Shard{Index: 5, Count: 8}},
		{s: "auto/8", getenv: env("SLURM_ARRAY_TASK_ID", "7"), want: nqueens.Shard{Index: 7, Count: 8}},
		{s: "auto/8", getenv: env("JOB_COMPLETION_INDEX", "1", "SLURM_ARRAY_TASK_ID", "1"), want: nqueens.Shard{Index: 1, Count: 8}},
		{s: "8/8", err: `"8/8": I must be a whole number from 0 to 7`},
		{s: "-1/8", err: "I must be"},
		{s: "3", err: "want I/K"},
		{s: "1/0", err: "K must be a whole number from 1 to 1000000"},
		{s: "1/1000001", err: "K must be"},
		{s: "auto/8", err: "neither is set"},
		{s: "auto/8", getenv: env("JOB_COMPLETION_INDEX", "1", "SLURM_ARRAY_TASK_ID", "2"), err: "disagree"},
		{s: "auto/8", getenv: env("SLURM_ARRAY_TASK_ID", "8"), err: "want a shard index from 0 to 7"},
	}
	for _, tt := range tests {
		getenv := tt.getenv
		if getenv == nil {
			getenv = env()
		}
		got, err := nqueens.ParseShard(tt.s, getenv)
		switch {
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("ParseShard(%q) = %v, %v; want %v", tt.s, got, err, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("ParseShard(%q) error %v, want one saying %q", tt.s, err, tt.err)
		}
	}
}

func ExampleParseShard() {
	s, err := nqueens.ParseShard("3/8", func(string) string { return "" })
	fmt.Println(s, err)
	_, err = nqueens.ParseShard("9/8", func(string) string { return "" })
	fmt.Println(err)
	// Output:
	// 3/8 <nil>
	// "9/8": I must be a whole number from 0 to 7
}

func ExampleParseClassRange() {
	fmt.Println(nqueens.ParseClassRange("1000-1099"))
	fmt.Println(nqueens.ParseClassRange("7"))
	_, _, err := nqueens.ParseClassRange("9-3")
	fmt.Println(err)
	// Output:
	// 1000 1099 <nil>
	// 7 7 <nil>
	// classes "9-3": the range runs downwards: want K-L with K at most L
}

func ExampleParseSymmetries() {
	fmt.Println(nqueens.ParseSymmetries("rot180,ROT90"))
	_, err := nqueens.ParseSymmetries("rot45")
	fmt.Println(err)
	// Output:
	// [rot180 rot90] <nil>
	// symmetry "rot45": want none, rot180, rot90 or full (or a comma list of them)
}

// TestShardCheck checks which shards exist: the whole board and I/K with
// 0 <= I < K <= MaxShards; every other is an error matching ErrNoShard
// that names it.
func TestShardCheck(t *testing.T) {
	for _, s := range []nqueens.Shard{{}, {Index: 0, Count: 1}, {Index: 4, Count: 5}, {Index: nqueens.MaxShards - 1, Count: nqueens.MaxShards}} {
		if err := s.Check(); err != nil {
			t.Errorf("%+v.Check() = %v", s, err)
		}
	}
	for s, want := range map[nqueens.Shard]string{
		{Index: 5, Count: 5}:                     "shard 5/5: want an index from 0 to 4",
		{Index: -1, Count: 5}:                    "shard -1/5: want an index from 0 to 4",
		{Index: 2, Count: 0}:                     "shard 2/0: want a count from 1 to 1000000",
		{Index: 0, Count: -3}:                    "shard 0/-3: want a count from 1 to 1000000",
		{Index: 0, Count: nqueens.MaxShards + 1}: "shard 0/1000001: want a count from 1 to 1000000",
	} {
		if err := s.Check(); err == nil || err.Error() != want || !errors.Is(err, nqueens.ErrNoShard) {
			t.Errorf("%+v.Check() = %v, want %q matching ErrNoShard", s, err, want)
		}
	}
}
