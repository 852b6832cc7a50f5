package progress_test

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nqueens/nqueens/progress"
)

// syncBuffer is a bytes.Buffer safe for the meter's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// lineWriter hands each line written to a channel.
type lineWriter chan string

func (w lineWriter) Write(p []byte) (int, error) {
	w <- string(p)
	return len(p), nil
}

// TestLinesWritesOneLinePerTick drives the meter's ticks by hand and waits
// for each line: each tick writes exactly one line with the count at that
// moment, and no tick is taken after Done.
func TestLinesWritesOneLinePerTick(t *testing.T) {
	out := make(lineWriter)
	tick := make(chan time.Time)
	m := progress.NewLines(out, "build n=16", 1000, 10000, "work units", 0, tick)
	re := regexp.MustCompile(`^build n=16: ([0-9,]+)/10,000 work units \((\d+)%\), [0-9,]+/s, ([0-9.]+ (µs|ms|s)|under 1 µs) elapsed, (about [0-9.,]+ [a-z]+( [0-9]+ [a-z]+)? left|under 0.1 s left|time left unknown)\n$`)
	for i := range 3 {
		m.Add(500)
		tick <- time.Now()
		l := <-out
		got := re.FindStringSubmatch(l)
		if got == nil {
			t.Fatalf("line %q does not match %s", l, re)
		}
		if want := []string{"1,500", "2,000", "2,500"}[i]; got[1] != want {
			t.Errorf("line %d counts %s, want %s", i, got[1], want)
		}
		if strings.Contains(l, "\x1b") {
			t.Errorf("a plain line holds terminal escapes: %q", l)
		}
	}
	m.Done()
	select {
	case tick <- time.Now():
		t.Errorf("the meter took a tick after Done")
	default:
	}
}

// TestLeft checks the time left a meter shows: the estimate's at the
// start, the rate's at the end, between them in proportion, and the
// rate's alone without an estimate.
func TestLeft(t *testing.T) {
	const s = time.Second
	for _, tc := range []struct {
		elapsed            time.Duration
		start, done, total int64
		estimate, want     time.Duration
		known              bool
	}{
		{0, 0, 0, 100, 0, 0, false},
		{10 * s, 0, 0, 100, 0, 0, false},
		{10 * s, 0, 50, 100, 0, 10 * s, true},
		{0, 0, 0, 100, 540 * s, 540 * s, true},
		{60 * s, 0, 0, 100, 540 * s, 480 * s, true},
		// A quarter done in 60 s: the rate says 180 s, the estimate 480 s.
		{60 * s, 0, 25, 100, 540 * s, (480*3 + 180) / 4 * s, true},
		{600 * s, 0, 0, 100, 540 * s, 0, true},
		// Resumed at half: the estimate of the half left is 270 s.
		{0, 50, 50, 100, 540 * s, 270 * s, true},
		{99 * s, 0, 99, 100, 540 * s, 5400 * time.Millisecond, true}, // 441 s by the estimate, 1 s by the rate
		{5 * s, 0, 100, 100, 540 * s, 0, true},
	} {
		got, known := progress.Left(tc.elapsed, tc.start, tc.done, tc.total, tc.estimate)
		if known != tc.known || (known && (got-tc.want).Abs() > time.Millisecond) {
			t.Errorf("Left(%v, %d, %d, %d, %v) = %v, %v; want %v, %v", tc.elapsed, tc.start, tc.done, tc.total, tc.estimate, got, known, tc.want, tc.known)
		}
	}
}

func TestNewChoosesTheMeter(t *testing.T) {
	var buf bytes.Buffer
	m := progress.New(&buf, "x", 0, 10, "units", 0)
	if _, ok := m.(*progress.Lines); !ok {
		t.Errorf("output not a terminal: want plain lines, got %T", m)
	}
	m.Done()
	if m := progress.New(&buf, "x", 0, 0, "units", 0); m != progress.Nop {
		t.Errorf("nothing to do: want no progress, got %T", m)
	}
}

func ExampleNewLines() {
	tick := make(chan time.Time)
	m := progress.NewLines(&syncBuffer{}, "export n=12", 0, 1787, "layouts", 0, tick)
	for range 1787 {
		m.Add(1)
	}
	tick <- time.Now() // a line: "export n=12: 1787/1787 layouts (100%), ..."
	m.Done()
	fmt.Println("done")
	// Output: done
}
