package puzzle

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/enumerate"
	"github.com/nqueens/nqueens/partial"
	"github.com/nqueens/nqueens/sample"
)

// checkPuzzle checks r by counts independent of the one that made it.
func checkPuzzle(t *testing.T, n int, r Result, givens int) {
	t.Helper()
	if err := r.Solution.Valid(); err != nil || r.Solution.N() != n {
		t.Fatalf("n=%d: solution %v: %v", n, r.Solution, err)
	}
	if !r.Board.Extends(r.Solution) {
		t.Fatalf("n=%d: %q does not extend to %v", n, r.Board, r.Solution)
	}
	if k := recount(r.Board, 3); k != 1 {
		t.Fatalf("n=%d: %q has %d completions", n, r.Board, k)
	}
	if givens == 0 && !Minimal(r.Board) {
		t.Fatalf("n=%d: %q is not minimal", n, r.Board)
	}
	if givens > 0 && r.Board.Givens() != givens {
		t.Fatalf("n=%d: %q has %d givens, want %d", n, r.Board, r.Board.Givens(), givens)
	}
	if r.Symmetry != canonical.SymmetryOf(r.Solution) {
		t.Fatalf("n=%d: symmetry %v, want %v", n, r.Symmetry, canonical.SymmetryOf(r.Solution))
	}
	if r.Nodes != partial.CountCompletions(r.Board).Nodes || r.Level != levelOf(n, n-r.Board.Givens(), r.Nodes) {
		t.Fatalf("n=%d: nodes %d (%v), want the nodes of the count and their level", n, r.Nodes, r.Level)
	}
}

func TestPuzzleMinimal(t *testing.T) {
	for _, n := range []int{1, 4, 5, 6, 7, 8, 9, 10, 12, 14, 17, 20, 25, 32} {
		rng := rand.New(rand.NewPCG(uint64(n), 7))
		for range 5 {
			r, err := Puzzle(context.Background(), rng, n, Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkPuzzle(t, n, r, 0)
			// Every minimal puzzle is checked by brute force where the
			// solutions can be listed.
			if n <= 10 {
				k := 0
				for p := range enumerate.Solutions(n) {
					if r.Board.Extends(p) {
						k++
					}
				}
				if k != 1 {
					t.Fatalf("n=%d: %q extends to %d solutions", n, r.Board, k)
				}
			}
		}
	}
}

func TestPuzzleGivens(t *testing.T) {
	for _, tc := range []struct{ n, givens int }{{4, 1}, {4, 4}, {6, 2}, {8, 3}, {8, 5}, {8, 8}, {12, 6}, {20, 12}} {
		rng := rand.New(rand.NewPCG(3, uint64(tc.n)))
		r, err := Puzzle(context.Background(), rng, tc.n, Options{Givens: tc.givens})
		if err != nil {
			t.Fatalf("n=%d givens=%d: %v", tc.n, tc.givens, err)
		}
		checkPuzzle(t, tc.n, r, tc.givens)
	}
}

func TestPuzzleErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	// No board of 8 with one queen has a unique completion.
	if _, err := Puzzle(context.Background(), rng, 8, Options{Givens: 1}); !errors.Is(err, errGivens) {
		t.Errorf("n=8 with 1 given: %v, want ErrGivens", err)
	}
	for _, tc := range []struct {
		n    int
		opts Options
	}{{2, Options{}}, {3, Options{}}, {0, Options{}}, {33, Options{}}, {8, Options{Givens: 9}}, {8, Options{Givens: -1}}} {
		if _, err := Puzzle(context.Background(), rng, tc.n, tc.opts); err == nil {
			t.Errorf("n=%d %+v: no error", tc.n, tc.opts)
		}
	}
}

// TestPuzzlesDeterministic: the same seed gives the same puzzles with 1
// and 3 workers, from the sampler and from Random, and another seed others.
func TestPuzzlesDeterministic(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{8, 12, 18} {
		opts := Options{Source: search(t, n, 1)}
		get := func(seed uint64, workers int) []Result {
			var out []Result
			for r, err := range Puzzles(ctx, n, 12, seed, opts, workers) {
				if err != nil {
					t.Fatal(err)
				}
				checkPuzzle(t, n, r, 0)
				out = append(out, r)
			}
			return out
		}
		a, b, c := get(42, 1), get(42, 3), get(43, 2)
		if len(a) != 12 || !slices.Equal(a, b) {
			t.Fatalf("n=%d: seed 42 gives other puzzles with 3 workers", n)
		}
		if slices.Equal(a, c) {
			t.Fatalf("n=%d: seeds 42 and 43 give the same puzzles", n)
		}
		if n <= sample.MaxSearchN && a[0].Class == 0 {
			t.Fatalf("n=%d: sampled puzzle has no class", n)
		}
	}
}

// TestPuzzlesAcrossBatches makes puzzles past the first batch: puzzle i,
// made in a later batch, is the puzzle its own generator makes alone
// (first solution drawn from the source, then Puzzle), so batches change
// nothing of what a seed gives. A count above MaxCount is refused.
func TestPuzzlesAcrossBatches(t *testing.T) {
	ctx := context.Background()
	const n, seed = 6, 9
	opts := Options{Source: search(t, n, 1)}
	count := sample.BatchSize + 3
	var got []Result
	for r, err := range Puzzles(ctx, n, count, seed, opts, 2) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	if len(got) != count {
		t.Fatalf("%d puzzles, want %d", len(got), count)
	}
	for _, i := range []int{0, sample.BatchSize - 1, sample.BatchSize, count - 1} {
		rng := sample.Generator(seed, uint64(i))
		first, err := sample.Draw(ctx, opts.Source, sample.Solutions, []*rand.Rand{rng})
		if err != nil {
			t.Fatal(err)
		}
		o := opts
		o.Solution = first[0]
		want, err := Puzzle(ctx, rng, n, o)
		if err != nil || got[i] != want {
			t.Errorf("puzzle %d: %+v, made alone %+v (%v)", i, got[i], want, err)
		}
	}
	for _, err := range Puzzles(ctx, n, MaxCount+1, seed, opts, 1) {
		if !errors.Is(err, errTooMany) {
			t.Errorf("count MaxCount+1: %v, want ErrTooMany", err)
		}
	}
}

// TestPuzzlesDrawUniform: the puzzles made from a source start from the
// uniform draws of package sample, draw i of the same seed for puzzle i,
// so they share its exact uniformity (tested there).
func TestPuzzlesDrawUniform(t *testing.T) {
	ctx := context.Background()
	const n, seed, count = 10, 3, 40
	src := search(t, n, 1)
	var draws []nqueens.Layout
	for l, err := range sample.Seeded(ctx, src, sample.Solutions, seed, count) {
		if err != nil {
			t.Fatal(err)
		}
		draws = append(draws, l)
	}
	i := 0
	for r, err := range Puzzles(ctx, n, count, seed, Options{Source: src}, 2) {
		if err != nil {
			t.Fatal(err)
		}
		if d := draws[i]; r.Solution != d.Placement || r.Class != d.Class || r.Symmetry != d.Symmetry {
			t.Fatalf("puzzle %d starts from %v (class %d), draw %d of seed %d is %v (class %d)", i, r.Solution, r.Class, i, seed, d.Placement, d.Class)
		}
		i++
	}
	if i != count {
		t.Fatalf("%d puzzles, want %d", i, count)
	}
}

// search returns the class search's source of n, closed when t ends, or
// nil (a nil Source) for an n it cannot search.
func search(t testing.TB, n, workers int) sample.Source {
	s := sample.Search(n, workers)
	if s == nil {
		return nil
	}
	t.Cleanup(s.Close)
	return s
}

func TestRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for n := 1; n <= 32; n++ {
		p, err := Random(rng, n)
		if n == 2 || n == 3 {
			if !errors.Is(err, nqueens.ErrNoSolution) {
				t.Errorf("n=%d: %v", n, err)
			}
			continue
		}
		if err != nil || p.Valid() != nil || p.N() != n {
			t.Fatalf("n=%d: %v %v", n, p, err)
		}
	}
}

// TestDrawsFixed pins the draws of one seed, so that a change to the
// generator or to how draws use it (which would change every user's
// puzzles for a seed) fails here.
func TestDrawsFixed(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	got := []uint64{sample.Uint64N(rng, 10), sample.Uint64N(rng, 1<<63+5), uint64(intN(rng, 7))}
	got = append(got, func() (out []uint64) {
		for _, v := range perm(rng, 6) {
			out = append(out, uint64(v))
		}
		return
	}()...)
	want := []uint64{7, 7235071295427690567, 5, 2, 4, 3, 5, 0, 1}
	if !slices.Equal(got, want) {
		t.Errorf("draws of PCG(1, 2): %v, want %v", got, want)
	}
}

// TestRecount checks the second search, which Puzzle checks its puzzles
// with, against every solution of n: for each solution and each set of
// its rows given (n <= 6: every set; n = 7, 8: the first k rows), the
// number of solutions the board extends to.
func TestRecount(t *testing.T) {
	for n := 1; n <= 8; n++ {
		all := slices.Collect(enumerate.Solutions(n))
		for _, p := range all {
			for mask := 0; mask < 1<<n; mask++ {
				if n > 6 && mask&(mask+1) != 0 { // not the first k rows
					continue
				}
				var rows []int
				for r := range n {
					if mask&(1<<r) != 0 {
						rows = append(rows, r)
					}
				}
				b := partial.FromPlacement(p, rows)
				var want uint64
				for _, q := range all {
					if b.Extends(q) {
						want++
					}
				}
				if got := recount(b, 1<<62); got != want {
					t.Fatalf("n=%d board %q: recount %d, want %d", n, b, got, want)
				}
				if got := recount(b, 2); got != min(want, 2) {
					t.Fatalf("n=%d board %q: recount up to 2 = %d, want %d", n, b, got, min(want, 2))
				}
			}
		}
	}
}

// TestDistinct checks that Distinct yields each puzzle once, in the order
// of the first draw of each, stops at count, and runs dry with the draws:
// the puzzles of 4 number 8.
func TestDistinct(t *testing.T) {
	ctx := context.Background()
	var all []Result
	for r, err := range Puzzles(ctx, 4, 200, 7, Options{}, 2) {
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, r)
	}
	var want []Result
	seen := map[partial.Board]bool{}
	for _, r := range all {
		if !seen[r.Board] {
			seen[r.Board] = true
			want = append(want, r)
		}
	}
	if len(want) != 8 {
		t.Fatalf("200 puzzles of n=4 hold %d distinct ones, want 8", len(want))
	}
	seq := func(yield func(Result, error) bool) {
		for _, r := range all {
			if !yield(r, nil) {
				return
			}
		}
	}
	for _, count := range []int{1, 5, 8, 10} {
		var got []Result
		for r, err := range Distinct(seq, count) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, r)
		}
		if w := want[:min(count, len(want))]; !slices.EqualFunc(got, w, func(a, b Result) bool { return a.Board == b.Board }) {
			t.Errorf("Distinct(count %d) gave %d puzzles, want the first %d distinct ones", count, len(got), len(w))
		}
	}
	boom := errors.New("boom")
	for _, err := range Distinct(func(yield func(Result, error) bool) { yield(Result{}, boom) }, 3) {
		if !errors.Is(err, boom) {
			t.Errorf("Distinct passed on %v, want the source's error", err)
		}
	}
}
