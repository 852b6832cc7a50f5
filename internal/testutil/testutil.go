// Package testutil holds the helpers that the tests of several packages
// share. Only tests import it.
package testutil

import (
	"crypto/sha256"
	"fmt"
	"iter"
	"os"
	"syscall"
	"testing"

	"github.com/nqueens/nqueens"
)

// MaxKnownN is the largest n whose published counts (nqueens.KnownCounts)
// the unit tests compare a whole search with: n = 14 takes a fraction of a
// second.
const MaxKnownN = 14

// Known yields each n from 1 to MaxKnownN with its published counts.
func Known() iter.Seq2[int, nqueens.Known] {
	return func(yield func(int, nqueens.Known) bool) {
		for n := 1; n <= MaxKnownN; n++ {
			if k, _ := nqueens.KnownCounts(n); !yield(n, k) {
				return
			}
		}
	}
}

// WriteExecutable writes data to a new executable file at path (mode
// 0755), failing the test if it cannot. It holds syscall.ForkLock while the
// file is open for writing: a process forked meanwhile by another test of
// the same binary would hold a copy of the writing descriptor until it
// execs, and running the file in that instant fails with "text file busy"
// (ETXTBSY).
func WriteExecutable(t testing.TB, path string, data []byte) {
	t.Helper()
	syscall.ForkLock.Lock()
	err := os.WriteFile(path, data, 0o755)
	syscall.ForkLock.Unlock()
	if err != nil {
		t.Fatal(err)
	}
}

// ReadFile returns the content of the file at path, failing the test if it
// cannot be read.
func ReadFile(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Sum returns the SHA-256 of the file at path, to tell whether a file
// changed.
func Sum(t testing.TB, path string) [32]byte {
	t.Helper()
	return sha256.Sum256(ReadFile(t, path))
}

// ReadDir returns the names in dir, sorted, failing the test if it cannot
// be read.
func ReadDir(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return names
}

// CheckPartition checks that shards, each a list of indexes of items, hold
// every index from 0 to items-1 exactly once, each shard in increasing
// order: the split of the items of a board of n into k shards.
func CheckPartition(t testing.TB, n, k int, shards [][]int, items int) {
	t.Helper()
	what := fmt.Sprintf("n=%d k=%d", n, k)
	seen := make([]int, items)
	for i, idx := range shards {
		for j, x := range idx {
			if j > 0 && x <= idx[j-1] {
				t.Errorf("%s: shard %d not in increasing order", what, i)
			}
			if x < 0 || x >= items {
				t.Fatalf("%s: shard %d holds %d, not an index of %d items", what, i, x, items)
			}
			seen[x]++
		}
	}
	for x, times := range seen {
		if times != 1 {
			t.Errorf("%s: item %d is in %d shards", what, x, times)
		}
	}
}

// Collect returns what seq yields, in order, failing the test at the first
// error it yields.
func Collect[T any](t testing.TB, seq iter.Seq2[T, error]) []T {
	t.Helper()
	var out []T
	for v, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}
