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
	if r.Difficulty != partial.CountCompletions(r.Board).Nodes {
		t.Fatalf("n=%d: difficulty %d, want the nodes of the count", n, r.Difficulty)
	}
}

func TestPuzzleMinimal(t *testing.T) {
	for _, n := range []int{1, 4, 5, 6, 7, 8, 9, 10, 12, 14, 17, 20, 25, 32} {
		rng := rand.New(rand.NewPCG(uint64(n), 7))
		for range 5 {
			r, err := Puzzle(rng, n, Options{})
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
		r, err := Puzzle(rng, tc.n, Options{Givens: tc.givens})
		if err != nil {
			t.Fatalf("n=%d givens=%d: %v", tc.n, tc.givens, err)
		}
		checkPuzzle(t, tc.n, r, tc.givens)
	}
}

func TestPuzzleErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	// No board of 8 with one queen has a unique completion.
	if _, err := Puzzle(rng, 8, Options{Givens: 1}); !errors.Is(err, ErrGivens) {
		t.Errorf("n=8 with 1 given: %v, want ErrGivens", err)
	}
	for _, tc := range []struct {
		n    int
		opts Options
	}{{2, Options{}}, {3, Options{}}, {0, Options{}}, {33, Options{}}, {8, Options{Givens: 9}}, {8, Options{Givens: -1}}} {
		if _, err := Puzzle(rng, tc.n, tc.opts); err == nil {
			t.Errorf("n=%d %+v: no error", tc.n, tc.opts)
		}
	}
}

// TestPuzzlesDeterministic: the same seed gives the same puzzles with 1
// and 3 workers, from the sampler and from Random, and another seed others.
func TestPuzzlesDeterministic(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{8, 12, 18} {
		opts := Options{Sampler: SearchSampler(ctx, n, 1)}
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
		if n <= MaxSearchSampleN && a[0].Class == 0 {
			t.Fatalf("n=%d: sampled puzzle has no class", n)
		}
	}
}

// TestPuzzlesAcrossBatches makes puzzles past the first batch: puzzle i,
// made in a later batch, is the puzzle its own generator makes alone
// (first solution drawn from the sampler, then Puzzle), so batches change
// nothing of what a seed gives. A count above MaxCount is refused.
func TestPuzzlesAcrossBatches(t *testing.T) {
	ctx := context.Background()
	const n, seed = 6, 9
	opts := Options{Sampler: SearchSampler(ctx, n, 1)}
	count := batchSize + 3
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
	for _, i := range []int{0, batchSize - 1, batchSize, count - 1} {
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		first, err := opts.Sampler.At([]uint64{opts.Sampler.pick(rng)})
		if err != nil {
			t.Fatal(err)
		}
		o := opts
		o.Solution = first[0]
		want, err := Puzzle(rng, n, o)
		if err != nil || got[i] != want {
			t.Errorf("puzzle %d: %+v, made alone %+v (%v)", i, got[i], want, err)
		}
	}
	for _, err := range Puzzles(ctx, n, MaxCount+1, seed, opts, 1) {
		if !errors.Is(err, ErrTooMany) {
			t.Errorf("count MaxCount+1: %v, want ErrTooMany", err)
		}
	}
}

// TestSamplerAt: numbering every solution through At lists each solution
// of n exactly once, so a uniform number is a uniform solution.
func TestSamplerAt(t *testing.T) {
	for n := 1; n <= 10; n++ {
		s := SearchSampler(context.Background(), n, 0)
		if s == nil {
			if k, _ := nqueens.KnownCounts(n); k.Total != 0 {
				t.Fatalf("n=%d: no sampler", n)
			}
			continue
		}
		picks := make([]uint64, s.Total)
		for i := range picks {
			picks[i] = s.Total - 1 - uint64(i)
		}
		ls, err := s.At(picks)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[nqueens.Placement]bool{}
		for _, l := range ls {
			if seen[l.Placement] || l.Placement.Valid() != nil || l.Class < 1 {
				t.Fatalf("n=%d: %v repeated, invalid or without class", n, l)
			}
			seen[l.Placement] = true
			if canonical.SymmetryOf(l.Placement) != l.Symmetry {
				t.Fatalf("n=%d: %v has the wrong symmetry", n, l)
			}
		}
		if uint64(len(seen)) != s.Total {
			t.Fatalf("n=%d: %d solutions, want %d", n, len(seen), s.Total)
		}
	}
	s := SearchSampler(context.Background(), 6, 0)
	s.Total = 5
	if _, err := s.At([]uint64{0}); err == nil {
		t.Error("a list of 4 solutions with Total 5 gave no error")
	}
}

// TestSamplerUniform draws 92,000 solutions of 8 and checks that each of
// the 92 comes up about 1,000 times (chi-squared well below its 0.1%
// critical value, 135.8 for 91 degrees of freedom).
func TestSamplerUniform(t *testing.T) {
	s := SearchSampler(context.Background(), 8, 0)
	rng := rand.New(rand.NewPCG(5, 5))
	picks := make([]uint64, 92000)
	for i := range picks {
		picks[i] = s.pick(rng)
	}
	ls, err := s.At(picks)
	if err != nil {
		t.Fatal(err)
	}
	freq := map[nqueens.Placement]float64{}
	for _, l := range ls {
		freq[l.Placement]++
	}
	var chi float64
	for _, f := range freq {
		chi += (f - 1000) * (f - 1000) / 1000
	}
	if len(freq) != 92 || chi > 135.8 {
		t.Errorf("%d solutions drawn, chi-squared %.1f", len(freq), chi)
	}
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
	got := []uint64{uint64N(rng, 10), uint64N(rng, 1<<63+5), uint64(intN(rng, 7))}
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

func TestUint64NUniform(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var freq [7]int
	for range 70000 {
		freq[uint64N(rng, 7)]++
	}
	for v, f := range freq {
		if f < 9500 || f > 10500 {
			t.Errorf("%d drawn %d times of 70000, want about 10000", v, f)
		}
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
