package gpu

import (
	"context"
	"errors"
	"fmt"

	"github.com/nqueens/nqueens/count"
)

// ErrNoDevice is matched by Open's error when this machine has no GPU the
// engine can use: no CUDA driver library, no device, or a build without
// the driver (the tag nogpu).
var ErrNoDevice = errors.New("no GPU")

// marked is an error that reads as err and matches kind too.
type marked struct{ err, kind error }

func (m marked) Error() string   { return m.err.Error() }
func (m marked) Unwrap() []error { return []error{m.err, m.kind} }

// MinBatch is the fewest items of a launch: the engine launches the
// kernel on whole constellations of at least this many items at a time,
// and reports their solutions after each launch, so that a count that
// stops keeps the constellations of the launches that finished.
const MinBatch = 1 << 20

// backend runs the kernel over items: on a GPU (Open) or on the CPU with
// the twin (NewTwinEngine).
type backend interface {
	// load makes t and items (Split.Tables, EncodeItems) the tables of
	// the next runs, replacing those of the last load.
	load(t Tables, items []byte) error
	// run counts the items first..end-1 of the last load into
	// counts[first:end].
	run(first, end int, counts []uint64) error
	// close releases the backend.
	close() error
}

// Engine is a count.Engine that searches constellations by work items
// (Split) on a backend: a GPU, or the kernel's twin on the CPU. Its
// methods are safe for use by one goroutine at a time.
type Engine struct {
	name, device string
	b            backend
	batch        int
	// Launched, if not nil, is called after each launch with the number
	// of items it counted (for tests and progress).
	Launched func(items int)
	// Tails, if true, makes the kernel look the last four free rows of
	// each constellation up in tail tables (Split.Tables) rather than
	// search every free row (Split.PlainTables): the same counts. It is
	// off by default: a model of a warp's work (TestSIMT, docs/gpu.md)
	// puts the tail tables at 1.7 to 1.9 times the plain search's
	// instructions, as a warp runs a lookup at nearly every trip for the
	// lane that needs one. A GPU session measures both (BenchmarkGPU).
	Tails bool
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

// Search counts the solutions of cs as count.Engine describes: it cuts
// them into items (SplitFor the board of cs), counts those of whole
// constellations at least MinBatch at a time, and calls found for each
// constellation of a launch once it is counted, in order. A constellation
// with no item is found at once: Direct counts it, or it has no solution. It returns ctx.Err() if ctx is
// cancelled between launches, and the device's error, starting "gpu:", if
// a launch fails; the constellations found before stay found.
func (e *Engine) Search(ctx context.Context, cs []count.Constellation, found func(i int, solutions uint64)) error {
	if len(cs) == 0 {
		return ctx.Err()
	}
	split := SplitFor(cs[0].N())
	for i, c := range cs {
		if s, ok := split.Direct(c); ok {
			found(i, s)
		}
	}
	items := split.Items(nil, cs)
	has := make([]bool, len(cs))
	for _, it := range items {
		has[it.Con] = true
	}
	for i, c := range cs {
		if _, ok := split.Direct(c); !ok && !has[i] {
			found(i, 0)
		}
	}
	if len(items) == 0 {
		return ctx.Err()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	tables := split.PlainTables
	if e.Tails {
		tables = split.Tables
	}
	if err := e.b.load(tables(cs), EncodeItems(items)); err != nil {
		return fmt.Errorf("gpu: %w", err)
	}
	counts := make([]uint64, len(items))
	for _, b := range batches(items, e.batch) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := e.b.run(b[0], b[1], counts); err != nil {
			return fmt.Errorf("gpu: items %d to %d of %d: %w", b[0], b[1], len(items), err)
		}
		if e.Launched != nil {
			e.Launched(b[1] - b[0])
		}
		fold(items[b[0]:b[1]], counts[b[0]:b[1]], found)
	}
	return nil
}

// batches cuts items, in order of constellation, into runs [first, end)
// of whole constellations, each of at least min items but the last.
func batches(items []Item, min int) [][2]int {
	var out [][2]int
	first := 0
	for end := 1; end <= len(items); end++ {
		if end == len(items) || (end-first >= min && items[end].Con != items[end-1].Con) {
			out = append(out, [2]int{first, end})
			first = end
		}
	}
	return out
}

// fold adds the counts of items, whole constellations in order, into
// each constellation's solutions and calls found for each.
func fold(items []Item, counts []uint64, found func(i int, solutions uint64)) {
	for j := 0; j < len(items); {
		con, s := items[j].Con, uint64(0)
		for ; j < len(items) && items[j].Con == con; j++ {
			s += counts[j]
		}
		found(int(con), s)
	}
}

// twin is the backend of the kernel's twin.
type twin struct {
	t     *Twin
	items []Item
}

// NewTwinEngine returns an Engine whose backend is the kernel's twin on
// the CPU, one goroutine, launching at least batch items at a time: the
// GPU engine's host side (items, launches, folding) without a GPU, for
// tests and to check a GPU's counts.
func NewTwinEngine(batch int) *Engine {
	return &Engine{name: "gpu-twin", device: "the kernel's search in Go, one goroutine", b: new(twin), batch: batch}
}

func (w *twin) load(t Tables, items []byte) error {
	var err error
	w.t = NewTwin(t)
	w.items, err = DecodeItems(items)
	return err
}

func (w *twin) run(first, end int, counts []uint64) error {
	for i := first; i < end; i++ {
		counts[i] = w.t.Count(w.items[i])
	}
	return nil
}

func (w *twin) close() error { return nil }
