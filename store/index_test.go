package store

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/internal/parallel"
	"github.com/nqueens/nqueens/internal/testutil"
)

// runIndex builds the index of n whole into db and returns the build.
func runIndex(t *testing.T, db *DB, n int) Build {
	t.Helper()
	b, err := db.Run(ctx, n, nqueens.Shard{}, RunOptions{Index: true})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// indexTop is the last n of TestIndexAnswersAsRows when set: every class
// of every n up to it is checked (16 takes half an hour of two cores).
var indexTop = flag.Int("index-top", 0, "check the index against rows for every class of n = 1 up to this n (TestIndexAnswersAsRows; 16 takes half an hour)")

// TestIndexAnswersAsRows builds n = 1..12 (1..13 with NQUEENS_LONG, 1..N
// with -index-top N) as rows in one catalog and as an index in another,
// and checks that every reader gives the same answers of both: the
// builds' counts, every class in order, by symmetry, with offsets and
// limits, counted, and expanded into its solutions; and, by sameClasses,
// each class by number and the lookup of each of its 8 images (of every
// class, but for 200 random ones of n = 11 and 12 in the default run).
func TestIndexAnswersAsRows(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rows, index := open(t, filepath.Join(dir, "rows.db")), open(t, filepath.Join(dir, "index.db"))
	top, sampled := 12, true
	switch {
	case *indexTop > 0:
		top, sampled = *indexTop, false
	case testutil.Long():
		top, sampled = 13, false
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= top; n++ {
		br, bi := run(t, rows, n), runIndex(t, index, n)
		if bi.Form != FormIndex || br.Form != FormRows || bi.Counts != br.Counts || !bi.Finished() {
			t.Fatalf("n=%d: index build %+v, rows build %+v", n, bi, br)
		}
		all := classes(t, rows, n)
		if got := classes(t, index, n); !slices.Equal(got, all) {
			t.Fatalf("n=%d: the index lists %d classes, the rows %d, or others", n, len(got), len(all))
		}
		ks := make([]int64, 0, len(all))
		for k := range int64(len(all)) {
			ks = append(ks, k+1)
		}
		if n > 10 && sampled {
			ks = ks[:0]
			for range 200 {
				ks = append(ks, 1+rng.Int64N(int64(len(all))))
			}
		}
		start := time.Now()
		if err := sameClasses(all, ks, form{rows, br}, form{index, bi}); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		t.Logf("n=%d: %d classes by number and by the lookup of their 8 images, both forms, in %v", n, len(ks), time.Since(start).Round(time.Millisecond))
		u := int64(len(all))
		filters := []Filter{
			{Symmetry: []nqueens.Symmetry{nqueens.SymRot180}},
			{Symmetry: []nqueens.Symmetry{nqueens.SymRot90, nqueens.SymRot180}, Offset: 1, Limit: 3},
			{Symmetry: []nqueens.Symmetry{nqueens.SymNone}, From: u / 3, To: u / 2},
			{Symmetry: []nqueens.Symmetry{nqueens.SymNone, nqueens.SymRot180}, Offset: 2, Limit: 5},
			{From: u / 2, To: u, Offset: 1, Limit: 7},
			{From: u / 4},
		}
		for _, f := range filters {
			if u == 0 {
				break
			}
			want := testutil.Collect(t, rows.Classes(ctx, n, f))
			if got := testutil.Collect(t, index.Classes(ctx, n, f)); !slices.Equal(got, want) {
				t.Fatalf("n=%d filter %+v: index %v, rows %v", n, f, got, want)
			}
			cr, err1 := rows.Count(ctx, br, f)
			ci, err2 := index.Count(ctx, bi, f)
			if err1 != nil || err2 != nil || cr != ci {
				t.Fatalf("n=%d filter %+v: count %d, %v of the index, %d, %v of the rows", n, f, ci, err2, cr, err1)
			}
			sel := Selection{Filter: f, All: true}
			lr, wr, err1 := rows.Layouts(ctx, br, sel)
			li, wi, err2 := index.Layouts(ctx, bi, sel)
			if err1 != nil || err2 != nil || wr != wi {
				t.Fatalf("n=%d filter %+v: layouts %d, %v of the index, %d, %v of the rows", n, f, wi, err2, wr, err1)
			}
			if got, want := testutil.Collect(t, li), testutil.Collect(t, lr); !slices.Equal(got, want) {
				t.Fatalf("n=%d filter %+v: the index expands to %d solutions, the rows to %d, or others", n, f, len(got), len(want))
			}
		}
		for _, k := range []int64{0, u + 1} {
			if _, err := index.Class(ctx, n, k); !errors.Is(err, ErrNoClass) {
				t.Fatalf("n=%d class %d of the index: %v, want ErrNoClass", n, k, err)
			}
		}
	}
}

// A form is a catalog and its complete build of one n.
type form struct {
	db *DB
	b  Build
}

// sameClasses checks, on all cores, that for every k in ks class k of
// each form is all[k-1] (class, placement, orbit, symmetry), and that each
// of its 8 images is numbered k on each form as the lookup command numbers
// boards: folded to all[k-1]'s placement (canonical.Fold), then found by a
// Numbers (a Finder per n). DB.Lookup, which makes a new Finder each
// call (a new bisection of the rows, about a millisecond at n = 16), is
// called on one image of each class, chosen by k, up to n = 14. It returns
// the first fault found.
func sameClasses(all []nqueens.Layout, ks []int64, forms ...form) error {
	const chunk = 2048
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var once sync.Once
	var fault error
	fail := func(err error) {
		once.Do(func() { fault = err; cancel() })
	}
	parallel.Each(ctx, (len(ks)+chunk-1)/chunk, 0, func(i int, stop *parallel.Stop) {
		nums := make([]*Numbers, len(forms))
		for j, f := range forms {
			nums[j] = f.db.Numbers()
		}
		for _, k := range ks[i*chunk : min(len(ks), (i+1)*chunk)] {
			if stop.Stopped() {
				return
			}
			want := all[k-1]
			n := want.Placement.N()
			for j, f := range forms {
				got, err := f.db.Class(ctx, n, k)
				if err != nil || got != want {
					fail(fmt.Errorf("class %d of the %s: %v, %v; want %v", k, f.b.Form, got, err, want))
					return
				}
				for m, img := range canonical.Images(want.Placement) {
					c := canonical.Fold(img)
					got, err := nums[j].Find(ctx, c)
					if err != nil || got != k || c != want.Placement {
						fail(fmt.Errorf("image %s of class %d folds to %s, numbered %d, %v by the %s", img, k, c, got, err, f.b.Form))
						return
					}
					if m != int(k%8) || n > 14 {
						continue
					}
					l, err := f.db.Lookup(ctx, f.b, img)
					if err != nil || l != (nqueens.Layout{Class: k, Placement: want.Placement, Symmetry: want.Symmetry}) {
						fail(fmt.Errorf("lookup of %s (class %d) in the %s: %v, %v", img, k, f.b.Form, l, err))
						return
					}
				}
			}
		}
	})
	return fault
}

// TestIndexShardsMerge builds the index of n = 12 in 3 shards, merges
// them, and finds the merged index the same as a build of the whole
// board's, class for class, with the same counts.
func TestIndexShardsMerge(t *testing.T) {
	dir := t.TempDir()
	var parts []*DB
	for i := range 3 {
		db := open(t, filepath.Join(dir, fmt.Sprintf("s%d.db", i)))
		if _, err := db.Run(ctx, 12, nqueens.Shard{Index: i, Count: 3}, RunOptions{Index: true}); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, db)
	}
	merged, err := merge(ctx, filepath.Join(dir, "merged.db"), parts)
	if err != nil {
		t.Fatal(err)
	}
	whole := open(t, filepath.Join(dir, "whole.db"))
	b := runIndex(t, whole, 12)
	m := open(t, filepath.Join(dir, "merged.db"))
	mb, err := m.Complete(ctx, 12)
	if err != nil || len(merged) != 1 || mb.Counts != b.Counts || mb.Form != FormIndex {
		t.Fatalf("merged build %+v, %v; whole %+v", mb, err, b)
	}
	if got, want := classes(t, m, 12), classes(t, whole, 12); !slices.Equal(got, want) {
		t.Fatalf("the merged index lists %d classes, the whole one %d, or others", len(got), len(want))
	}
	for _, k := range []int64{1, 900, 1787} {
		got, err1 := m.Class(ctx, 12, k)
		want, err2 := whole.Class(ctx, 12, k)
		if err1 != nil || err2 != nil || got != want {
			t.Fatalf("class %d: merged %v, %v; whole %v, %v", k, got, err1, want, err2)
		}
	}
}

// TestIndex18 checks the index of n = 18 (NQUEENS_LONG=1; it builds it in
// about two minutes of two cores, or reads the catalog NQUEENS_INDEX18
// names): its totals are the published ones, and for 1,000 random K the
// class found is a valid, canonical solution, the lookup of each of its
// images gives K back, and the classes are in the order of their numbers.
func TestIndex18(t *testing.T) {
	testutil.LongOnly(t)
	path := os.Getenv("NQUEENS_INDEX18")
	if path == "" {
		path = filepath.Join(t.TempDir(), "index18.db")
		runIndex(t, open(t, path), 18)
	}
	db, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	b, err := db.Complete(ctx, 18)
	if k, _ := nqueens.KnownCounts(18); err != nil || b.Form != FormIndex || b.Total != k.Total || b.Unique != k.Unique {
		t.Fatalf("build of 18: %+v, %v; OEIS %d, %d", b, err, k.Total, k.Unique)
	}
	var sums nqueens.Counts
	for p, err := range db.prefixes(ctx, b) {
		if err != nil {
			t.Fatal(err)
		}
		sums.Unique += p.Classes
		sums.Total += p.Solutions
	}
	if sums.Total != b.Total || sums.Unique != b.Unique {
		t.Fatalf("the index adds up to %d, %d; the build records %d, %d", sums.Total, sums.Unique, b.Total, b.Unique)
	}
	rng := rand.New(rand.NewPCG(18, 1000))
	ks := make([]int64, 1000)
	for i := range ks {
		ks[i] = 1 + rng.Int64N(int64(b.Unique))
	}
	slices.Sort(ks)
	var prev nqueens.Layout
	for _, k := range ks {
		l, err := db.Class(ctx, 18, k)
		if err != nil {
			t.Fatal(err)
		}
		sym, ok := canonical.Classify(l.Placement)
		if l.Class != k || l.Placement.Valid() != nil || !ok || sym != l.Symmetry {
			t.Fatalf("class %d: %v is not a valid canonical solution of its symmetry", k, l)
		}
		if prev.Class != 0 && (prev.Class == k) != (prev.Placement == l.Placement) || prev.Class < k && prev.Placement.Compare(l.Placement) >= 0 {
			t.Fatalf("class %d is %s, class %d %s: out of order", prev.Class, prev.Placement, k, l.Placement)
		}
		for _, img := range canonical.Images(l.Placement) {
			got, err := db.Lookup(ctx, b, img)
			if err != nil || got != l {
				t.Fatalf("lookup of %s, an image of class %d: %v, %v", img, k, got, err)
			}
		}
		prev = l
	}
}

// TestIndexOrphanAudited deletes the builds row of an index by hand:
// Audit names the index left without it, and building n again replaces it.
func TestIndexOrphanAudited(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	db := open(t, path)
	runIndex(t, db, 9)
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`DELETE FROM builds WHERE n = 9`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	problems, err := db.Audit(ctx)
	if err != nil || len(problems) != 1 || problems[0].N != 9 || !strings.Contains(problems[0].Text, "an index with no record of its build") {
		t.Fatalf("Audit: %+v, %v", problems, err)
	}
	b := runIndex(t, db, 9)
	if problems, err := db.Audit(ctx); err != nil || len(problems) != 0 || b.Unique != 46 {
		t.Fatalf("after the build again: %+v, Audit %+v, %v", b, problems, err)
	}
}

// TestIndexReadDuringBuild reads classes and lookups of an index of n = 14
// while its build commits block after block, through a second handle: each
// class the build has committed reads without error, and is the class a
// finished index gives.
func TestIndexReadDuringBuild(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	db := open(t, path)
	reader, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	done := make(chan error)
	committed := make(chan struct{}, 1)
	go func() {
		_, err := db.Run(ctx, 14, nqueens.Shard{}, RunOptions{Index: true, Workers: 1, CommitRows: 1, Progress: func(int, int) {
			select {
			case committed <- struct{}{}:
			default:
			}
		}})
		done <- err
	}()
	var seen []nqueens.Layout
	reads := 0
	for running := true; running; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			running = false
		case <-committed:
		}
		b, err := reader.Build(ctx, 14)
		if err != nil || b.Unique == 0 {
			continue
		}
		for _, k := range []int64{1, int64(b.Unique) / 2, int64(b.Unique)} {
			l, err := reader.Class(ctx, 14, k)
			if err != nil {
				t.Fatalf("class %d of %d committed: %v", k, b.Unique, err)
			}
			if _, err := reader.Lookup(ctx, b, l.Placement); err != nil {
				t.Fatalf("lookup of class %d of %d committed: %v", k, b.Unique, err)
			}
			seen = append(seen, l)
			reads++
		}
	}
	for _, l := range seen {
		if got, err := reader.Class(ctx, 14, l.Class); err != nil || got != l {
			t.Fatalf("class %d: %v during the build, %v, %v after", l.Class, l, got, err)
		}
	}
	if reads == 0 {
		t.Fatal("no class was read during the build")
	}
}
