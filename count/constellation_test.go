package count

import (
	"context"
	"errors"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/enumerate"
	"github.com/nqueens/nqueens/internal/parallel"
)

// borderOf returns the constellation tuple of the solution p.
func borderOf(p nqueens.Placement) border {
	n := p.N()
	m := n - 1
	var t border
	t[0], t[1] = uint8(p.Col(0)), uint8(p.Col(m))
	for r := range n {
		switch p.Col(r) {
		case 0:
			t[2] = uint8(r)
		case m:
			t[3] = uint8(r)
		}
	}
	return t
}

// smallest returns the lexicographically smallest image of the border t.
func smallest(n int, t border) border {
	qs, k, ok := t.queens(n)
	if !ok {
		panic("not a constellation")
	}
	best := t
	for g := range 8 {
		if u := image(n, qs[:k], g); u.less(best) {
			best = u
		}
	}
	return best
}

// TestConstellationsAgainstEverySolution checks Constellations and
// Solutions against the plain enumerator: every solution's border, up to
// symmetry, is one listed constellation, and each constellation's orbit
// holds exactly the solutions whose border is in it.
func TestConstellationsAgainstEverySolution(t *testing.T) {
	for n := 1; n <= 11; n++ {
		want := map[border]uint64{}
		for p := range enumerate.Solutions(n) {
			want[smallest(n, borderOf(p))]++
		}
		got := map[border]uint64{}
		for _, c := range Constellations(n) {
			key := smallest(n, border{c.a, c.b, c.k, c.l})
			if _, dup := got[key]; dup {
				t.Fatalf("n=%d: orbit %v listed twice", n, key)
			}
			got[key] = uint64(c.Orbit()) * c.Solutions()
		}
		for key, w := range want {
			if got[key] != w {
				t.Errorf("n=%d: orbit of %v holds %d solutions, search says %d", n, key, w, got[key])
			}
		}
		for key, g := range got {
			if g != want[key] {
				t.Errorf("n=%d: search finds %d solutions in the orbit of %v, want %d", n, g, key, want[key])
			}
		}
	}
}

// TestSolutionsSameInEveryImage checks that the orientation chosen for the
// search does not change what it counts.
func TestSolutionsSameInEveryImage(t *testing.T) {
	for _, n := range []int{5, 8, 10, 12} {
		for _, c := range Constellations(n) {
			qs, k := c.queens()
			want := c.Solutions()
			for g := range 8 {
				u := image(n, qs[:k], g)
				d := Constellation{n: c.n, a: u[0], b: u[1], k: u[2], l: u[3], orbit: c.orbit}
				if got := d.Solutions(); got != want {
					t.Fatalf("n=%d: %v has %d solutions, its image %v under %d has %d", n, c.Queens(), want, d.Queens(), g, got)
				}
			}
		}
	}
}

func TestConstellationOrbits(t *testing.T) {
	for n := 1; n <= 12; n++ {
		var weighted int
		for _, c := range Constellations(n) {
			switch o := c.Orbit(); {
			case n == 1 && o == 1, o == 2, o == 4, o == 8:
			default:
				t.Fatalf("n=%d: constellation %v has orbit %d", n, c.Queens(), o)
			}
			weighted += c.Orbit()
		}
		// Every possible border of the board, counted once.
		var all int
		for a := range n {
			for b := range n {
				for k := range n {
					for l := range n {
						if _, _, ok := (border{uint8(a), uint8(b), uint8(k), uint8(l)}).queens(n); ok {
							all++
						}
					}
				}
			}
		}
		if weighted != all {
			t.Errorf("n=%d: orbits of the constellations cover %d borders, want %d", n, weighted, all)
		}
	}
}

func TestConstellationQueens(t *testing.T) {
	// n = 4: the two solutions are a class of orbit 2 and each has all
	// four of its queens on the border.
	var cs []Constellation
	for _, c := range Constellations(4) {
		if c.Solutions() > 0 {
			cs = append(cs, c)
		}
	}
	if len(cs) != 1 {
		t.Fatalf("n=4: %d constellations with solutions, want 1: %v", len(cs), cs)
	}
	c := cs[0]
	if c.N() != 4 || c.Orbit() != 2 || len(c.Queens()) != 4 || c.Solutions() != 1 {
		t.Errorf("n=4: constellation %v, orbit %d, %d solutions; want 4 queens, orbit 2, 1 solution", c.Queens(), c.Orbit(), c.Solutions())
	}
	// n = 1: one queen in all four lines.
	cs = Constellations(1)
	if len(cs) != 1 || len(cs[0].Queens()) != 1 || cs[0].Orbit() != 1 || cs[0].Solutions() != 1 {
		t.Errorf("n=1: %v", cs)
	}
}

// TestCountSameAsClassSearch compares the two searches field by field.
func TestCountSameAsClassSearch(t *testing.T) {
	last := 14
	if testing.Short() {
		last = 12
	}
	for n := 1; n <= last; n++ {
		want, err := canonical.CountUnits(context.Background(), canonical.Units(n), 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Board(context.Background(), n, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("n=%d: by constellations %+v, by classes %+v", n, got, want)
		}
	}
}

func TestSymmetricAgainstEverySolution(t *testing.T) {
	for n := 1; n <= 12; n++ {
		var half, quarter uint64
		for p := range enumerate.Solutions(n) {
			if canonical.Transform(2).Apply(p) == p {
				half++
			}
			if canonical.Transform(1).Apply(p) == p {
				quarter++
			}
		}
		h, q, err := Symmetric(context.Background(), n, 2)
		if err != nil {
			t.Fatal(err)
		}
		if h != half || q != quarter {
			t.Errorf("Symmetric(%d) = %d, %d; want %d, %d", n, h, q, half, quarter)
		}
	}
}

func TestTally(t *testing.T) {
	tests := []struct {
		n                    int
		total, half, quarter uint64
		want                 nqueens.Counts
		bad                  bool
	}{
		{n: 1, total: 1, half: 1, quarter: 1, want: nqueens.Counts{Total: 1, Unique: 1, Orbit1: 1}},
		{n: 4, total: 2, half: 2, quarter: 2, want: nqueens.Counts{Total: 2, Unique: 1, Orbit2: 1}},
		{n: 16, total: 14772512, half: 3000, quarter: 64,
			want: nqueens.Counts{Total: 14772512, Unique: 1846955, Orbit8: 1846189, Orbit4: 734, Orbit2: 32}},
		{n: 2},
		{n: 8, total: 93, half: 4, bad: true},             // not whole classes of 8
		{n: 8, total: 92, half: 6, bad: true},             // half turn: not whole classes of 4
		{n: 8, total: 92, half: 4, quarter: 8, bad: true}, // more for the quarter than the half turn
		{n: 1, total: 2, half: 1, quarter: 1, bad: true},
	}
	for _, tt := range tests {
		got, err := Tally(tt.n, tt.total, tt.half, tt.quarter)
		if tt.bad {
			if err == nil {
				t.Errorf("Tally(%d, %d, %d, %d) = %+v, want an error", tt.n, tt.total, tt.half, tt.quarter, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Tally(%d, %d, %d, %d) = %+v, %v; want %+v", tt.n, tt.total, tt.half, tt.quarter, got, err, tt.want)
		}
	}
}

func TestSolutionsCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Solutions(ctx, Constellations(12), 2, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled count: err = %v, want context.Canceled", err)
	}
	if _, err := Board(ctx, 12, Options{Workers: 2}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Board: err = %v, want context.Canceled", err)
	}
	if _, _, err := Symmetric(ctx, 16, 2); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Symmetric: err = %v, want context.Canceled", err)
	}
}

// TestSolutionsStopMidway cancels a count of n = 18 on one goroutine when
// its first constellation is done: the count must stop within the next
// constellation (its search checks the flag in its first rows), not run
// on to the others.
func TestSolutionsStopMidway(t *testing.T) {
	cs := Constellations(18)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := 0
	_, err := Solutions(ctx, cs, 1, func() {
		done++
		if done == 1 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("count cancelled midway: err = %v, want context.Canceled", err)
	}
	if done > 2 {
		t.Errorf("count cancelled after the first constellation went on to %d of %d", done, len(cs))
	}
}

// TestStopCutsSearch checks that a raised Stop cuts a constellation's
// search short: it counts nothing once the Stop is raised.
func TestStopCutsSearch(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	stop, release := parallel.Watch(ctx)
	defer release()
	for _, c := range Constellations(17)[:50] {
		if got := c.solutions(stop); got != 0 {
			t.Fatalf("%v: the search with stop set counted %d, want 0", c.Queens(), got)
		}
	}
}

func TestQuadIndex(t *testing.T) {
	seen := map[uint32]bool{}
	for w := range nqueens.MaxN {
		for x := w + 1; x < nqueens.MaxN; x++ {
			for y := x + 1; y < nqueens.MaxN; y++ {
				for z := y + 1; z < nqueens.MaxN; z++ {
					i := quadIndex(1<<uint(w) | 1<<uint(x) | 1<<uint(y) | 1<<uint(z))
					// The sets of the columns 0..z have the indexes below C(z+1, 4).
					if i >= uint32((z+1)*z*(z-1)*(z-2)/24) || seen[i] {
						t.Fatalf("quadIndex(%d, %d, %d, %d) = %d: out of range or taken", w, x, y, z, i)
					}
					seen[i] = true
				}
			}
		}
	}
	if len(seen) != quadIndexes {
		t.Errorf("quadIndex takes %d indexes, want %d", len(seen), quadIndexes)
	}
}

// TestTablesCountAlike checks both indexes of the table of the last rows
// against the published totals: the direct index that boards up to
// directMaxN use, and quadIndex, which larger boards use, on boards small
// enough to count here (the table serves most constellations from n = 13).
func TestTablesCountAlike(t *testing.T) {
	for n := 13; n <= 15; n++ {
		want, _ := nqueens.KnownCounts(n)
		for _, tab := range []table{directTable, indexedTable} {
			var total uint64
			for _, c := range Constellations(n) {
				total += uint64(c.Orbit()) * c.search(nil, tab)
			}
			if total != want.Total {
				t.Errorf("n=%d, table %d: %d solutions, want %d", n, tab, total, want.Total)
			}
		}
	}
}
