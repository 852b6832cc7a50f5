package store

import (
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/testutil"
)

// TestFormsFilterAlike builds n = 1..9 (1..14 with NQUEENS_LONG) as rows
// in one catalog and as an index in another, and checks that the two forms
// answer each filter alike (formsCase.alike): Classes yields the same
// layouts (class numbers, placements, symmetries, order) or the same
// error, Count gives the same number or the same error, and Layouts with
// All (of pages of 7 classes, and of whole filters up to n = 12) the same
// solutions and the same total; and that what they answer is what the
// filter's definition (matching) selects from the full list of classes,
// Count being the number of classes Classes yields.
//
// Subtest "symmetry" asks no symmetry filter and each of the 15 non-empty
// sets of the 4 symmetries, over all classes and over 2 seeded class
// ranges (one closed, one open above): whole, over all classes from the
// middle offset to the end, and by pages of 1, 7 and 100 classes (of 1
// and 7 for n <= 10, and of some of the sets by turns: see paged; of
// every set with NQUEENS_LONG). Over all classes the pages start at every
// offset up to one past the end for n <= 8 (n <= 10 with NQUEENS_LONG),
// and at 0, 1, the last, the end, one past it and 5 (20) seeded random
// offsets for larger n; over a range, at those 5 and one seeded random
// offset. Subtest "square" asks each square for n <= 6 (n <= 10 with
// NQUEENS_LONG), and for larger n a seeded square in each of rows 0 to 3
// and in 2 seeded deeper rows: whole, from the middle offset, by pages of
// 1 and 7 at offsets 0 and 1 and of 7 at the last and one past the end;
// then with a set of symmetries, and with a class range too, whole and by
// a page of 7 from offset 1. Subtest "past" asks each set of symmetries
// over 2 ranges past the build's classes, which Count and Layouts refuse
// with ErrNoClass on both forms, whole and by a page of 7 from offset 1.
// The n of each subtest are asked at once, on every core.
func TestFormsFilterAlike(t *testing.T) {
	t.Parallel()
	if raceDetector {
		// It compares answers, not goroutines, in thousands of queries,
		// which the race detector makes minutes (CI runs it without).
		t.Skip("compares answers; run without -race")
	}
	// top is the largest n built; every is the largest n whose pages are
	// asked at every offset, and squares the largest whose every square is
	// asked; random is the number of seeded random offsets of the pages
	// over all classes of a larger n.
	long := testutil.Long()
	top, every, squares, random := 9, 8, 6, 5
	if long {
		top, every, squares, random = 14, 10, 10, 20
	}
	dir := t.TempDir()
	rows, index := open(t, filepath.Join(dir, "rows.db")), open(t, filepath.Join(dir, "index.db"))
	var cases []formsCase
	for n := 1; n <= top; n++ {
		br, bi := run(t, rows, n), runIndex(t, index, n)
		all := classes(t, rows, n)
		known, _ := nqueens.KnownCounts(n)
		if br.Form != FormRows || bi.Form != FormIndex || br.Counts != bi.Counts || br.Unique != known.Unique || uint64(len(all)) != known.Unique {
			t.Fatalf("n=%d: rows build %+v with %d classes, index build %+v; OEIS says %d classes", n, br, len(all), bi, known.Unique)
		}
		cases = append(cases, formsCase{n: n, all: all, rows: form{rows, br}, index: form{index, bi}})
	}
	sets := symmetrySets()
	t.Run("symmetry", func(t *testing.T) {
		for _, c := range cases {
			t.Run(fmt.Sprintf("n=%d", c.n), func(t *testing.T) {
				t.Parallel()
				rng := rand.New(rand.NewPCG(1, uint64(c.n)))
				u := int64(len(c.all))
				ranges := []Filter{{}}
				if u > 0 {
					a, b := 1+rng.Int64N(u), 1+rng.Int64N(u)
					ranges = append(ranges, Filter{From: min(a, b), To: max(a, b)}, Filter{From: 1 + rng.Int64N(u)})
				}
				for i, r := range ranges {
					for si, set := range sets {
						f := r
						f.Symmetry = set
						m := c.count(f)
						c.alike(t, f)
						if i == 0 {
							c.alike(t, page(f, m/2, 0))
						}
						if !long && !paged(c.n, si, len(sets)) {
							continue
						}
						offsets := []int64{0, 1, max(0, m-1), m, m + 1}
						switch {
						case i == 0 && c.n <= every:
							offsets = offsets[:0]
							for o := range m + 2 {
								offsets = append(offsets, o)
							}
						case i == 0:
							offsets = append(offsets, seeded(rng, m, random)...)
						default:
							offsets = append(offsets, seeded(rng, m, 1)...)
						}
						limits := []int64{1, 7, 100}
						if !long && c.n <= 10 {
							limits = limits[:2] // 100 is every class of n <= 9
						}
						c.pages(t, f, limits, offsets)
					}
				}
			})
		}
	})
	t.Run("square", func(t *testing.T) {
		for _, c := range cases {
			t.Run(fmt.Sprintf("n=%d", c.n), func(t *testing.T) {
				t.Parallel()
				rng := rand.New(rand.NewPCG(2, uint64(c.n)))
				u := int64(len(c.all))
				for j, sq := range squaresOf(c.n, squares, rng) {
					f := Filter{Square: &sq}
					m := c.count(f)
					c.alike(t, f)
					c.alike(t, page(f, m/2, 0))
					c.pages(t, f, []int64{1, 7}, []int64{0, 1})
					c.pages(t, f, []int64{7}, []int64{max(0, m-1), m + 1})
					f.Symmetry = sets[1+j%15]
					c.alike(t, f)
					c.alike(t, page(f, 1, 7))
					if u > 0 {
						f.From, f.To = u/3, max(1, 2*u/3)
						c.alike(t, f)
						c.alike(t, page(f, 1, 7))
					}
				}
			})
		}
	})
	t.Run("past", func(t *testing.T) {
		for _, c := range cases {
			t.Run(fmt.Sprintf("n=%d", c.n), func(t *testing.T) {
				t.Parallel()
				u := int64(len(c.all))
				for _, past := range []Filter{{To: u + 1}, {From: u + 1}} {
					for _, set := range sets {
						f := past
						f.Symmetry = set
						c.alike(t, f)
						c.alike(t, page(f, 1, 7))
					}
				}
			})
		}
	})
}

// A formsCase is the classes of one n, in order, and its builds as rows
// and as an index.
type formsCase struct {
	n           int
	all         []nqueens.Layout
	rows, index form
}

// alike fails t unless the rows and the index of c answer f alike, and as
// matching says of c's classes: Classes yields its classes; Count gives
// their number, and Layouts with All their solutions, unless f's range
// goes past the classes, which both refuse with ErrNoClass. It asks
// Layouts of pages of 7 classes and of whole filters of n <= 12 (at
// n = 14 a whole filter has up to 365,596 solutions).
func (c formsCase) alike(t *testing.T, f Filter) {
	t.Helper()
	expand := f.Limit == 7 || (f.Limit == 0 && f.Offset == 0 && c.n <= 12)
	r, i := ask(c.n, c.rows, f, expand), ask(c.n, c.index, f, expand)
	if d := r.diff(i); d != "" {
		t.Fatalf("n=%d %s: the index answers unlike the rows: %s", c.n, describe(f), d)
	}
	want := matching(c.all, f)
	past := max(f.From, f.To) > int64(len(c.all))
	if past && errors.Is(r.classesErr, ErrNoClass) {
		// Classes need not check f (Count and Layouts do), but may refuse
		// a range past the classes as they do.
	} else if r.classesErr != nil || !slices.Equal(r.classes, want) {
		t.Fatalf("n=%d %s: Classes yields %d classes, %v; want %d: %s", c.n, describe(f), len(r.classes), r.classesErr, len(want), differ(r.classes, want))
	}
	if past {
		if !errors.Is(r.countErr, ErrNoClass) || (expand && !errors.Is(r.layoutsErr, ErrNoClass)) {
			t.Fatalf("n=%d %s: Count %d, %v, Layouts %v; want ErrNoClass", c.n, describe(f), r.count, r.countErr, r.layoutsErr)
		}
		return
	}
	if r.countErr != nil || r.count != uint64(len(want)) {
		t.Fatalf("n=%d %s: Count %d, %v; want %d", c.n, describe(f), r.count, r.countErr, len(want))
	}
	var total uint64
	for _, l := range want {
		total += uint64(l.Symmetry.Orbit())
	}
	if expand && (r.layoutsErr != nil || r.total != total || uint64(len(r.layouts)) != total) {
		t.Fatalf("n=%d %s: Layouts %d of %d, %v; want %d solutions", c.n, describe(f), len(r.layouts), r.total, r.layoutsErr, total)
	}
}

// count returns how many classes of c f selects, by its definition.
func (c formsCase) count(f Filter) int64 { return int64(len(matching(c.all, f))) }

// pages checks (alike) the page of f of each limit at each offset.
func (c formsCase) pages(t *testing.T, f Filter, limits, offsets []int64) {
	t.Helper()
	for _, limit := range limits {
		for _, o := range offsets {
			c.alike(t, page(f, o, limit))
		}
	}
}

// page returns f with the given offset and limit.
func page(f Filter, offset, limit int64) Filter {
	f.Offset, f.Limit = offset, limit
	return f
}

// seeded returns k offsets below m drawn from rng, or none if m is 0.
func seeded(rng *rand.Rand, m int64, k int) []int64 {
	var os []int64
	for range k * min(int(m), 1) {
		os = append(os, rng.Int64N(m))
	}
	return os
}

// paged reports whether the default run of TestFormsFilterAlike asks
// pages of n under set number si of the k of symmetrySets: no filter and
// the set of all 4 (the first and the last) always; of the other 14, a
// third by turns for n <= 10 (those equal to n modulo 3), and half for
// larger n (those equal to n modulo 2), so that each set is asked of one
// of n = 11 and 12, whose indexes have several blocks.
func paged(n, si, k int) bool {
	switch {
	case si == 0 || si == k-1:
		return true
	case n <= 10:
		return si%3 == n%3
	}
	return si%2 == n%2
}

// symmetrySets returns no symmetry (nil) and then the 15 non-empty sets of
// the 4 symmetries, each in the order SymNone, SymRot180, SymRot90, SymFull.
func symmetrySets() [][]nqueens.Symmetry {
	syms := []nqueens.Symmetry{nqueens.SymNone, nqueens.SymRot180, nqueens.SymRot90, nqueens.SymFull}
	sets := [][]nqueens.Symmetry{nil}
	for mask := 1; mask < 1<<len(syms); mask++ {
		var set []nqueens.Symmetry
		for i, s := range syms {
			if mask&(1<<i) != 0 {
				set = append(set, s)
			}
		}
		sets = append(sets, set)
	}
	return sets
}

// squaresOf returns the squares asked of n: every square for n <= every;
// otherwise a seeded square in each of rows 0 to 3 and in each of 2
// seeded rows below them.
func squaresOf(n, every int, rng *rand.Rand) []nqueens.Square {
	var sqs []nqueens.Square
	if n <= every {
		for r := range n {
			for col := range n {
				sqs = append(sqs, nqueens.Square{Row: r, Col: col})
			}
		}
		return sqs
	}
	for r := range 4 {
		sqs = append(sqs, nqueens.Square{Row: r, Col: rng.IntN(n)})
	}
	for _, r := range rng.Perm(n - 4)[:2] {
		sqs = append(sqs, nqueens.Square{Row: 4 + r, Col: rng.IntN(n)})
	}
	return sqs
}

// An answer is what one form answers a filter: the classes Classes yields
// before its first error, and that error; Count's number or error; and
// the solutions and total of Layouts with All, or its error.
type answer struct {
	classes    []nqueens.Layout
	classesErr error
	count      uint64
	countErr   error
	layouts    []nqueens.Layout
	total      uint64
	layoutsErr error
}

// ask returns what the form fm answers f on the classes of n; Layouts
// only with expand.
func ask(n int, fm form, f Filter, expand bool) answer {
	var a answer
	a.classes, a.classesErr = gather(fm.db.Classes(ctx, n, f))
	a.count, a.countErr = fm.db.Count(ctx, fm.b, f)
	if !expand {
		return a
	}
	seq, total, err := fm.db.Layouts(ctx, fm.b, Selection{Filter: f, All: true})
	a.total, a.layoutsErr = total, err
	if err == nil {
		a.layouts, a.layoutsErr = gather(seq)
	}
	if f.Searches(fm.b) && err == nil {
		// Layouts does not count what a search finds (0), so that it
		// searches once: the layouts themselves are compared.
		if total != 0 {
			a.layoutsErr = fmt.Errorf("Layouts of a search counted %d layouts first, want 0", total)
		}
		a.total = uint64(len(a.layouts))
	}
	return a
}

// gather returns the values seq yields before its first error, and that
// error.
func gather(seq iter.Seq2[nqueens.Layout, error]) ([]nqueens.Layout, error) {
	var out []nqueens.Layout
	for l, err := range seq {
		if err != nil {
			return out, err
		}
		out = append(out, l)
	}
	return out, nil
}

// diff returns "" if the rows' answer r and the index's i are the same,
// errors compared by their text, or else says how they differ.
func (r answer) diff(i answer) string {
	var d []string
	if text(r.classesErr) != text(i.classesErr) || !slices.Equal(r.classes, i.classes) {
		d = append(d, fmt.Sprintf("Classes yields %d, %v of the index, %d, %v of the rows: %s", len(i.classes), i.classesErr, len(r.classes), r.classesErr, differ(i.classes, r.classes)))
	}
	if text(r.countErr) != text(i.countErr) || r.count != i.count {
		d = append(d, fmt.Sprintf("Count %d, %v of the index, %d, %v of the rows", i.count, i.countErr, r.count, r.countErr))
	}
	if text(r.layoutsErr) != text(i.layoutsErr) || r.total != i.total || !slices.Equal(r.layouts, i.layouts) {
		d = append(d, fmt.Sprintf("Layouts %d of %d, %v of the index, %d of %d, %v of the rows: %s", len(i.layouts), i.total, i.layoutsErr, len(r.layouts), r.total, r.layoutsErr, differ(i.layouts, r.layouts)))
	}
	if len(d) == 0 {
		return ""
	}
	return fmt.Sprint(d)
}

// differ says where got first differs from want, counting from 0.
func differ(got, want []nqueens.Layout) string {
	for k := range min(len(got), len(want)) {
		if got[k] != want[k] {
			return fmt.Sprintf("layout %d is %s, want %s", k, show(got[k]), show(want[k]))
		}
	}
	switch {
	case len(got) > len(want):
		return fmt.Sprintf("layout %d is %s, want none", len(want), show(got[len(want)]))
	case len(got) < len(want):
		return fmt.Sprintf("layout %d is missing, want %s", len(got), show(want[len(got)]))
	}
	return "the same layouts"
}

// show writes l for a failure's message: "class 4 [1 4 0 3 6 2 5] rot180".
func show(l nqueens.Layout) string {
	return fmt.Sprintf("class %d [%s] %s", l.Class, l.Placement, l.Symmetry)
}

// text returns err's message, or "" for nil.
func text(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// describe writes f for a failure's message.
func describe(f Filter) string {
	sq := "any"
	if f.Square != nil {
		sq = f.Square.String()
	}
	return fmt.Sprintf("filter from=%d to=%d symmetry=%v square=%s offset=%d limit=%d", f.From, f.To, f.Symmetry, sq, f.Offset, f.Limit)
}
