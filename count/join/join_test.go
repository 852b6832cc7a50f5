package join

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/enumerate"
	"github.com/nqueens/nqueens/internal/testutil"
)

// TestTotalKnown counts n = 1..16 by the join: the published totals.
func TestTotalKnown(t *testing.T) {
	t.Parallel()
	for n := 1; n <= 16; n++ {
		got, err := total(context.Background(), n, 0)
		if err != nil {
			t.Fatal(err)
		}
		if k, _ := nqueens.KnownCounts(n); got != k.Total {
			t.Errorf("n=%d: %d solutions, want %d", n, got, k.Total)
		}
	}
}

// TestItemsAgainstSolutions checks every item of n = 1..12, the join's
// count of one placement of the middle queens and one set of east rows,
// against the solutions of the plain search that have them, weighted as
// the package comment says: each item's pairs of halves are exactly those
// solutions.
func TestItemsAgainstSolutions(t *testing.T) {
	t.Parallel()
	for n := 1; n <= 12; n++ {
		b, err := New(n)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]uint64{}
		for p := range enumerate.Solutions(n) {
			k, w := itemOf(b, p)
			want[k] += w
		}
		var c counter
		for i := range b.Items() {
			m, rows := b.decode(i)
			k := fmt.Sprintf("%d,%d:%b", m.a, m.b, rows)
			if got := b.item(i, &c); got != want[k] {
				t.Errorf("n=%d item %d (middle %d,%d, east rows %b): %d, want %d", n, i, m.a, m.b, rows, got, want[k])
			}
			delete(want, k)
		}
		for k, w := range want {
			if w != 0 {
				t.Errorf("n=%d: the solutions of %s (%d) are in no item", n, k, w)
			}
		}
	}
}

// itemOf returns the item of solution p, as "a,b:rows" (its middle queens
// and east rows), and what p counts for in it: 0 unless p's item is the
// one of its orbit the join counts, and then the solutions p stands for.
func itemOf(b *Board, p nqueens.Placement) (string, uint64) {
	n, h := b.n, b.h
	a, mb := -1, -1
	if n%2 == 1 {
		a = p.Col(h)
		for r := range n {
			if p.Col(r) == h {
				mb = r
			}
		}
	}
	var rows uint32
	for r := range n {
		if r != h || n%2 == 0 {
			if c := p.Col(r); c >= int(b.s) {
				rows |= 1 << uint(r)
			}
		}
	}
	key := fmt.Sprintf("%d,%d:%b", a, mb, rows)
	var m *middle
	for i := range b.cfgs {
		if b.cfgs[i].a == a && b.cfgs[i].b == mb {
			m = &b.cfgs[i]
		}
	}
	if m == nil {
		return key, 0 // the middle queens of another of their orbit
	}
	weight := m.orbit
	if n%2 == 1 {
		if a != h {
			return key, weight
		}
		// The centre: the least of R's images under the two mirrors.
		other := rows ^ m.rows
		images := [4]uint32{rows, reverse(rows, n), other, reverse(other, n)}
		for _, r := range images {
			if r < rows {
				return key, 0
			}
		}
		return key, uint64(distinct(images))
	}
	// Even: the least of R and R backwards, twice if they differ; no
	// queen on a long diagonal in the east half; 2 for each in the west.
	if rev := reverse(rows, n); rev < rows {
		return key, 0
	} else if rev > rows {
		weight = 2
	}
	var eastLong, nwMain, swAnti bool
	for r := range n {
		c := p.Col(r)
		long := r == c || r+c == n-1
		switch {
		case c >= h && long:
			eastLong = true
		case r < h && c < h && r == c:
			nwMain = true
		case r >= h && c < h && r+c == n-1:
			swAnti = true
		}
	}
	if eastLong {
		return key, 0
	}
	if !nwMain && !swAnti {
		// No queen on a long diagonal: counted with the least of R's four
		// images under the mirrors top to bottom and east to west.
		other := rows ^ m.rows
		switch o := min(other, reverse(other, n)); {
		case o < rows:
			return key, 0
		case o > rows:
			return key, 2 * weight
		}
		return key, weight
	}
	w := weight
	if nwMain {
		w *= 2
	}
	if swAnti {
		w *= 2
	}
	return key, w
}

// TestUnitsShareItems checks that the units of a board share out its
// items, each once, and that their counts add up to the total.
func TestUnitsShareItems(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1, 2, 3, 8, 11, 14} {
		b, err := New(n)
		if err != nil {
			t.Fatal(err)
		}
		if UnitsOf(n) != b.Units() {
			t.Errorf("n=%d: UnitsOf %d, Units %d", n, UnitsOf(n), b.Units())
		}
		all := make([]int, b.Units())
		for i := range all {
			all[i] = i
		}
		seen := make([]int, b.Units())
		var total uint64
		err = b.Count(context.Background(), all, 2, func(i int, s uint64) {
			seen[i]++
			total += s
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, k := range seen {
			if k != 1 {
				t.Errorf("n=%d: unit %d reported %d times", n, i, k)
			}
		}
		if k, _ := nqueens.KnownCounts(n); total != k.Total {
			t.Errorf("n=%d: units add up to %d, want %d", n, total, k.Total)
		}
	}
}

// TestCountStops cancels a count before it starts: no unit is reported.
func TestCountStops(t *testing.T) {
	t.Parallel()
	b, err := New(14)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = b.Count(ctx, []int{0, 1, 2}, 2, func(int, uint64) { t.Error("a unit was reported after the cancel") })
	if err != context.Canceled {
		t.Errorf("Count after cancel: %v, want context.Canceled", err)
	}
}

// TestNewRefuses checks the range of n.
func TestNewRefuses(t *testing.T) {
	for _, n := range []int{0, -1, MaxN + 1} {
		if _, err := New(n); err == nil {
			t.Errorf("New(%d): no error", n)
		}
		if UnitsOf(n) != 0 {
			t.Errorf("UnitsOf(%d) = %d, want 0", n, UnitsOf(n))
		}
	}
}

// TestMemory checks the memory the join states against the pieces it
// lists, for the quarters it can list here.
func TestMemory(t *testing.T) {
	for h := 0; h <= 8; h++ {
		q := newQuarters(h)
		if int64(len(q.pieces)) != pieceCounts[h] {
			t.Errorf("h=%d: %d pieces, pieceCounts says %d", h, len(q.pieces), pieceCounts[h])
		}
	}
	// The peak measured for a count of 20 on 2 cores: 95 MiB.
	if m := Memory(20, 2); m < 95<<20 || m > 130<<20 {
		t.Errorf("Memory(20, 2) = %d, want about 100 MiB", m)
	}
}

// TestWideMatchesBlocks counts n = 4..16 with the wide sieve and block by
// block (the pure Go path, the only one where there is no AVX-512): the
// same totals, the published ones.
func TestWideMatchesBlocks(t *testing.T) {
	defer func(w bool, m int) { hasWide, minWide = w, m }(hasWide, minWide)
	for _, wide := range []bool{false, true} {
		// Every run of blocks wide, however short, where it is used.
		hasWide, minWide = wide, 1
		top := 15
		if testutil.Long() {
			top = 16
		}
		for n := 4; n <= top; n++ {
			got, err := total(context.Background(), n, 2)
			if err != nil {
				t.Fatal(err)
			}
			if k, _ := nqueens.KnownCounts(n); got != k.Total {
				t.Errorf("n=%d wide=%t: %d solutions, want %d", n, wide, got, k.Total)
			}
		}
	}
}

// TestMatchWide checks matchWide, in AVX-512 where the processor has it,
// against matchWideGo on random tables and items, for 6, 7 and 8 tables.
func TestMatchWide(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 8))
	var tab wideTable
	for c := range tab {
		for v := range tab[c] {
			for lane := range tab[c][v] {
				tab[c][v][lane] = rng.Uint64() | rng.Uint64() // dense, as tables are
			}
		}
	}
	items := make([]uint64, 1000)
	for i := range items {
		items[i] = rng.Uint64() >> 16
	}
	for _, nt := range []int{6, 7, 8} {
		for _, k := range []int{0, 1, 7, 1000} {
			if got, want := matchWide(&tab, items[:k], nt), matchWideGo(&tab, items[:k], nt); got != want {
				t.Errorf("%d tables, %d items: matchWide %d, matchWideGo %d", nt, k, got, want)
			}
		}
	}
}
