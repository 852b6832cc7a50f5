package count

import (
	"context"
	"errors"
	"math/bits"
	"runtime"
	"sync"

	"github.com/nqueens/nqueens/internal/parallel"
	"github.com/nqueens/nqueens/internal/phrase"
)

// Engine searches constellations: CPU, this package's search on the
// cores of the machine, or another device's search (count/gpu) that
// gives the same numbers.
type Engine interface {
	// Search calls found(i, s) once for each constellation cs[i] it
	// searches to the end, s being cs[i].Solutions(): in any order, from
	// any goroutine, but one call at a time. A constellation cut short
	// is not reported. It returns ctx.Err() if ctx is cancelled before
	// every constellation is found, and an error saying what failed if
	// the device does.
	Search(ctx context.Context, cs []Constellation, found func(i int, solutions uint64)) error
	// Name names the engine: "cpu", "gpu".
	Name() string
	// Device says what the engine runs on: "16 goroutines on 16 cores",
	// "NVIDIA H100 80GB HBM3, 132 SMs, compute 9.0, CUDA driver 12.4".
	Device() string
}

// CPU is the Engine of this package's search on Workers goroutines (all
// cores when less than 1).
type CPU struct{ Workers int }

// Search searches cs on c.Workers goroutines, as Engine describes.
func (c CPU) Search(ctx context.Context, cs []Constellation, found func(i int, solutions uint64)) error {
	var mu sync.Mutex
	return parallel.Each(ctx, len(cs), c.Workers, func(i int, stop *parallel.Stop) {
		s := cs[i].solutions(stop)
		if stop.Stopped() {
			return // cut short, or possibly so
		}
		mu.Lock()
		found(i, s)
		mu.Unlock()
	})
}

// Name returns "cpu".
func (CPU) Name() string { return "cpu" }

// Keeper keeps the work of a count that may stop, so that the same count
// run again resumes from it; count/resume's Keeper keeps it in a state
// file.
type Keeper interface {
	// Resume is called by Search (or SearchJoin), once, with the units it
	// is about to count, and returns the solutions of those counted
	// before, by index: added, not searched again. Its error ends the
	// search; it returns ctx.Err() if ctx is cancelled first.
	Resume(ctx context.Context, u Units) (known map[int]uint64, err error)
	// Keep is called by Search with the index and solutions of each
	// unit it searches, one call at a time, before Progress. A failure
	// to keep one is the Keeper's to report: the count goes on.
	Keep(i int, solutions uint64)
	// End is called once the count is over (Options.End), with nil if
	// its numbers are right, or the count's error: one matching
	// context.Canceled for a count stopped, a *nqueens.KnownError for
	// numbers that are not the published ones, one matching ErrOverflow.
	// It returns the error to report, which says what became of the work
	// kept.
	End(err error) error
}

// Device returns "W goroutines on C cores": the goroutines that search
// and how many of them run at once.
func (c CPU) Device() string {
	w := parallel.Workers(c.Workers)
	return phrase.Plural(w, "goroutine") + " on " + phrase.Plural(min(w, runtime.GOMAXPROCS(0)), "core")
}

// ErrOverflow is the error of a total that does not fit in 64 bits.
var ErrOverflow = errors.New("count: the number of solutions exceeds 2^64")

// sum adds up the solutions in the orbits of constellations, the total
// of a board or of a shard: each constellation's solutions times its
// orbit size, the one rule by which every engine's counts are folded.
// The zero sum is empty.
type sum struct {
	total    uint64
	overflow bool
}

// Add adds the solutions in the orbit of c, given those of c itself
// (c.Solutions()).
func (s *sum) Add(c Constellation, solutions uint64) {
	s.add(uint64(c.orbit), solutions)
}

// add adds solutions times orbit.
func (s *sum) add(orbit, solutions uint64) {
	hi, t := bits.Mul64(solutions, orbit)
	var carry uint64
	s.total, carry = bits.Add64(s.total, t, 0)
	s.overflow = s.overflow || hi != 0 || carry != 0
}

// Total returns the sum, or an error if it does not fit in 64 bits (n =
// 31 and 32 would not).
func (s sum) Total() (uint64, error) {
	if s.overflow {
		return 0, ErrOverflow
	}
	return s.total, nil
}

// Search returns the number of solutions in the orbits of cs, searched by
// o.Engine (CPU on o.Workers goroutines if nil), calling o's hooks as they
// describe; the constellations o.Keeper knows are added, not searched, and
// each one searched is handed to it. It returns ctx.Err() with a partial
// total if ctx is cancelled first, the engine's or o.Keeper's error if it
// fails, and ErrOverflow if the total does not fit in 64 bits. A caller
// with a Keeper ends it (Options.End). With an engine other than CPU, the
// cores count the board's symmetric solutions meanwhile, for TallyTotal,
// if cs are all of the board's constellations.
func (o Options) Search(ctx context.Context, cs []Constellation) (uint64, error) {
	return o.run(ctx, ConstellationUnits(cs), func(todo []int, found func(j int, solutions uint64)) error {
		sub := make([]Constellation, len(todo))
		for j, i := range todo {
			sub[j] = cs[i]
		}
		e := o.Engine
		if e == nil {
			e = CPU{Workers: o.Workers}
		}
		if _, cpu := e.(CPU); !cpu {
			// The cores are free while another device searches: they
			// count the symmetric solutions for TallyTotal meanwhile.
			searchBeside(ctx, cs, o.Workers)
		}
		return e.Search(ctx, sub, found)
	})
}

// run is the loop of Search and SearchJoin over the units u: it adds the
// solutions of those o.Keeper knows, calls o.Start with their number and
// that of all the units, and has search count the others, todo, calling
// found with the index in todo of each unit counted and its solutions,
// one call at a time; found adds them, hands them to o.Keeper and calls
// o.Progress. It returns the total, partial with search's error if it
// fails.
func (o Options) run(ctx context.Context, u Units, search func(todo []int, found func(j int, solutions uint64)) error) (uint64, error) {
	var known map[int]uint64
	if o.Keeper != nil {
		var err error
		if known, err = o.Keeper.Resume(ctx, u); err != nil {
			return 0, err
		}
	}
	var sum sum
	todo := make([]int, 0, u.Len())
	for i := range u.Len() {
		if s, ok := known[i]; ok {
			sum.add(u.Orbit(i), s)
		} else {
			todo = append(todo, i)
		}
	}
	if o.Start != nil {
		o.Start(u.Len()-len(todo), u.Len())
	}
	err := search(todo, func(j int, s uint64) {
		sum.add(u.Orbit(todo[j]), s)
		if o.Keeper != nil {
			o.Keeper.Keep(todo[j], s)
		}
		if o.Progress != nil {
			o.Progress()
		}
	})
	if err != nil {
		return sum.total, err
	}
	return sum.Total()
}
