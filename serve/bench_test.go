package serve

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"testing"

	"github.com/nqueens/nqueens/store"
)

// benchServer returns a server of the catalog NQUEENS_BENCH_DB names (the
// test catalog if unset) and the builds it serves that have classes.
func benchServer(b *testing.B) (*Server, []store.Build) {
	b.Helper()
	path := os.Getenv("NQUEENS_BENCH_DB")
	if path == "" {
		path = catalogPath(b)
	}
	db, err := store.Open(context.Background(), path, store.Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	all, err := db.Builds(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	var builds []store.Build
	for _, bd := range all {
		if bd.Complete && bd.Shard.IsWhole() && bd.Unique > 0 {
			builds = append(builds, bd)
		}
	}
	return New(db, Options{}), builds
}

// benchRandom requests a random class of the largest n served (and of a
// random n) at the path target gives, measuring the handler alone.
func benchRandom(b *testing.B, target func(n int, k int64) string) {
	s, builds := benchServer(b)
	for _, set := range []struct {
		name   string
		builds []store.Build
	}{{fmt.Sprintf("n=%d", builds[len(builds)-1].N), builds[len(builds)-1:]}, {"any n", builds}} {
		b.Run(set.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			for b.Loop() {
				bd := set.builds[rng.IntN(len(set.builds))]
				k := 1 + rng.Int64N(int64(bd.Unique))
				w := discard{h: http.Header{}}
				r, _ := http.NewRequest("GET", target(bd.N, k), nil)
				s.ServeHTTP(&w, r)
				if w.status != 0 && w.status != 200 {
					b.Fatalf("%s: status %d", r.URL, w.status)
				}
			}
		})
	}
}

// BenchmarkClassPage measures the page of a class, /n/{n}/{k}, at the
// server (no network). NQUEENS_BENCH_DB=FILE measures a catalog of your
// own (scripts/bench_serve.sh does, with n = 1..16).
func BenchmarkClassPage(b *testing.B) {
	benchRandom(b, func(n int, k int64) string { return fmt.Sprintf("/n/%d/%d", n, k) })
}

// BenchmarkAPIClass measures the API object of a class,
// /api/v1/classes/{n}/{k}, at the server.
func BenchmarkAPIClass(b *testing.B) {
	benchRandom(b, func(n int, k int64) string { return fmt.Sprintf("/api/v1/classes/%d/%d", n, k) })
}

// BenchmarkClassesPage measures a page of 100 classes, /n/{n}?page=P,
// the page of a random class.
func BenchmarkClassesPage(b *testing.B) {
	benchRandom(b, func(n int, k int64) string { return fmt.Sprintf("/n/%d?page=%d", n, (k-1)/pageSize+1) })
}

// discard is a ResponseWriter that keeps the status only.
type discard struct {
	h      http.Header
	status int
}

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(p []byte) (int, error) { return len(p), nil }
func (d *discard) WriteHeader(status int)      { d.status = status }
