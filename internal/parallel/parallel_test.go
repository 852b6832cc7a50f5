package parallel_test

import (
	"context"
	"math"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/parallel"
)

func TestOrderedKeepsOrderAndStops(t *testing.T) {
	work := func(i int, _ *parallel.Stop) int { return i * i }
	var got []int
	for i, v := range parallel.Ordered(context.Background(), 1000, 4, work) {
		if v != i*i {
			t.Fatalf("index %d got %d", i, v)
		}
		got = append(got, i)
	}
	if len(got) != 1000 || !slices.IsSorted(got) {
		t.Fatalf("got %d results, sorted=%v", len(got), slices.IsSorted(got))
	}
	// Breaking out stops the workers: at most a window of 2*workers calls
	// ran ahead of the results taken.
	const workers, taken = 4, 11
	var calls atomic.Int64
	counted := func(i int, stop *parallel.Stop) int {
		calls.Add(1)
		return work(i, stop)
	}
	for i := range parallel.Ordered(context.Background(), 1000, workers, counted) {
		if i == taken-1 {
			break
		}
	}
	after := calls.Load()
	if after > taken+2*workers {
		t.Errorf("break after %d results: %d calls of work, want at most %d", taken, after, taken+2*workers)
	}
	// Cancelling ctx after a result yields no further one.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	for range parallel.Ordered(ctx, 1000, 3, work) {
		n++
		if n == 7 {
			cancel()
		}
	}
	if n != 7 {
		t.Errorf("cancel after 7 results: %d results yielded", n)
	}
}

// TestOrderedRaisesStopOnBreak checks that breaking out of the loop raises
// the Stop of the calls still running, so that a long call ends early, and
// that the iterator returns only once those calls have returned. A call
// that sees no Stop gives up after a deadline, so that the test fails
// rather than hangs. Each call keeps what it saw apart.
func TestOrderedRaisesStopOnBreak(t *testing.T) {
	const giveUp = 10 * time.Second
	started := make(chan struct{})
	type seen struct{ ran, stopped, gaveUp, returned atomic.Bool }
	var calls [3]seen
	work := func(i int, stop *parallel.Stop) int {
		c := &calls[i]
		c.ran.Store(true)
		if i == 0 {
			return 0
		}
		if i == 1 {
			close(started)
		}
		deadline := time.Now().Add(giveUp)
		for !stop.Stopped() {
			if time.Now().After(deadline) {
				c.gaveUp.Store(true)
				break
			}
		}
		c.stopped.Store(stop.Stopped())
		c.returned.Store(true)
		return i
	}
	for range parallel.Ordered(context.Background(), 3, 2, work) {
		<-started
		break
	}
	for i := 1; i < len(calls); i++ {
		c := &calls[i]
		switch {
		case !c.ran.Load():
		case c.gaveUp.Load():
			t.Errorf("call %d saw no Stop within %v of the break", i, giveUp)
		case !c.returned.Load():
			t.Errorf("the iterator returned before call %d did", i)
		case !c.stopped.Load():
			t.Errorf("call %d returned without its Stop raised", i)
		}
	}
	if !calls[1].ran.Load() {
		t.Error("call 1 never ran")
	}
}

func TestEachCallsEveryIndexOnce(t *testing.T) {
	seen := make([]atomic.Int32, 1000)
	if err := parallel.Each(context.Background(), len(seen), 3, func(i int, _ *parallel.Stop) { seen[i].Add(1) }); err != nil {
		t.Fatal(err)
	}
	for i := range seen {
		if k := seen[i].Load(); k != 1 {
			t.Fatalf("index %d: %d calls", i, k)
		}
	}
	if err := parallel.Each(context.Background(), 0, 0, func(int, *parallel.Stop) { t.Error("a call for no index") }); err != nil {
		t.Fatal(err)
	}
}

// TestEachStopsOnCancel cancels ctx from the first call, which waits for
// its Stop: the Stop is raised, Each returns ctx.Err(), and the calls end
// long before the count, which would take hours.
func TestEachStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var calls atomic.Int64
	err := parallel.Each(ctx, math.MaxInt64, 2, func(_ int, stop *parallel.Stop) {
		if calls.Add(1) == 1 {
			cancel()
			for !stop.Stopped() {
			}
		}
	})
	if err != context.Canceled {
		t.Errorf("Each = %v, want context.Canceled", err)
	}
	if k := calls.Load(); k == math.MaxInt64 {
		t.Errorf("%d calls after the cancel", k)
	}
}

func TestWatch(t *testing.T) {
	if s, release := parallel.Watch(context.Background()); s != nil || s.Stopped() {
		t.Error("Watch(Background) gives a Stop that can be raised")
	} else {
		release()
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s, release := parallel.Watch(ctx)
	defer release()
	if !s.Stopped() {
		t.Error("Watch of a cancelled context: not raised at once")
	}
	ctx, cancel = context.WithCancel(context.Background())
	s, release = parallel.Watch(ctx)
	defer release()
	if s.Stopped() {
		t.Error("raised before the cancel")
	}
	cancel()
	for !s.Stopped() {
	}
	var zero parallel.Stop
	if zero.Stopped() {
		t.Error("the zero Stop is raised")
	}
}

func TestWorkers(t *testing.T) {
	if parallel.Workers(3) != 3 || parallel.Workers(0) < 1 || parallel.Workers(-1) < 1 {
		t.Errorf("Workers(3, 0, -1) = %d, %d, %d", parallel.Workers(3), parallel.Workers(0), parallel.Workers(-1))
	}
}
