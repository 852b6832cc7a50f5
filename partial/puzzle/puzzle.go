// Package puzzle makes N-Queens puzzles: partial boards (package partial)
// with exactly one completion. Puzzle and Puzzles draw a solution, then
// remove its queens in random order as long as the board keeps exactly
// one completion; Minimal tells whether no given queen can be removed.
// The solutions are drawn uniformly by package sample from a source of
// the classes of n (the catalog's, or the class search's); Random finds a
// solution by a randomized search where there is no source. Every puzzle
// is checked by a second count that shares no code with the first.
package puzzle

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math/bits"
	"math/rand/v2"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/internal/parallel"
	"github.com/nqueens/nqueens/partial"
	"github.com/nqueens/nqueens/sample"
)

// Result is a puzzle: a partial board with exactly one completion, that
// completion, and how hard it is.
type Result struct {
	// Board is the puzzle: the given queens.
	Board partial.Board
	// Solution is the board's one completion.
	Solution nqueens.Placement
	// Class is the number of the solution's class among the classes of n
	// (1-based, in lexicographic order of their canonical placements, as
	// the catalog numbers them), or 0 when the solution came from Random
	// and its number is not known.
	Class int64
	// Symmetry is the symmetry of the solution's class.
	Symmetry nqueens.Symmetry
	// Nodes is the number of nodes the search of partial.CountCompletions
	// visits on Board: the queens it places in the empty rows, top row
	// first and each row's columns left to right, to find the solution and
	// prove that there is no other. It counts dead ends, so it grows with
	// the guessing a solver without deduction needs; 0 would be a full
	// board, and a puzzle whose every empty row has one free square costs
	// one node a row.
	Nodes uint64
	// Level is the puzzle's difficulty, graded by Nodes (see Level).
	Level Level
}

// Options choose what Puzzle makes.
type Options struct {
	// Givens is the number of given queens the puzzle must have, 1..n; 0
	// asks for a minimal puzzle, one from which no given queen can be
	// removed without losing uniqueness (of any size).
	Givens int
	// Solution, unless its Placement is the zero Placement, is the first
	// solution the puzzle is made from (a solution of n with its Class and
	// Symmetry); Puzzles sets it from Source.
	Solution nqueens.Layout
	// Source gives the classes of n that solutions are drawn from,
	// uniformly (sample.Draw); nil draws them with Random.
	Source sample.Source
}

// errGivens is returned by Puzzle when it finds no puzzle with exactly
// Options.Givens queens: the minimal puzzles of the solutions it tried all
// have more.
var errGivens = errors.New("no puzzle with that few given queens found")

// orders and solutions bound the work of Puzzle for Options.Givens: it
// tries that many removal orders of each of that many solutions.
const (
	orders    = 20
	solutions = 10
)

// Puzzle returns a puzzle of n drawn with rng: a solution (Options.Solution,
// else one drawn from Options.Source, uniform, else by Random), from which it
// removes queens in an order drawn with rng, each only if the board keeps
// exactly one completion. With Options.Givens = 0 it goes through every
// queen, which leaves a minimal puzzle: a queen that could not be removed
// from a board cannot be removed from any board with fewer givens either.
// With Options.Givens = K it stops at K givens; when a removal order gets
// stuck above K it tries another (up to 20 orders a solution, then another
// solution, up to 10) and then returns an error wrapping ErrGivens. Before
// it returns a puzzle it checks its uniqueness by an independent count (a
// second search, on the transposed board). The same rng state gives the
// same puzzle on every machine. ctx stops the draws from Options.Source.
// It returns an error for n outside 1..32, n = 2 or 3 (no solution),
// Givens outside 0..n, or a draw that fails.
func Puzzle(ctx context.Context, rng *rand.Rand, n int, opts Options) (Result, error) {
	if err := nqueens.CheckN(n); err != nil {
		return Result{}, fmt.Errorf("puzzle: %w", err)
	}
	if opts.Givens < 0 || opts.Givens > n {
		return Result{}, fmt.Errorf("puzzle: givens must be between 1 and %d for n=%d (0 for a minimal puzzle), got %d", n, n, opts.Givens)
	}
	sol := opts.Solution
	fewest := n + 1
	for range solutions {
		if sol.Placement.N() == 0 {
			var err error
			if sol, err = draw(ctx, rng, n, opts.Source); err != nil {
				return Result{}, fmt.Errorf("puzzle: %w", err)
			}
		}
		if sol.Placement.N() != n || sol.Placement.Valid() != nil {
			return Result{}, fmt.Errorf("puzzle: %v is not a solution of n=%d", sol.Placement, n)
		}
		tries := 1
		if opts.Givens > 0 {
			tries = orders
		}
		for range tries {
			b := reduce(rng, partial.FromPlacement(sol.Placement, nil), opts.Givens)
			if opts.Givens > 0 && b.Givens() != opts.Givens {
				fewest = min(fewest, b.Givens())
				continue
			}
			if k := recount(b, 2); k != 1 || !b.Extends(sol.Placement) {
				return Result{}, fmt.Errorf("puzzle: a second count finds %d completions of %q, made to have 1 (a bug)", k, b)
			}
			nodes := partial.CountCompletions(b).Nodes
			return Result{
				Board:    b,
				Solution: sol.Placement,
				Class:    sol.Class,
				Symmetry: sol.Symmetry,
				Nodes:    nodes,
				Level:    levelOf(n, n-b.Givens(), nodes),
			}, nil
		}
		sol = nqueens.Layout{}
	}
	return Result{}, fmt.Errorf("puzzle: n=%d with %d given queen(s): %w after %d orders of each of %d solutions (the fewest reached was %d)", n, opts.Givens, errGivens, orders, solutions, fewest)
}

// reduce removes queens from b, whose one completion is a solution, in an
// order drawn with rng, keeping the board's completion unique, until it
// has target queens (0: until no queen can go).
func reduce(rng *rand.Rand, b partial.Board, target int) partial.Board {
	n := b.N()
	order := perm(rng, n)
	left := n
	for _, r := range order {
		if left == target {
			break
		}
		c := b.Without(r)
		if partial.CountUpTo(c, 2).Completions == 1 {
			b = c
			left--
		}
	}
	return b
}

// draw returns a solution of n: drawn uniformly from src if there is one,
// else from Random.
func draw(ctx context.Context, rng *rand.Rand, n int, src sample.Source) (nqueens.Layout, error) {
	if src != nil {
		ls, err := sample.Draw(ctx, src, sample.Solutions, []*rand.Rand{rng})
		if err != nil {
			return nqueens.Layout{}, err
		}
		return ls[0], nil
	}
	p, err := Random(rng, n)
	if err != nil {
		return nqueens.Layout{}, err
	}
	return nqueens.Layout{Placement: p, Symmetry: canonical.SymmetryOf(p)}, nil
}

// Puzzles returns an iterator over count puzzles of n made as Puzzle makes
// them, puzzle i with its own generator, sample.Generator(seed, i), so
// that the same seed gives the same puzzles in the same order whatever the
// number of workers. The puzzles are made in batches of
// sample.BatchSize, so that memory stays flat however large count is;
// with opts.Source, each batch first draws its puzzles' first solutions
// together (sample.Draw), so puzzle i starts from draw i of
// sample.Seeded(ctx, opts.Source, sample.Solutions, seed, count). The puzzles are made on workers goroutines (all cores when
// workers < 1) and yielded in order; the first error is yielded and ends
// the iteration, as do breaking out of the loop and cancelling ctx (which
// yields ctx's error). A count above MaxCount yields ErrTooMany and
// nothing else. The iterator is single-use.
func Puzzles(ctx context.Context, n, count int, seed uint64, opts Options, workers int) iter.Seq2[Result, error] {
	return func(yield func(Result, error) bool) {
		if count <= 0 {
			return
		}
		if int64(count) > MaxCount {
			yield(Result{}, fmt.Errorf("puzzle: %w: %d puzzles asked for, at most %d", errTooMany, count, MaxCount))
			return
		}
		rngs := make([]*rand.Rand, min(count, sample.BatchSize))
		type made struct {
			r   Result
			err error
		}
		for start := 0; start < count; start += sample.BatchSize {
			size := min(sample.BatchSize, count-start)
			for i := range size {
				rngs[i] = sample.Generator(seed, uint64(start+i))
			}
			var first []nqueens.Layout
			if opts.Source != nil {
				var err error
				if first, err = sample.Draw(ctx, opts.Source, sample.Solutions, rngs[:size]); err != nil {
					yield(Result{}, fmt.Errorf("puzzle: %w", err))
					return
				}
			}
			work := func(i int, _ *parallel.Stop) made {
				o := opts
				if first != nil {
					o.Solution = first[i]
				}
				r, err := Puzzle(ctx, rngs[i], n, o)
				rngs[i] = nil
				return made{r, err}
			}
			for _, m := range parallel.Ordered(ctx, size, workers, work) {
				if !yield(m.r, m.err) || m.err != nil {
					return
				}
			}
			if err := ctx.Err(); err != nil {
				yield(Result{}, err)
				return
			}
		}
	}
}

// MaxCount is the most puzzles Puzzles makes in one run: about 10^12,
// which at a million puzzles a second would take twelve days.
const MaxCount = 1 << 40

// errTooMany is matched by the error of Puzzles for a count above
// MaxCount.
var errTooMany = errors.New("too many puzzles")

// Random returns a solution of n found by a randomized search: a
// backtracking search that tries the free columns of each row in an order
// drawn with rng, restarted with a new order and twice the budget when it
// has placed 64n queens without success. It is fast for every n up to 32
// (a few thousand nodes) but not uniform: a solution is found with a
// probability that depends on the shape of the search tree above it, and
// no practical correction is known for large n, where the solutions
// cannot be listed (uniform draws come from package sample). It returns an
// error wrapping nqueens.ErrNoSolution for n = 2 and 3, and one for n
// outside 1..32.
func Random(rng *rand.Rand, n int) (nqueens.Placement, error) {
	if err := nqueens.CheckN(n); err != nil {
		return nqueens.Placement{}, err
	}
	if n == 2 || n == 3 {
		return nqueens.Placement{}, fmt.Errorf("n=%d %w", n, nqueens.ErrNoSolution)
	}
	all := uint32(1)<<n - 1
	var p [nqueens.MaxN]uint8
	budget := 64 * n
	for {
		nodes := 0
		var place func(r int, cols, ld, rd uint32) bool
		place = func(r int, cols, ld, rd uint32) bool {
			if r == n {
				return true
			}
			avail := all &^ (cols | ld | rd)
			var cand [nqueens.MaxN]uint8
			k := 0
			for ; avail != 0; avail &= avail - 1 {
				cand[k] = uint8(bits.TrailingZeros32(avail))
				k++
			}
			for k > 0 {
				if nodes >= budget {
					return false
				}
				nodes++
				j := intN(rng, k)
				c := cand[j]
				k--
				cand[j] = cand[k]
				bit := uint32(1) << c
				p[r] = c
				if place(r+1, cols|bit, (ld|bit)<<1, (rd|bit)>>1) {
					return true
				}
			}
			return false
		}
		if place(0, 0, 0, 0) {
			return nqueens.FromBytes(p[:n]), nil
		}
		budget *= 2
	}
}

// Minimal reports whether b is a minimal puzzle: it has exactly one
// completion, and removing any one of its queens leaves more than one.
func Minimal(b partial.Board) bool {
	if partial.CountUpTo(b, 2).Completions != 1 {
		return false
	}
	for r := range b.N() {
		if _, ok := b.Col(r); ok && partial.CountUpTo(b.Without(r), 2).Completions == 1 {
			return false
		}
	}
	return true
}

// MaxDistinct is the most puzzles Distinct keeps apart: it remembers a
// 64-bit hash of each puzzle's givens, 8 bytes a puzzle plus the map's
// own, so its memory stays under about 40 MB.
const MaxDistinct = 1 << 20

// DistinctDraws returns how many puzzles Distinct may draw to find count
// distinct ones before it gives up: twenty times count, and at least a
// thousand, enough for every n whose puzzles are not nearly exhausted.
func DistinctDraws(count int) int {
	return int(min(int64(count)*20+1000, MaxCount))
}

// Distinct yields the puzzles of seq whose givens differ from those of
// every puzzle it yielded before, until it has yielded count of them or
// seq ends; an error of seq is yielded and ends the iteration. Two
// puzzles whose givens hash alike (64 bits) count as one, which costs at
// most a distinct puzzle skipped. count must be at most MaxDistinct. The
// iterator is single-use if seq is.
func Distinct(seq iter.Seq2[Result, error], count int) iter.Seq2[Result, error] {
	if count > MaxDistinct {
		panic(fmt.Sprintf("puzzle: Distinct of %d puzzles, above MaxDistinct", count))
	}
	return func(yield func(Result, error) bool) {
		seen := make(map[uint64]struct{}, min(count, 1<<16))
		for r, err := range seq {
			if err != nil {
				yield(r, err)
				return
			}
			h := givensHash(r.Board)
			if _, dup := seen[h]; dup {
				continue
			}
			seen[h] = struct{}{}
			if !yield(r, nil) || len(seen) == count {
				return
			}
		}
	}
}

// givensHash returns the 64-bit FNV-1a hash of b's size and the column of
// each row's given queen (0 for an empty row, 1 + the column otherwise).
func givensHash(b partial.Board) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	h = (h ^ uint64(b.N())) * prime
	for r := range b.N() {
		v := 0
		if c, ok := b.Col(r); ok {
			v = c + 1
		}
		h = (h ^ uint64(v)) * prime
	}
	return h
}
