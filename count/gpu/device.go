//go:build linux && !nogpu

package gpu

import (
	"errors"
	"fmt"
	"runtime"

	"github.com/nqueens/nqueens/count/gpu/internal/cuda"
)

// Open opens the first GPU of the machine and loads the kernel: the
// engine's launches run on an OS thread of their own, which holds the
// device's context. It returns an error matching ErrNoDevice if there is
// no driver library or no GPU, saying what it looked for, and one naming
// the driver call that failed otherwise. The caller calls Close.
func Open() (*Engine, error) {
	d := &device{calls: make(chan func())}
	ready := make(chan error)
	go d.serve(ready)
	if err := <-ready; err != nil {
		if errors.Is(err, cuda.ErrNoDriver) {
			return nil, marked{err, ErrNoDevice}
		}
		return nil, fmt.Errorf("gpu: %w", err)
	}
	dev := fmt.Sprintf("%s, %d SMs, compute %s, CUDA driver %s", d.dv.Name, d.dv.SMs, d.dv.Capability, d.dv.Driver)
	return &Engine{name: "gpu", device: dev, b: d, batch: MinBatch}, nil
}

// device is the backend of a GPU: its calls run on serve's thread.
type device struct {
	calls chan func()
	dv    *cuda.Device
	k     *cuda.Kernel
	// The tables of the last load, the counts and the work counter.
	cons, index, ways, items, counts, next cuda.Buffer
	loaded                                 bool
	threads                                uint32 // the blocks of a launch
}

// serve locks its goroutine to its thread, opens the device and loads the
// kernel, says on ready whether it could, then runs the calls sent on
// d.calls until it is closed.
func (d *device) serve(ready chan<- error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	dv, err := cuda.Open()
	if err != nil {
		ready <- err
		return
	}
	k, err := dv.Load(PTX(), kernelName)
	if err != nil {
		dv.Close()
		ready <- err
		return
	}
	d.dv, d.k = dv, k
	// Persistent threads: as many blocks as the device runs at once.
	d.threads = uint32(max(1, dv.SMs*dv.ThreadsPerSM/blockThreads))
	if d.next, err = dv.Alloc(4); err != nil {
		k.Unload()
		dv.Close()
		ready <- err
		return
	}
	ready <- nil
	for f := range d.calls {
		f()
	}
}

// do runs f on the device's thread and returns its error.
func (d *device) do(f func() error) error {
	done := make(chan error)
	d.calls <- func() { done <- f() }
	return <-done
}

func (d *device) load(t Tables, items []byte) error {
	return d.do(func() error {
		d.freeTables()
		data := [...][]byte{t.Cons, t.Index, t.Ways, items}
		bufs := [...]*cuda.Buffer{&d.cons, &d.index, &d.ways, &d.items, &d.counts}
		for k, b := range bufs {
			size := 8 * (len(items) / (4 * itemWords)) // the counts
			if k < len(data) {
				size = len(data[k])
			}
			var err error
			if *b, err = d.dv.Alloc(size); err != nil {
				for _, a := range bufs[:k] {
					d.dv.Free(*a)
				}
				return err
			}
		}
		d.loaded = true
		for k, b := range bufs[:len(data)] {
			if err := d.dv.Write(*b, data[k]); err != nil {
				return err
			}
		}
		return nil
	})
}

// freeTables frees the tables of the last load, if any.
func (d *device) freeTables() {
	if d.loaded {
		for _, b := range []cuda.Buffer{d.cons, d.index, d.ways, d.items, d.counts} {
			d.dv.Free(b)
		}
		d.loaded = false
	}
}

func (d *device) run(first, end int, counts []uint64) error {
	return d.do(func() error {
		if err := d.dv.Write(d.next, make([]byte, 4)); err != nil {
			return err
		}
		if err := d.k.Launch(d.threads, blockThreads, d.cons, d.index, d.ways, d.items, d.counts, uint32(first), uint32(end), d.next); err != nil {
			return err
		}
		out := make([]byte, 8*(end-first))
		if err := d.dv.Read(out, d.counts.At(8*first)); err != nil {
			return err
		}
		got, err := DecodeCounts(out, end-first)
		copy(counts[first:end], got)
		return err
	})
}

func (d *device) close() error {
	err := d.do(func() error {
		d.freeTables()
		d.dv.Free(d.next)
		d.k.Unload()
		return d.dv.Close()
	})
	close(d.calls)
	return err
}
