package gpu

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/parallel"
)

// ErrNoDevice is matched by Open's error when this machine has no GPU the
// engine can use: no CUDA driver library, no device, or a build without
// the driver (the tag nogpu).
var ErrNoDevice = errors.New("no GPU")

// marked is an error that reads as err and matches kind too.
type marked struct{ err, kind error }

func (m marked) Error() string   { return m.err.Error() }
func (m marked) Unwrap() []error { return []error{m.err, m.kind} }

// chunk is a launch's work: the items of whole constellations, in the
// order they are counted, cut into tasks, and their counts as the backend
// last read them (notCounted for an item not counted yet).
type chunk struct {
	spans  []span // the chunk's constellations and their items
	items  []item
	tasks  []task
	counts []uint64
	slot   int // the backend's
}

// span is the items first to end-1 of a chunk, those of the
// constellation con, and whether it has been found.
type span struct {
	con        int32
	first, end int
	found      bool
}

// backend runs the kernel over chunks: on a GPU (Open) or on the CPU with
// the twin (newTwinEngine). It runs at most inFlight chunks at a time.
type backend interface {
	// load makes cons (encodeCons) the constellations of the next
	// launches, and lowers the stop flag.
	load(cons []byte) error
	// launch starts counting c's items; c.counts has one entry per item.
	launch(c *chunk) error
	// ended reports whether c's launch has ended.
	ended(c *chunk) (bool, error)
	// read copies the counts of c's items, those counted so far, into
	// c.counts, and when c's launch has ended, frees what it held.
	read(c *chunk) error
	// stop makes the running launches end soon, leaving items not
	// counted.
	stop() error
	// warps returns the warps of a launch.
	warps() int
	// close releases the backend.
	close() error
}

// inFlight is the most chunks launched at once: while one ends, the next
// fills the multiprocessors its last tasks leave.
const inFlight = 2

// pollEvery is the longest the engine waits between two looks at the
// running launches (and at the context), and readEvery how often it reads
// their counts to find the constellations already counted.
const (
	pollEvery = 50 * time.Millisecond
	readEvery = 250 * time.Millisecond
)

// Engine is a count.Engine that searches constellations by work items on
// a backend: a GPU, or the kernel's twin on the CPU. Its methods are safe
// for use by one goroutine at a time.
type Engine struct {
	name, device string
	b            backend
	// chunkItems is the fewest items of a chunk but the last.
	chunkItems int
	// launched, if not nil, is called after each launch (for tests).
	launched func(c *chunk)
}

// Name returns "gpu", or "gpu-twin" for the twin's engine.
func (e *Engine) Name() string { return e.name }

// Device names the GPU: "NVIDIA H100 80GB HBM3, 132 SMs, compute 9.0,
// CUDA driver 12.4"; or the CPU, for the twin.
func (e *Engine) Device() string { return e.device }

// String returns the name and the device: "gpu (NVIDIA H100 ...)".
func (e *Engine) String() string { return e.name + " (" + e.device + ")" }

// Close releases the device.
func (e *Engine) Close() error { return e.b.close() }

// plan is how a Search counts its constellations: their rows, and those
// the kernel searches (by index), largest items first.
type plan struct {
	split split
	rows  []count.Rows
	order []int32
	items int // of the constellations of order
}

// newPlan returns the plan of cs, calling found for each constellation
// the kernel does not search (direct, or with no item: no solution). It
// orders the others by the cost of an item, the constellation's cost
// (Constellation.Cost, the CPU's estimate of its search tree) over its
// number of items, largest first, so that the last tasks of the count are
// its smallest. The work runs on all cores.
func newPlan(ctx context.Context, cs []count.Constellation, found func(i int, solutions uint64)) (*plan, error) {
	p := &plan{split: splitFor(cs[0].N()), rows: make([]count.Rows, len(cs))}
	cost := make([]float64, len(cs))
	items := make([]int, len(cs))
	err := parallel.Each(ctx, len(cs), 0, func(i int, _ *parallel.Stop) {
		p.rows[i] = cs[i].Rows()
		if _, ok := p.split.direct(&p.rows[i]); ok {
			return
		}
		if items[i] = p.split.countItems(&p.rows[i]); items[i] > 0 {
			cost[i] = float64(cs[i].Cost()) / float64(items[i])
		}
	})
	if err != nil {
		return nil, err
	}
	for i := range cs {
		if s, ok := p.split.direct(&p.rows[i]); ok {
			found(i, s)
		} else if items[i] == 0 {
			found(i, 0)
		} else {
			p.order = append(p.order, int32(i))
			p.items += items[i]
		}
	}
	slices.SortStableFunc(p.order, func(a, b int32) int { return cmp.Compare(cost[b], cost[a]) })
	return p, nil
}

// chunks sends the chunks of p on the returned channel, each the items of
// whole constellations in p's order, at least min items but the last, in
// tasks of at most size items, made as the engine takes them (one ahead),
// until quit is closed.
func (p *plan) chunks(min, size int, quit <-chan struct{}) <-chan *chunk {
	out := make(chan *chunk)
	go func() {
		defer close(out)
		for k := 0; k < len(p.order); {
			c := new(chunk)
			for ; k < len(p.order) && len(c.items) < min; k++ {
				i := p.order[k]
				first := len(c.items)
				c.items = p.split.items(c.items, i, &p.rows[i])
				c.spans = append(c.spans, span{con: i, first: first, end: len(c.items)})
			}
			c.tasks = tasks(nil, c.items, size)
			c.counts = make([]uint64, len(c.items))
			for j := range c.counts {
				c.counts[j] = notCounted
			}
			select {
			case out <- c:
			case <-quit:
				return
			}
		}
	}()
	return out
}

// Search counts the solutions of cs as count.Engine describes. It cuts
// them into items, orders them largest first (newPlan) and streams them
// to the device in chunks of whole constellations, inFlight at a time;
// it calls found for each constellation once all its items are counted,
// which it checks every readEvery. If ctx is cancelled it stops the
// device, whose lanes leave their items within a fraction of a second,
// calls found for the constellations counted whole, and returns
// ctx.Err(); if the device fails, an error starting "gpu:". The
// constellations found before stay found.
func (e *Engine) Search(ctx context.Context, cs []count.Constellation, found func(i int, solutions uint64)) error {
	if len(cs) == 0 {
		return ctx.Err()
	}
	p, err := newPlan(ctx, cs, found)
	if err != nil || len(p.order) == 0 {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := e.b.load(encodeCons(p.rows)); err != nil {
		return fmt.Errorf("gpu: %w", err)
	}
	quit := make(chan struct{})
	defer close(quit)
	next := p.chunks(max(e.chunkItems, 1), taskSize(p.items, e.b.warps()), quit)
	var running []*chunk
	stopped := false
	// stop stops the device once, and returns the error to end with.
	stop := func(cause error) error {
		if !stopped {
			stopped = true
			if err := e.b.stop(); err != nil && cause == ctx.Err() {
				return fmt.Errorf("gpu: %w", err)
			}
		}
		return cause
	}
	var fail error
	lastRead := time.Now()
	wait := time.Millisecond
	for {
		for fail == nil && !stopped && ctx.Err() == nil && len(running) < inFlight {
			var c *chunk
			if len(running) == 0 {
				c = <-next
			} else {
				select {
				case c = <-next:
				default:
				}
			}
			if c == nil {
				break
			}
			if err := e.b.launch(c); err != nil {
				fail = stop(fmt.Errorf("gpu: %w", err))
				break
			}
			running = append(running, c)
			if e.launched != nil {
				e.launched(c)
			}
		}
		if len(running) == 0 {
			break
		}
		// Retire the launches that ended, in order; read the others'
		// counts now and then.
		reading := time.Since(lastRead) >= readEvery
		for k := 0; k < len(running); {
			c := running[k]
			end, err := e.b.ended(c)
			if err == nil && (end || reading) {
				err = e.b.read(c)
			}
			if err != nil {
				if fail == nil {
					fail = stop(fmt.Errorf("gpu: %w", err))
				}
				end = true
			}
			if end || reading {
				report(c, found)
			}
			if end {
				running = slices.Delete(running, k, k+1)
				wait = time.Millisecond
			} else {
				k++
			}
		}
		if reading {
			lastRead = time.Now()
		}
		if len(running) == 0 {
			continue
		}
		select {
		case <-ctx.Done():
			if fail == nil {
				fail = stop(ctx.Err())
			}
		case <-time.After(wait):
			wait = min(2*wait, pollEvery)
		}
	}
	if fail != nil {
		return fail
	}
	return ctx.Err()
}

// report calls found for each constellation of c whose items are all
// counted and that was not found yet.
func report(c *chunk, found func(i int, solutions uint64)) {
	for k := range c.spans {
		s := &c.spans[k]
		if s.found {
			continue
		}
		var sum uint64
		whole := true
		for _, n := range c.counts[s.first:s.end] {
			if n == notCounted {
				whole = false
				break
			}
			sum += n
		}
		if whole {
			s.found = true
			found(int(s.con), sum)
		}
	}
}
