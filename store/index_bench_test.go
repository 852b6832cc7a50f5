package store

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
)

// benchIndex returns a catalog holding the index of an n, and its build:
// the catalog NQUEENS_BENCH_INDEX names, of NQUEENS_BENCH_N (its build may
// be unfinished: the classes it holds are read), or else a new index of
// n = 15.
func benchIndex(b *testing.B) (*DB, Build) {
	b.Helper()
	path, n := os.Getenv("NQUEENS_BENCH_INDEX"), 15
	if v := os.Getenv("NQUEENS_BENCH_N"); v != "" {
		n, _ = strconv.Atoi(v)
	}
	if path == "" {
		path = filepath.Join(b.TempDir(), "index.db")
		db, err := Open(ctx, path, Options{Create: true})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := db.Run(ctx, n, nqueens.Shard{}, RunOptions{Index: true}); err != nil {
			b.Fatal(err)
		}
		db.Close()
	}
	db, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	bd, err := db.Build(ctx, n)
	if err != nil || bd.Form != FormIndex {
		b.Fatalf("build of n=%d in %s: %+v, %v", n, path, bd, err)
	}
	return db, bd
}

// reportQuantiles reports the median and 99th percentile of times, in ms.
func reportQuantiles(b *testing.B, times []time.Duration) {
	slices.Sort(times)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(times[len(times)/2]), "p50-ms")
	b.ReportMetric(ms(times[len(times)*99/100]), "p99-ms")
}

// BenchmarkIndexClass finds random classes of an index by number
// (DB.Class: a seek for the block, a search of one prefix's subtree), and
// reports the median and 99th percentile of a call.
func BenchmarkIndexClass(b *testing.B) {
	db, bd := benchIndex(b)
	rng := rand.New(rand.NewPCG(1, 2))
	var times []time.Duration
	for b.Loop() {
		k := 1 + rng.Int64N(int64(bd.Unique))
		start := time.Now()
		if _, err := db.Class(ctx, bd.N, k); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
	}
	reportQuantiles(b, times)
}

// BenchmarkIndexLookup finds the class of random solutions of an index
// (DB.Lookup: their canonical form's prefix, and a search of its subtree
// up to it), and reports the median and 99th percentile of a call.
func BenchmarkIndexLookup(b *testing.B) {
	db, bd := benchIndex(b)
	rng := rand.New(rand.NewPCG(3, 4))
	var boards []nqueens.Placement
	for range 200 {
		l, err := db.Class(ctx, bd.N, 1+rng.Int64N(int64(bd.Unique)))
		if err != nil {
			b.Fatal(err)
		}
		boards = append(boards, canonical.Images(l.Placement)[rng.IntN(8)])
	}
	var times []time.Duration
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		if _, err := db.Lookup(ctx, bd, boards[i%len(boards)]); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
	}
	reportQuantiles(b, times)
}

// BenchmarkIndexRange reads 100,000 classes of an index from a random
// class on (DB.Classes: the search below each prefix in turn, on all
// cores), as export --classes K-(K+99999) does, and reports classes a
// second.
func BenchmarkIndexRange(b *testing.B) {
	db, bd := benchIndex(b)
	rng := rand.New(rand.NewPCG(5, 6))
	const size = 100_000
	read := 0
	start := time.Now()
	for b.Loop() {
		from := 1 + rng.Int64N(max(1, int64(bd.Unique)-size))
		for _, err := range db.Classes(ctx, bd.N, Filter{From: from, To: min(from+size-1, int64(bd.Unique))}) {
			if err != nil {
				b.Fatal(err)
			}
			read++
		}
	}
	b.ReportMetric(float64(read)/time.Since(start).Seconds(), "classes/s")
}
