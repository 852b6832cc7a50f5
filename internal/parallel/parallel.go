// Package parallel runs the searches of the module on several goroutines
// and is their one way to stop when a context is cancelled.
//
// A search learns that it must stop from a Stop: a flag that Watch raises
// once a context is cancelled, which the search polls with Stopped, one
// atomic load, wherever it can afford one (before each work unit, before
// each square of the top rows of a tree). Polling a flag instead of the
// context keeps the hot loops as fast as if they never looked.
//
// Each runs work items in no particular order, Ordered hands their results
// back in item order (which keeps parallel output deterministic), and both
// pass the items a Stop raised when the work must end.
package parallel

import (
	"context"
	"iter"
	"runtime"
	"sync"
	"sync/atomic"
)

// Stop is a flag that Watch raises once a context is cancelled, for a
// search to poll. The zero Stop is never raised, and so is a nil *Stop.
type Stop struct{ raised atomic.Bool }

// Watch returns a Stop that is raised once ctx is cancelled (at once if it
// is cancelled already) and a function that stops watching ctx, which the
// caller must call when the search is over. A ctx that can never be
// cancelled (context.Background) gives a nil Stop.
func Watch(ctx context.Context) (*Stop, func()) {
	if ctx.Done() == nil {
		return nil, func() {}
	}
	s := new(Stop)
	if ctx.Err() != nil {
		s.raised.Store(true)
		return s, func() {}
	}
	release := context.AfterFunc(ctx, func() { s.raised.Store(true) })
	return s, func() { release() }
}

// Stopped reports whether s is raised: the search must stop. It is one
// atomic load, inlined; a nil s is never raised.
func (s *Stop) Stopped() bool { return s != nil && s.raised.Load() }

// Workers returns the number of goroutines to use for a requested count:
// the request itself when positive, GOMAXPROCS otherwise.
func Workers(requested int) int {
	if requested > 0 {
		return requested
	}
	return runtime.GOMAXPROCS(0)
}

// Each calls work(i, stop) for every i in [0, count) on workers goroutines
// (all cores when workers < 1), in no particular order, and returns when
// all calls have returned. stop is raised once ctx is cancelled: from then
// on no new call starts, and work may poll stop to end early (a call cut
// short is the caller's to discard). Each returns ctx.Err(): nil unless
// ctx was cancelled.
func Each(ctx context.Context, count, workers int, work func(i int, stop *Stop)) error {
	stop, release := Watch(ctx)
	defer release()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(Workers(workers), max(count, 1)) {
		wg.Go(func() {
			for !stop.Stopped() {
				i := int(next.Add(1) - 1)
				if i >= count {
					return
				}
				work(i, stop)
			}
		})
	}
	wg.Wait()
	return ctx.Err()
}

// Ordered calls work(i, stop) for every i in [0, count) on workers
// goroutines (all cores when workers < 1) and yields each index with its
// result in increasing order of i, whatever order the calls finish in. At
// most 2*workers results are computed ahead of the one being yielded,
// which bounds memory. Breaking out of the loop or cancelling ctx stops
// the workers: stop is raised, no new call starts, and the iterator
// returns once the running calls have returned. No result is yielded once
// ctx is cancelled, so a loop that cancels ctx after result i sees no
// result after i. The iterator is single-use.
func Ordered[T any](ctx context.Context, count, workers int, work func(i int, stop *Stop) T) iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		if count <= 0 {
			return
		}
		w := min(Workers(workers), count)
		window := 2 * w
		ctx, cancel := context.WithCancel(ctx)
		stop, release := Watch(ctx)
		slots := make([]chan T, window)
		for i := range slots {
			slots[i] = make(chan T, 1)
		}
		// A worker takes a ticket before it claims an index, so the indexes
		// in flight are always the window after the last one yielded.
		tickets := make(chan struct{}, window)
		var next atomic.Int64
		var wg sync.WaitGroup
		for range w {
			wg.Go(func() {
				for {
					select {
					case tickets <- struct{}{}:
					case <-ctx.Done():
						return
					}
					i := int(next.Add(1) - 1)
					if i >= count || stop.Stopped() {
						<-tickets
						return
					}
					slots[i%window] <- work(i, stop)
				}
			})
		}
		defer func() {
			cancel()
			wg.Wait()
			release()
		}()
		for i := range count {
			var v T
			select {
			case v = <-slots[i%window]:
			case <-ctx.Done():
				return
			}
			<-tickets
			// The consumer's own check, exact where stop may lag a
			// moment behind the cancellation.
			if ctx.Err() != nil || !yield(i, v) {
				return
			}
		}
	}
}
