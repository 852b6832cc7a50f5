// Package sample draws classes and solutions of n uniformly at random, by
// class number, from any Source that knows how many classes n has and
// reads a class by its number: the catalog (the command wires it), or the
// class search for small n (Search).
//
// The classes of n are numbered 1..C in lexicographic order of their
// canonical placements, as the catalog numbers them. The rule of a draw:
//
//   - a uniform class: K uniform in 1..C, and class K is the draw;
//   - a uniform solution: x uniform in 0..8C-1, K = x/8 + 1 and j = x mod 8;
//     if j is below the orbit of class K (its number of distinct images),
//     the draw is image j of class K, its images in lexicographic order
//     (canonical.Orbit, the canonical placement first); otherwise x is
//     rejected and drawn again with the same generator.
//
// Every solution of n is image j of exactly one class K with j below K's
// orbit, so each try gives every solution with probability 1/(8C), and
// the accepted tries are uniform over the solutions. A try is accepted
// with probability Total/(8C): 0.96 for n = 8, above 0.99 from n = 12 (a
// quarter for n = 4, whose one class has 2 images), so a draw reads about
// one class, whatever the size of n.
//
// Draws are reproducible: they use only the generator's own output
// (rand.Rand.Uint64, through Uint64N), never rand.Rand's IntN or Perm,
// whose algorithms Go does not promise to keep, so a seed gives the same
// draws with every Go release, on every machine, and from every Source of
// the same classes.
package sample

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
)

// Source gives the classes of one n by number.
type Source interface {
	// Count returns the number of classes, C: they are numbered 1..C.
	Count() int64
	// Class returns class k, 1 <= k <= C, with its number and symmetry.
	// Draw asks for classes in ascending order of number within each
	// round of its draws (see Draw), each number once, from one goroutine,
	// so a source that reads faster in order can use it.
	Class(ctx context.Context, k int64) (nqueens.Layout, error)
}

// Of says what a draw is of.
type Of uint8

const (
	// Classes draws each class of n with the same probability.
	Classes Of = iota + 1
	// Solutions draws each solution of n with the same probability.
	Solutions
)

// String returns "classes" or "solutions".
func (o Of) String() string {
	switch o {
	case Classes:
		return "classes"
	case Solutions:
		return "solutions"
	}
	return fmt.Sprintf("Of(%d)", uint8(o))
}

// errEmpty is matched by the error of a draw from a source of no class:
// n = 2 or 3, which have no solution.
var errEmpty = errors.New("no class to draw from")

// reader is a Source that reads the classes of a round at once, which
// Draw uses when a source has it: a source may read them in parallel, or
// in one pass.
type reader interface {
	Source
	// ClassesAt returns the classes numbered ks, which are ascending and
	// distinct, in that order.
	ClassesAt(ctx context.Context, ks []int64) ([]nqueens.Layout, error)
}

// Draw returns one draw of what from src for each generator of rngs, in
// the order of rngs: draw i is made with rngs[i] alone, so it depends
// neither on the other draws nor on how many there are. It reads the
// classes in rounds: a round draws a number for every draw not yet
// accepted and reads those classes in ascending order, each once (through
// ClassesAt if src is a Reader); a solution draw that is rejected (see the
// package comment) goes on to the next round. It returns an error, and no
// draws, if src has no class (ErrEmpty), if src fails, or if a class read
// is not the class asked for or its symmetry does not match its images.
func Draw(ctx context.Context, src Source, what Of, rngs []*rand.Rand) ([]nqueens.Layout, error) {
	if what != Classes && what != Solutions {
		return nil, fmt.Errorf("sample: draw of %v", what)
	}
	c := src.Count()
	if c <= 0 {
		return nil, fmt.Errorf("sample: %w", errEmpty)
	}
	out := make([]nqueens.Layout, len(rngs))
	type try struct {
		i int   // the draw
		k int64 // the class
		j int   // the image, for a solution
	}
	tries := make([]try, len(rngs))
	for i := range tries {
		tries[i].i = i
	}
	var ks []int64
	for len(tries) > 0 {
		for t := range tries {
			if what == Classes {
				tries[t].k = int64(Uint64N(rngs[tries[t].i], uint64(c))) + 1
				continue
			}
			x := Uint64N(rngs[tries[t].i], 8*uint64(c))
			tries[t].k, tries[t].j = int64(x/8)+1, int(x%8)
		}
		slices.SortFunc(tries, func(a, b try) int { return cmp.Or(cmp.Compare(a.k, b.k), cmp.Compare(a.i, b.i)) })
		ks = ks[:0]
		for _, tr := range tries {
			if len(ks) == 0 || ks[len(ks)-1] != tr.k {
				ks = append(ks, tr.k)
			}
		}
		ls, err := read(ctx, src, ks)
		if err != nil {
			return nil, err
		}
		rejected := tries[:0]
		at := -1 // the index in ks and ls of the class of the try
		var images []nqueens.Placement
		for _, tr := range tries {
			if at < 0 || ks[at] != tr.k {
				at++
				images = nil
			}
			l := ls[at]
			if what == Classes {
				out[tr.i] = l
				continue
			}
			if tr.j >= l.Symmetry.Orbit() {
				rejected = append(rejected, tr)
				continue
			}
			if images == nil {
				images = canonical.Orbit(l.Placement)
				if len(images) != l.Symmetry.Orbit() {
					return nil, fmt.Errorf("sample: class %d of n=%d (%v) has %d images, its symmetry %s says %d", l.Class, l.N(), l.Placement, len(images), l.Symmetry, l.Symmetry.Orbit())
				}
			}
			out[tr.i] = nqueens.Layout{Class: l.Class, Placement: images[tr.j], Symmetry: l.Symmetry}
		}
		tries = rejected
	}
	return out, nil
}

// read returns the classes numbered ks (ascending, distinct) of src, each
// checked to be the class asked for.
func read(ctx context.Context, src Source, ks []int64) ([]nqueens.Layout, error) {
	var ls []nqueens.Layout
	if r, ok := src.(reader); ok {
		var err error
		if ls, err = r.ClassesAt(ctx, ks); err != nil {
			return nil, fmt.Errorf("sample: %w", err)
		}
		if len(ls) != len(ks) {
			return nil, fmt.Errorf("sample: %d classes asked for, %d read", len(ks), len(ls))
		}
	} else {
		ls = make([]nqueens.Layout, len(ks))
		for i, k := range ks {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			l, err := src.Class(ctx, k)
			if err != nil {
				return nil, fmt.Errorf("sample: %w", err)
			}
			ls[i] = l
		}
	}
	for i, k := range ks {
		if ls[i].Class != k {
			return nil, fmt.Errorf("sample: class %d read as class %d", k, ls[i].Class)
		}
	}
	return ls, nil
}

// Generator returns the generator of draw i of seed: PCG with seed and i
// as its two words. Seeded makes draw i with it, and so does every
// command that draws with a seed, so draw i of a seed is the same
// whatever the number of draws.
func Generator(seed, i uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, i)) }

// BatchSize is how many draws Seeded makes at a time: the classes of a
// batch are read in ascending order, and its state (about 100 bytes a
// draw) is all the memory the draws hold, however many there are.
const BatchSize = 1 << 16

// Seeded returns an iterator over count draws of what from src, draw i
// (from 0) made with Generator(seed, i): the same seed gives the same
// draws in the same order, and the first m draws of any count are the
// same. The draws are made by Draw in batches of BatchSize, so memory
// stays flat however large count is, and yielded in order; the first
// error is yielded and ends the iteration, as does breaking out of the
// loop. A cancelled ctx ends it with ctx's error. The iterator is
// single-use.
func Seeded(ctx context.Context, src Source, what Of, seed, count uint64) iter.Seq2[nqueens.Layout, error] {
	return func(yield func(nqueens.Layout, error) bool) {
		rngs := make([]*rand.Rand, min(count, BatchSize))
		for start := uint64(0); start < count; start += BatchSize {
			size := min(BatchSize, count-start)
			for i := range size {
				rngs[i] = Generator(seed, start+i)
			}
			ls, err := Draw(ctx, src, what, rngs[:size])
			if err != nil {
				yield(nqueens.Layout{}, err)
				return
			}
			for _, l := range ls {
				if !yield(l, nil) {
					return
				}
			}
		}
	}
}

// Uint64N returns a uniform random number in [0, n), n > 0, from rng's
// Uint64 alone, by Lemire's multiply-and-reject method: the one way this
// module derives a bounded number from a generator, so that a seed gives
// the same numbers with every Go release.
func Uint64N(rng *rand.Rand, n uint64) uint64 {
	hi, lo := bits.Mul64(rng.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(rng.Uint64(), n)
		}
	}
	return hi
}
