package gpu

import (
	"sync"
	"sync/atomic"
)

// twinBackend is the backend of the kernel's twin: each launch counts its
// chunk's items on a goroutine of its own, one item at a time, in the
// order of its tasks, and leaves the rest once stopped.
type twinBackend struct {
	t       *twin
	stopped atomic.Bool
	runs    map[*chunk]*twinRun
}

// twinRun is a launch of the twin: its counts as it writes them, and
// whether it has ended.
type twinRun struct {
	counts []atomic.Uint64
	done   sync.WaitGroup
	ended  atomic.Bool
}

// newTwinEngine returns an Engine whose backend is the kernel's twin on
// the CPU, launching chunks of at least chunkItems items: the GPU
// engine's host side (plan, chunks, launches, folding, stopping) without
// a GPU, for tests and to check a GPU's counts.
func newTwinEngine(chunkItems int) *Engine {
	return &Engine{name: "gpu-twin", device: "the kernel's search in Go, a goroutine a launch",
		b: &twinBackend{runs: map[*chunk]*twinRun{}}, chunkItems: chunkItems}
}

func (w *twinBackend) load(cons []byte) error {
	w.t = newTwin(cons)
	w.stopped.Store(false)
	return nil
}

func (w *twinBackend) launch(c *chunk) error {
	r := &twinRun{counts: make([]atomic.Uint64, len(c.items))}
	for j := range r.counts {
		r.counts[j].Store(notCounted)
	}
	w.runs[c] = r
	r.done.Go(func() {
		defer r.ended.Store(true)
		for _, tk := range c.tasks {
			for j := tk.first; j < tk.end; j++ {
				if w.stopped.Load() {
					return
				}
				r.counts[j].Store(w.t.count(c.items[j]))
			}
		}
	})
	return nil
}

func (w *twinBackend) ended(c *chunk) (bool, error) { return w.runs[c].ended.Load(), nil }

func (w *twinBackend) read(c *chunk) error {
	r := w.runs[c]
	end := r.ended.Load()
	for j := range c.counts {
		c.counts[j] = r.counts[j].Load()
	}
	if end {
		delete(w.runs, c)
	}
	return nil
}

func (w *twinBackend) stop() error {
	w.stopped.Store(true)
	return nil
}

func (w *twinBackend) warps() int { return 1 }

func (w *twinBackend) close() error {
	w.stopped.Store(true)
	for _, r := range w.runs {
		r.done.Wait()
	}
	return nil
}
