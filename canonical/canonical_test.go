package canonical

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/enumerate"
	"github.com/nqueens/nqueens/internal/testutil"
)

func TestCountMatchesOEIS(t *testing.T) {
	for n, want := range testutil.Known() {
		for _, workers := range []int{1, 2, 5} {
			c, err := CountUnits(context.Background(), Units(n), workers, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.Total != want.Total || c.Unique != want.Unique {
				t.Errorf("CountUnits(%d, workers=%d) = total %d unique %d, want %d %d", n, workers, c.Total, c.Unique, want.Total, want.Unique)
			}
			if sum := 8*c.Orbit8 + 4*c.Orbit4 + 2*c.Orbit2 + c.Orbit1; sum != c.Total {
				t.Errorf("n=%d: orbits sum to %d, total %d", n, sum, c.Total)
			}
			if c.Orbit8+c.Orbit4+c.Orbit2+c.Orbit1 != c.Unique {
				t.Errorf("n=%d: orbit classes %+v do not sum to unique", n, c)
			}
		}
	}
}

// foldAll is the slow path: enumerate every solution, keep those equal to
// their fold.
func foldAll(n int) []nqueens.Layout {
	var out []nqueens.Layout
	for p := range enumerate.Solutions(n) {
		if Fold(p) == p {
			out = append(out, nqueens.Layout{Class: int64(len(out) + 1), Placement: p, Symmetry: SymmetryOf(p)})
		}
	}
	return out
}

func TestClassesSameAsEnumerateThenFold(t *testing.T) {
	for n, want := range testutil.Known() {
		if n > 12 && (testing.Short() || !testutil.Long()) {
			continue // n = 13 and 14 with NQUEENS_LONG
		}
		fold := foldAll(n)
		got := slices.Collect(Classes(context.Background(), n, 3))
		if !slices.Equal(got, fold) {
			t.Errorf("n=%d: pruned search gives %d classes, enumerate-then-fold %d, or they differ", n, len(got), len(fold))
			continue
		}
		if uint64(len(got)) != want.Unique {
			t.Errorf("n=%d: %d classes, want %d", n, len(got), want.Unique)
		}
		var total uint64
		for _, l := range got {
			orbit := Orbit(l.Placement)
			if len(orbit) != l.Symmetry.Orbit() || orbit[0] != l.Placement {
				t.Fatalf("n=%d class %d: orbit %v, symmetry %v", n, l.Class, orbit, l.Symmetry)
			}
			total += uint64(len(orbit))
		}
		if total != want.Total {
			t.Errorf("n=%d: orbits hold %d solutions, want %d", n, total, want.Total)
		}
	}
}

func TestOrbitsPartitionAllSolutions(t *testing.T) {
	for _, n := range []int{4, 5, 6, 8, 10} {
		seen := map[nqueens.Placement]bool{}
		for l := range Classes(context.Background(), n, 1) {
			for _, p := range Orbit(l.Placement) {
				if seen[p] {
					t.Fatalf("n=%d: %v in two orbits", n, p)
				}
				seen[p] = true
			}
		}
		all := slices.Collect(enumerate.Solutions(n))
		if len(all) != len(seen) {
			t.Fatalf("n=%d: orbits cover %d solutions, there are %d", n, len(seen), len(all))
		}
		for _, p := range all {
			if !seen[p] {
				t.Fatalf("n=%d: %v in no orbit", n, p)
			}
		}
	}
}

// applyByCoordinates maps each queen (r, c) through f and rebuilds the
// placement: the definition the Transform formulas must agree with.
func applyByCoordinates(p nqueens.Placement, f func(r, c, m int) (int, int)) nqueens.Placement {
	n := p.N()
	cols := make([]int, n)
	for r := range n {
		r2, c2 := f(r, p.Col(r), n-1)
		cols[r2] = c2
	}
	return nqueens.MustNew(cols...)
}

func TestTransformsMatchGeometry(t *testing.T) {
	geometry := map[Transform]func(r, c, m int) (int, int){
		0: func(r, c, m int) (int, int) { return r, c },
		1: func(r, c, m int) (int, int) { return c, m - r },     // clockwise quarter turn
		2: func(r, c, m int) (int, int) { return m - r, m - c }, // half turn
		3: func(r, c, m int) (int, int) { return m - c, r },     // anticlockwise
		4: func(r, c, m int) (int, int) { return r, m - c },     // left-right
		5: func(r, c, m int) (int, int) { return m - r, c },     // top-bottom
		6: func(r, c, m int) (int, int) { return c, r },         // main diagonal
		7: func(r, c, m int) (int, int) { return m - c, m - r }, // anti-diagonal
	}
	p := nqueens.MustNew(0, 4, 7, 5, 2, 6, 1, 3)
	for _, tr := range transforms {
		if got, want := tr.Apply(p), applyByCoordinates(p, geometry[tr]); got != want {
			t.Errorf("%v: Apply = %v, geometry = %v", tr, got, want)
		}
		if tr.Apply(p).Valid() != nil {
			t.Errorf("%v maps a solution to a non-solution", tr)
		}
	}
	r := p
	for range 4 {
		r = Transform(1).Apply(r)
	}
	if r != p {
		t.Errorf("four quarter turns give %v", r)
	}
}

func TestClassifyAgreesOnEverySolution(t *testing.T) {
	for _, n := range []int{1, 4, 5, 6, 7, 8, 9, 10} {
		for p := range enumerate.Solutions(n) {
			sym, ok := Classify(p)
			if ok != IsCanonical(p) || (ok && sym != SymmetryOf(p)) {
				t.Fatalf("Classify(%v) = %v, %v", p, sym, ok)
			}
		}
	}
}

func TestSymmetryExamples(t *testing.T) {
	tests := []struct {
		p    nqueens.Placement
		want nqueens.Symmetry
	}{
		{nqueens.MustNew(0), nqueens.SymFull},
		{nqueens.MustNew(1, 3, 0, 2), nqueens.SymRot90},
		{nqueens.MustNew(1, 3, 5, 0, 2, 4), nqueens.SymRot180},
		{nqueens.MustNew(0, 4, 7, 5, 2, 6, 1, 3), nqueens.SymNone},
	}
	for _, tt := range tests {
		if got := SymmetryOf(tt.p); got != tt.want {
			t.Errorf("SymmetryOf(%v) = %v, want %v", tt.p, got, tt.want)
		}
		if got := len(Orbit(tt.p)); got != tt.want.Orbit() {
			t.Errorf("len(Orbit(%v)) = %d, want %d", tt.p, got, tt.want.Orbit())
		}
	}
}

// FuzzFold checks on arbitrary permutations (solutions or not) that Fold is
// idempotent, gives the same placement for all 8 images, is one of them,
// and is no greater than any of them.
func FuzzFold(f *testing.F) {
	f.Add([]byte{1, 3, 0, 2})
	f.Add([]byte{0, 4, 7, 5, 2, 6, 1, 3})
	f.Add([]byte{5})
	f.Add([]byte{9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 31, 30})
	f.Fuzz(func(t *testing.T, data []byte) {
		p, ok := permutation(data)
		if !ok {
			t.Skip()
		}
		fp := Fold(p)
		if Fold(fp) != fp {
			t.Fatalf("Fold not idempotent on %v: %v then %v", p, fp, Fold(fp))
		}
		imgs := Images(p)
		if !slices.Contains(imgs[:], fp) {
			t.Fatalf("Fold(%v) = %v is not an image", p, fp)
		}
		for i, img := range imgs {
			if got := Fold(img); got != fp {
				t.Fatalf("Fold of image %d (%v) = %v, want %v", i, img, got, fp)
			}
			if img.Compare(fp) < 0 {
				t.Fatalf("image %v is smaller than Fold %v", img, fp)
			}
		}
		if orbit := Orbit(p); orbit[0] != fp {
			t.Fatalf("Orbit(%v)[0] = %v, want %v", p, orbit[0], fp)
		}
		if p.Valid() == nil {
			sym, ok := Classify(p)
			if ok != (fp == p) || (ok && sym != SymmetryOf(p)) {
				t.Fatalf("Classify(%v) = %v, %v; IsCanonical %v, SymmetryOf %v", p, sym, ok, fp == p, SymmetryOf(p))
			}
		}
	})
}

// permutation turns data into a permutation of 0..len-1 (the order of the
// bytes' ranks), or false if data has no size in 1..MaxN.
func permutation(data []byte) (nqueens.Placement, bool) {
	n := len(data)
	if n < 1 || n > nqueens.MaxN {
		return nqueens.Placement{}, false
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return int(data[a]) - int(data[b]) })
	cols := make([]int, n)
	for rank, i := range idx {
		cols[i] = rank
	}
	p, err := nqueens.New(cols)
	return p, err == nil
}

func ExampleFold() {
	p := nqueens.MustNew(2, 0, 3, 1)
	fmt.Println(Fold(p), SymmetryOf(p), Orbit(p))
	// Output: 1 3 0 2 rot90 [1 3 0 2 2 0 3 1]
}

func ExampleClasses() {
	for l := range Classes(context.Background(), 6, 0) {
		fmt.Println(l.Class, l.Placement, l.Symmetry.Orbit(), l.Symmetry)
	}
	// Output: 1 1 3 5 0 2 4 4 rot180
}

// TestCountUnitAllocatesNothing runs the class search over every unit of
// boards of 2,680 and 14,200 solutions: it allocates nothing, per node,
// per solution or per unit.
func TestCountUnitAllocatesNothing(t *testing.T) {
	for _, n := range []int{11, 12} {
		units := Units(n)
		if a := testing.AllocsPerRun(3, func() {
			for _, u := range units {
				countUnit(u)
			}
		}); a != 0 {
			t.Errorf("n=%d: CountUnit over %d units allocates %v times, want 0", n, len(units), a)
		}
	}
}

// BenchmarkCountByClasses measures the class search's count on one
// goroutine, against which the count package's BenchmarkBoardSerial
// compares.
func BenchmarkCountByClasses(b *testing.B) {
	for _, n := range []int{12, 14} {
		b.Run(fmt.Sprint("n=", n), func(b *testing.B) {
			units := Units(n)
			b.ReportAllocs()
			for b.Loop() {
				CountUnits(context.Background(), units, 1, nil)
			}
		})
	}
}

func BenchmarkClasses(b *testing.B) {
	for b.Loop() {
		for range Classes(context.Background(), 13, 0) {
		}
	}
}

// TestIdentify checks Identify on every solution of n = 1..10: the
// canonical placement is Fold's, the symmetry Classify's, and the
// transform maps the canonical placement to the solution, the first in
// order that does.
func TestIdentify(t *testing.T) {
	for n := 1; n <= 10; n++ {
		for p := range enumerate.Solutions(n) {
			id := Identify(p)
			sym, _ := Classify(id.Canonical)
			if id.Canonical != Fold(p) || id.Symmetry != sym {
				t.Fatalf("Identify(%s) = %+v; want canonical %s, symmetry %s", p, id, Fold(p), sym)
			}
			if got := id.Transform.Apply(id.Canonical); got != p {
				t.Fatalf("Identify(%s): transform %s maps %s to %s", p, id.Transform, id.Canonical, got)
			}
			for t2 := range id.Transform {
				if t2.Apply(id.Canonical) == p {
					t.Fatalf("Identify(%s): transform %s maps the canonical to it too, and comes first", p, t2)
				}
			}
		}
	}
}

func TestTransformInverse(t *testing.T) {
	p := nqueens.MustNew(4, 6, 1, 5, 2, 0, 7, 3)
	for _, tr := range transforms {
		if got := tr.inverse().Apply(tr.Apply(p)); got != p {
			t.Errorf("%s then its inverse %s gives %s", tr, tr.inverse(), got)
		}
	}
}

func BenchmarkIdentify(b *testing.B) {
	var ps []nqueens.Placement
	for p := range enumerate.Solutions(12) {
		ps = append(ps, p)
	}
	i := 0
	for b.Loop() {
		Identify(ps[i%len(ps)])
		i++
	}
}

// Identify names a solution's class and the symmetry that maps the class's
// representative to it.
func ExampleIdentify() {
	id := Identify(nqueens.MustNew(4, 6, 1, 5, 2, 0, 7, 3))
	fmt.Println(id.Canonical, id.Symmetry, id.Transform)
	fmt.Println(id.Transform.Apply(id.Canonical))
	// Output:
	// 1 6 4 7 0 3 5 2 none antitranspose
	// 4 6 1 5 2 0 7 3
}

// Any solution folds to its class's canonical representative, the
// smallest of its 8 images, which names the class: with its symmetry and
// the transform that maps the representative back to the solution.
func Example() {
	id := Identify(nqueens.MustNew(4, 6, 1, 5, 2, 0, 7, 3))
	fmt.Println(id.Canonical, id.Symmetry, id.Symmetry.Orbit(), id.Transform)
	// Output: 1 6 4 7 0 3 5 2 none 8 antitranspose
}
