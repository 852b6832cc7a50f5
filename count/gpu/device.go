//go:build linux && !nogpu

package gpu

import (
	"errors"
	"fmt"
	"runtime"

	"github.com/nqueens/nqueens/count/gpu/internal/cuda"
)

// Open finds the first GPU of the machine and returns its engine. The
// engine's driver calls run on an OS thread of their own, which holds the
// device's context; Open returns once the GPU is found, and the thread
// goes on to start the context and load the kernel (a few hundred
// milliseconds) while the caller makes its constellations: the first
// Search waits for it, and returns its error. Open returns an error
// matching ErrNoDevice if there is no driver library or no GPU, saying
// what it looked for, and one naming the driver call that failed
// otherwise. The caller calls Close.
func Open() (*Engine, error) {
	d := &device{calls: make(chan func())}
	found := make(chan error)
	go d.serve(found)
	if err := <-found; err != nil {
		if errors.Is(err, cuda.ErrNoDriver) {
			return nil, marked{err, ErrNoDevice}
		}
		return nil, fmt.Errorf("gpu: %w", err)
	}
	dev := fmt.Sprintf("%s, %d SMs, compute %s, CUDA driver %s", d.dv.Name, d.dv.SMs, d.dv.Capability, d.dv.Driver)
	// Chunks of about 4 items for each thread the device can hold (an
	// H100 270,336), at least 2^18: n = 20 in one launch, n = 22 in about
	// 24, each of 17 MB of items.
	return &Engine{name: "gpu", device: dev, b: d, chunkItems: max(1<<18, 4*d.dv.SMs*d.dv.ThreadsPerSM)}, nil
}

// device is the backend of a GPU: its calls run on serve's thread.
type device struct {
	calls chan func()
	dv    *cuda.Device
	err   error // why the device could not start, if it could not
	// started says that the context is current, and what start made
	// must be released.
	started bool
	k       *cuda.Kernel
	grid    uint32 // the blocks of a launch: as many as the device runs at once
	// The kernel's registers a thread and shared memory a block, as the
	// driver compiled it, and the blocks an SM runs at once.
	registers, shared, blocks int
	// copies is the stream of the reads and of the stop flag, beside the
	// launches; cons the constellations of the last load; stopFlag the
	// word the lanes look at.
	copies         cuda.Stream
	cons, stopFlag cuda.Buffer
	loaded         bool
	slots          [inFlight]slot
	running        map[*chunk]bool
}

// slot is what one launch in flight holds: its stream and buffers, and
// whether a chunk holds it.
type slot struct {
	stream                    cuda.Stream
	tasks, items, counts, ctl cuda.Buffer
	busy                      bool
}

// serve locks its goroutine to its thread, finds the device and says on
// found whether it could; then starts the context, loads the kernel and
// makes the streams, keeping the error if one fails, and runs the calls
// sent on d.calls until it is closed.
func (d *device) serve(found chan<- error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	dv, err := cuda.Open()
	if err != nil {
		found <- err
		return
	}
	d.dv = dv
	found <- nil
	d.err = d.start()
	for f := range d.calls {
		f()
	}
}

// start starts the device's context, loads the kernel, sizes the grid by
// the kernel's occupancy and makes the streams and the stop flag.
func (d *device) start() error {
	if err := d.dv.Start(); err != nil {
		return err
	}
	d.started = true
	k, err := d.dv.Load(ptx(), kernelName)
	if err != nil {
		return err
	}
	d.k = k
	blocks, err := k.Occupancy(blockThreads)
	if err != nil {
		return err
	}
	if blocks < 1 {
		return fmt.Errorf("the kernel fits no block of %d threads on a multiprocessor", blockThreads)
	}
	d.grid = uint32(blocks * d.dv.SMs)
	if d.registers, d.shared, err = k.Resources(); err != nil {
		return err
	}
	d.blocks = blocks
	if d.copies, err = d.dv.NewStream(); err != nil {
		return err
	}
	for i := range d.slots {
		if d.slots[i].stream, err = d.dv.NewStream(); err != nil {
			return err
		}
		if d.slots[i].ctl, err = d.dv.Alloc(4); err != nil {
			return err
		}
	}
	d.stopFlag, err = d.dv.Alloc(4)
	d.running = map[*chunk]bool{}
	return err
}

// do runs f on the device's thread and returns its error, or the error
// that kept the device from starting.
func (d *device) do(f func() error) error {
	done := make(chan error)
	d.calls <- func() {
		if d.err != nil {
			done <- d.err
			return
		}
		done <- f()
	}
	return <-done
}

func (d *device) load(cons []byte) error {
	return d.do(func() error {
		if d.loaded {
			d.dv.Free(d.cons)
			d.loaded = false
		}
		var err error
		if d.cons, err = d.dv.Alloc(len(cons)); err != nil {
			return err
		}
		d.loaded = true
		if err := d.dv.WriteOn(d.copies, d.cons, cons); err != nil {
			return err
		}
		if err := d.dv.WriteOn(d.copies, d.stopFlag, []byte{0, 0, 0, 0}); err != nil {
			return err
		}
		return d.dv.Sync(d.copies)
	})
}

// fit makes b hold at least size bytes, reallocating it if it is
// smaller.
func (d *device) fit(b *cuda.Buffer, size int) error {
	if b.Size() >= size {
		return nil
	}
	if b.Size() > 0 {
		if err := d.dv.Free(*b); err != nil {
			return err
		}
		*b = cuda.Buffer{}
	}
	var err error
	*b, err = d.dv.Alloc(size)
	return err
}

func (d *device) launch(c *chunk) error {
	return d.do(func() error {
		c.slot = -1
		for i := range d.slots {
			if !d.slots[i].busy {
				c.slot = i
				break
			}
		}
		if c.slot < 0 {
			return errors.New("launch: no free slot")
		}
		s := &d.slots[c.slot]
		tasks, err := encodeTasks(c.tasks)
		if err != nil {
			return err
		}
		items := encodeItems(c.items)
		for _, b := range []struct {
			buf  *cuda.Buffer
			size int
		}{{&s.tasks, len(tasks)}, {&s.items, len(items)}, {&s.counts, 8 * len(c.items)}} {
			if err := d.fit(b.buf, b.size); err != nil {
				return err
			}
		}
		for _, err := range []error{
			d.dv.WriteOn(s.stream, s.tasks, tasks),
			d.dv.WriteOn(s.stream, s.items, items),
			d.dv.FillOn(s.stream, s.counts, 0xffffffff, 2*len(c.items)), // notCounted
			d.dv.FillOn(s.stream, s.ctl, 0, 1),
		} {
			if err != nil {
				return err
			}
		}
		if err := d.k.Launch(s.stream, d.grid, blockThreads, d.cons, s.tasks, s.items, s.counts, uint32(len(c.tasks)), s.ctl, d.stopFlag); err != nil {
			return err
		}
		s.busy = true
		d.running[c] = true
		return nil
	})
}

func (d *device) ended(c *chunk) (bool, error) {
	var end bool
	err := d.do(func() error {
		var err error
		end, err = d.dv.Done(d.slots[c.slot].stream)
		return err
	})
	return end, err
}

func (d *device) read(c *chunk) error {
	return d.do(func() error {
		s := &d.slots[c.slot]
		end, err := d.dv.Done(s.stream)
		if err != nil {
			return err
		}
		out := make([]byte, 8*len(c.items))
		if err := d.dv.ReadOn(d.copies, out, s.counts); err != nil {
			return err
		}
		counts, err := decodeCounts(out, len(c.items))
		if err != nil {
			return err
		}
		copy(c.counts, counts)
		if end {
			s.busy = false
			delete(d.running, c)
		}
		return nil
	})
}

// stop raises the stop flag with a copy, which the copy engines make
// beside the running kernels (a memset could wait for multiprocessors the
// kernels hold).
func (d *device) stop() error {
	return d.do(func() error {
		if err := d.dv.WriteOn(d.copies, d.stopFlag, []byte{1, 0, 0, 0}); err != nil {
			return err
		}
		return d.dv.Sync(d.copies)
	})
}

// kernel says how the driver compiled the kernel of e's GPU: "40
// registers a thread, 31136 bytes of shared memory a block, 7 blocks an
// SM"; "" for the twin.
func (e *Engine) kernel() string {
	if d, ok := e.b.(*device); ok {
		return d.kernel()
	}
	return ""
}

// kernel says how the driver compiled the kernel (Engine.kernel).
func (d *device) kernel() string {
	var s string
	d.do(func() error {
		s = fmt.Sprintf("%d registers a thread, %d bytes of shared memory a block, %d blocks an SM", d.registers, d.shared, d.blocks)
		return nil
	})
	return s
}

// warps returns the warps of a launch, or 1 if the device did not start
// (Search then returns start's error).
func (d *device) warps() int {
	var k int
	d.do(func() error { k = int(d.grid) * blockThreads / 32; return nil })
	return max(k, 1)
}

// close stops what runs, waits for it and frees what the device holds,
// as much of it as start made.
func (d *device) close() error {
	done := make(chan error)
	d.calls <- func() {
		if !d.started {
			done <- nil
			return
		}
		var errs []error
		if d.stopFlag.Size() > 0 {
			errs = append(errs, d.dv.WriteOn(d.copies, d.stopFlag, []byte{1, 0, 0, 0}))
		}
		for i := range d.slots {
			s := &d.slots[i]
			if !s.stream.IsZero() {
				errs = append(errs, d.dv.Sync(s.stream), d.dv.FreeStream(s.stream))
			}
			for _, b := range []cuda.Buffer{s.tasks, s.items, s.counts, s.ctl} {
				if b.Size() > 0 {
					errs = append(errs, d.dv.Free(b))
				}
			}
		}
		if d.loaded {
			errs = append(errs, d.dv.Free(d.cons))
		}
		if d.stopFlag.Size() > 0 {
			errs = append(errs, d.dv.Free(d.stopFlag))
		}
		if !d.copies.IsZero() {
			errs = append(errs, d.dv.FreeStream(d.copies))
		}
		if d.k != nil {
			errs = append(errs, d.k.Unload())
		}
		errs = append(errs, d.dv.Close())
		done <- errors.Join(errs...)
	}
	err := <-done
	close(d.calls)
	return err
}
