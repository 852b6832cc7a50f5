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
	m := progress.NewLines(out, "build n=16", 100, 1000, "work units", tick)
	re := regexp.MustCompile(`^build n=16: (\d+)/1000 work units \((\d+)%\), \d+/s, \d+s elapsed, (about \S+ left|time left unknown)\n$`)
	for i := range 3 {
		m.Add(50)
		tick <- time.Now()
		l := <-out
		got := re.FindStringSubmatch(l)
		if got == nil {
			t.Fatalf("line %q does not match %s", l, re)
		}
		if want := fmt.Sprint(100 + 50*(i+1)); got[1] != want {
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

func TestNewChoosesTheMeter(t *testing.T) {
	var buf bytes.Buffer
	m := progress.New(&buf, "x", 0, 10, "units")
	if _, ok := m.(*progress.Lines); !ok {
		t.Errorf("output not a terminal: want plain lines, got %T", m)
	}
	m.Done()
	if m := progress.New(&buf, "x", 0, 0, "units"); m != progress.Nop {
		t.Errorf("nothing to do: want no progress, got %T", m)
	}
}

func ExampleNewLines() {
	tick := make(chan time.Time)
	m := progress.NewLines(&syncBuffer{}, "export n=12", 0, 1787, "layouts", tick)
	for range 1787 {
		m.Add(1)
	}
	tick <- time.Now() // a line: "export n=12: 1787/1787 layouts (100%), ..."
	m.Done()
	fmt.Println("done")
	// Output: done
}
