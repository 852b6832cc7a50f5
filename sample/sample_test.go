package sample

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/enumerate"
)

// list is a Source of classes held in memory; it records the numbers it
// is asked for.
type list struct {
	classes []nqueens.Layout
	asked   []int64
}

func (l *list) Count() int64 { return int64(len(l.classes)) }

func (l *list) Class(_ context.Context, k int64) (nqueens.Layout, error) {
	l.asked = append(l.asked, k)
	return l.classes[k-1], nil
}

// classesOf returns the classes of n, from the class search.
func classesOf(n int) *list {
	return &list{classes: slices.Collect(canonical.Classes(context.Background(), n, 0))}
}

// draws returns count draws of what from src with seed.
func draws(t *testing.T, src Source, what Of, seed, count uint64) []nqueens.Layout {
	t.Helper()
	var out []nqueens.Layout
	for l, err := range Seeded(context.Background(), src, what, seed, count) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
	if uint64(len(out)) != count {
		t.Fatalf("%d draws, want %d", len(out), count)
	}
	return out
}

// chiSquare returns the p-value of the chi-square test of the counts
// against a uniform distribution over cells: the probability that
// uniform draws give a statistic at least as large.
func chiSquare(counts map[nqueens.Placement]int, cells int, draws int) float64 {
	want := float64(draws) / float64(cells)
	var chi float64
	for _, c := range counts {
		chi += (float64(c) - want) * (float64(c) - want) / want
	}
	chi += float64(cells-len(counts)) * want // cells never drawn
	return upperGamma(float64(cells-1)/2, chi/2)
}

// upperGamma returns the regularized upper incomplete gamma function
// Q(a, x), by its series below a+1 and its continued fraction above
// (Numerical Recipes, 6.2).
func upperGamma(a, x float64) float64 {
	lg, _ := math.Lgamma(a)
	front := math.Exp(-x + a*math.Log(x) - lg)
	if x < a+1 {
		sum, term := 1/a, 1/a
		for k := 1.0; k < 1000; k++ {
			term *= x / (a + k)
			sum += term
			if term < sum*1e-15 {
				break
			}
		}
		return 1 - sum*front
	}
	const tiny = 1e-300
	b := x + 1 - a
	c, d := 1/tiny, 1/b
	h := d
	for i := 1.0; i < 1000; i++ {
		an := -i * (i - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-15 {
			break
		}
	}
	return front * h
}

// TestUpperGamma checks the p-values against tables: the 0.1% critical
// values of the chi-square distribution for 11, 45 and 90 degrees of
// freedom, and the median for 2 (2 ln 2).
func TestUpperGamma(t *testing.T) {
	for _, tc := range []struct{ df, chi, p float64 }{{11, 31.264, 0.001}, {90, 137.208, 0.001}, {2, 2 * math.Ln2, 0.5}, {45, 80.077, 0.001}} {
		if p := upperGamma(tc.df/2, tc.chi/2); math.Abs(p-tc.p) > tc.p*0.01 {
			t.Errorf("df %v, chi-square %v: p %v, want %v", tc.df, tc.chi, p, tc.p)
		}
	}
}

// TestClassesUniform draws 1,000 times as many classes of n = 8, 9 and 10
// as there are, with fixed seeds, and passes the chi-square test of
// uniformity over the classes (p > 0.001).
func TestClassesUniform(t *testing.T) {
	for n := 8; n <= 10; n++ {
		src := classesOf(n)
		count := 1000 * len(src.classes)
		freq := map[nqueens.Placement]int{}
		for i, l := range draws(t, src, Classes, uint64(n), uint64(count)) {
			if c := src.classes[l.Class-1]; l != c {
				t.Fatalf("n=%d draw %d: %+v, class %d is %+v", n, i, l, l.Class, c)
			}
			freq[l.Placement]++
		}
		if p := chiSquare(freq, len(src.classes), count); p <= 0.001 {
			t.Errorf("n=%d: %d classes drawn of %d, chi-square p = %.2g", n, len(freq), len(src.classes), p)
		} else {
			t.Logf("n=%d classes: p = %.3f", n, p)
		}
	}
}

// TestSolutionsUniform draws 500 times as many solutions of n = 8, 9 and
// 10 as there are, with fixed seeds: every draw is a solution of its
// class, named with the class's number and symmetry, and the draws pass
// the chi-square test of uniformity over every solution of n (p > 0.001).
func TestSolutionsUniform(t *testing.T) {
	for n := 8; n <= 10; n++ {
		src := classesOf(n)
		all := slices.Collect(enumerate.Solutions(n))
		count := 500 * len(all)
		freq := map[nqueens.Placement]int{}
		for i, l := range draws(t, src, Solutions, uint64(n)+100, uint64(count)) {
			c := src.classes[l.Class-1]
			if l.Placement.Valid() != nil || canonical.Fold(l.Placement) != c.Placement || l.Symmetry != c.Symmetry {
				t.Fatalf("n=%d draw %d: %+v is no solution of class %+v", n, i, l, c)
			}
			freq[l.Placement]++
		}
		if p := chiSquare(freq, len(all), count); p <= 0.001 {
			t.Errorf("n=%d: %d solutions drawn of %d, chi-square p = %.2g", n, len(freq), len(all), p)
		} else {
			t.Logf("n=%d solutions: p = %.3f", n, p)
		}
	}
}

// TestChiSquareFails shows that the test can fail: draws of classes
// taken as draws of solutions (each class's canonical placement alone)
// fail it.
func TestChiSquareFails(t *testing.T) {
	src := classesOf(8)
	freq := map[nqueens.Placement]int{}
	for _, l := range draws(t, src, Classes, 1, 92*500) {
		freq[l.Placement]++
	}
	if p := chiSquare(freq, 92, 92*500); p > 0.001 {
		t.Errorf("classes as solutions pass: p = %v", p)
	}
}

// TestSeeded: the same seed gives the same draws, another seed others;
// draw i is Draw with Generator(seed, i) alone, in any batch, so the first
// m draws of any count are the same.
func TestSeeded(t *testing.T) {
	src := classesOf(8)
	for _, what := range []Of{Classes, Solutions} {
		count := uint64(BatchSize + 3)
		a, b := draws(t, src, what, 7, count), draws(t, src, what, 7, count)
		if !slices.Equal(a, b) {
			t.Fatalf("%v: seed 7 gives other draws the second time", what)
		}
		if c := draws(t, src, what, 8, 20); slices.Equal(a[:20], c) {
			t.Fatalf("%v: seeds 7 and 8 give the same draws", what)
		}
		if short := draws(t, src, what, 7, 5); !slices.Equal(a[:5], short) {
			t.Fatalf("%v: the first 5 of %d draws differ from 5 draws", what, count)
		}
		for _, i := range []uint64{0, BatchSize - 1, BatchSize, count - 1} {
			alone, err := Draw(context.Background(), src, what, []*rand.Rand{Generator(7, i)})
			if err != nil || alone[0] != a[i] {
				t.Errorf("%v draw %d: %+v, alone %+v (%v)", what, i, a[i], alone, err)
			}
		}
	}
}

// TestDrawsFixed pins the draws of one seed: a change to the rule, the
// generator or how draws use it, which would change every user's draws
// for a seed, fails here.
func TestDrawsFixed(t *testing.T) {
	src := classesOf(8)
	var got []int64
	for _, l := range draws(t, src, Classes, 1, 6) {
		got = append(got, l.Class)
	}
	if want := []int64{8, 12, 10, 7, 2, 7}; !slices.Equal(got, want) {
		t.Errorf("classes of n=8, seed 1: %v, want %v", got, want)
	}
	var cols []string
	for _, l := range draws(t, src, Solutions, 1, 3) {
		cols = append(cols, l.Placement.String())
	}
	if want := []string{"1 7 5 0 2 4 6 3", "5 2 6 3 0 7 1 4", "3 5 7 1 6 0 2 4"}; !slices.Equal(cols, want) {
		t.Errorf("solutions of n=8, seed 1: %q, want %q", cols, want)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	if got := []uint64{Uint64N(rng, 10), Uint64N(rng, 1<<63+5), Uint64N(rng, 7)}; !slices.Equal(got, []uint64{7, 7235071295427690567, 5}) {
		t.Errorf("Uint64N of PCG(1, 2): %v", got)
	}
}

// TestDrawReadsInOrder: a round reads its classes in ascending order,
// each once, and a solution draw reads another class only after a
// rejection.
func TestDrawReadsInOrder(t *testing.T) {
	src := classesOf(6) // one class, of 4 images: half the tries are rejected
	rngs := make([]*rand.Rand, 100)
	for i := range rngs {
		rngs[i] = Generator(3, uint64(i))
	}
	ls, err := Draw(context.Background(), src, Solutions, rngs)
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) != 100 || len(src.asked) < 2 || len(src.asked) > 20 {
		t.Fatalf("%d draws reading %d classes", len(ls), len(src.asked))
	}
	src = classesOf(10)
	if _, err := Draw(context.Background(), src, Classes, rngs); err != nil {
		t.Fatal(err)
	}
	if !slices.IsSorted(src.asked) || len(slices.Compact(slices.Clone(src.asked))) != len(src.asked) {
		t.Fatalf("classes read %v, want ascending, each once", src.asked)
	}
}

// batched is a Reader over a list; short drops the last class of a
// round.
type batched struct {
	*list
	rounds int
	short  bool
}

func (b *batched) ClassesAt(ctx context.Context, ks []int64) ([]nqueens.Layout, error) {
	b.rounds++
	if !slices.IsSorted(ks) || len(slices.Compact(slices.Clone(ks))) != len(ks) {
		return nil, errors.New("ks not ascending and distinct")
	}
	var out []nqueens.Layout
	for _, k := range ks {
		l, _ := b.list.Class(ctx, k)
		out = append(out, l)
	}
	if b.short {
		out = out[:len(out)-1]
	}
	return out, nil
}

// TestReader: a Reader reads each round at once, and draws the same as
// a source read class by class; a Reader that returns too few classes
// is an error.
func TestReader(t *testing.T) {
	for _, what := range []Of{Classes, Solutions} {
		b := &batched{list: classesOf(9)}
		if got, want := draws(t, b, what, 2, 500), draws(t, classesOf(9), what, 2, 500); !slices.Equal(got, want) {
			t.Errorf("%v: a Reader draws otherwise", what)
		}
		if b.rounds == 0 || (what == Classes && b.rounds != 1) {
			t.Errorf("%v: %d rounds read at once", what, b.rounds)
		}
	}
	b := &batched{list: classesOf(9), short: true}
	if _, err := Draw(context.Background(), b, Classes, []*rand.Rand{Generator(1, 0)}); err == nil {
		t.Error("a short read: no error")
	}
}

// TestSearcher: the class search gives the same draws as the classes
// listed, searching again when a round goes back; it has no source for n
// without solutions or above MaxSearchN.
func TestSearcher(t *testing.T) {
	for _, n := range []int{1, 4, 8, 11} {
		s := Search(n, 1)
		for _, what := range []Of{Classes, Solutions} {
			if a, b := draws(t, s, what, 5, 300), draws(t, classesOf(n), what, 5, 300); !slices.Equal(a, b) {
				t.Errorf("n=%d %v: the search draws other %v than the list", n, what, what)
			}
		}
		s.Close()
	}
	s := Search(8, 1)
	defer s.Close()
	for _, k := range []int64{5, 2, 12, 1} {
		if l, err := s.Class(context.Background(), k); err != nil || l.Class != k {
			t.Errorf("class %d: %+v %v", k, l, err)
		}
	}
	if _, err := s.Class(context.Background(), 13); err == nil {
		t.Error("class 13 of n=8: no error")
	}
	for _, n := range []int{2, 3, MaxSearchN + 1} {
		if Search(n, 1) != nil {
			t.Errorf("n=%d: a source", n)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Search(10, 1).Class(ctx, 50); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// broken is a Source whose classes are wrong in the way it is told.
type broken struct {
	list
	fault string
}

func (b *broken) Class(ctx context.Context, k int64) (nqueens.Layout, error) {
	l, _ := b.list.Class(ctx, k)
	switch b.fault {
	case "number":
		l.Class++
	case "symmetry":
		l.Symmetry = nqueens.SymFull
	case "read":
		return l, errors.New("disk on fire")
	}
	return l, nil
}

// TestDrawErrors: a source of no class, a class read under another
// number, a symmetry its images deny, a failed read and a cancelled
// context each end the draws with an error.
func TestDrawErrors(t *testing.T) {
	ctx := context.Background()
	rngs := []*rand.Rand{Generator(1, 0), Generator(1, 1)}
	if _, err := Draw(ctx, &list{}, Classes, rngs); !errors.Is(err, errEmpty) {
		t.Errorf("no class: %v", err)
	}
	for _, fault := range []string{"number", "symmetry", "read"} {
		src := &broken{list: *classesOf(8), fault: fault}
		if _, err := Draw(ctx, src, Solutions, rngs); err == nil {
			t.Errorf("%s: no error", fault)
		} else {
			t.Logf("%s: %v", fault, err)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for _, err := range Seeded(cancelled, classesOf(8), Classes, 1, 3) {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled: %v", err)
		}
	}
	if _, err := Draw(ctx, classesOf(8), 0, rngs); err == nil {
		t.Error("a draw of nothing: no error")
	}
}

func TestUint64NUniform(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var freq [7]int
	for range 70000 {
		freq[Uint64N(rng, 7)]++
	}
	for v, f := range freq {
		if f < 9500 || f > 10500 {
			t.Errorf("%d drawn %d times of 70000, want about 10000", v, f)
		}
	}
}
