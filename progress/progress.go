// Package progress reports how far a long job has got: a live bar (mpb)
// when the output is a terminal, a plain line every few seconds when it is
// not (a CI log, a file). Workers count steps with Add from any goroutine
// and never wait on the drawing.
package progress

import (
	"fmt"
	"io"
	"math"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/nqueens/nqueens/internal/phrase"
)

// A Meter counts the steps of one job done and shows them.
type Meter interface {
	// Add counts k more steps done. It is safe for concurrent use.
	Add(k int64)
	// Done ends the report. The meter cannot be used afterwards.
	Done()
}

// lineEvery is how often a plain progress line is written.
const lineEvery = 2 * time.Second

// New returns a meter on w for a job called label of total steps named
// unit ("work units", "layouts"), done of them done already: a bar if w is
// a terminal, else a line every LineEvery, and Nop if total is not
// positive. estimate, if not 0, is how long the whole job (total steps)
// was estimated to take: the time left the meter shows starts from it
// (see Left).
func New(w io.Writer, label string, done, total int64, unit string, estimate time.Duration) Meter {
	switch {
	case total <= 0:
		return Nop
	case IsTerminal(w):
		return newBar(w, label, done, total, estimate)
	}
	t := time.NewTicker(lineEvery)
	m := NewLines(w, label, done, total, unit, estimate, t.C)
	m.stopTicker = t.Stop
	return m
}

// Left returns how long a job of total steps has left, start of them done
// before this run and done of them now, after elapsed of this run, and
// false if that is unknown (no estimate, and no step done yet). Without
// an estimate it is the time the rate so far gives for the steps left.
// With one, of the whole job, it starts from the estimate's share of the
// steps left, less the time elapsed, and moves to the rate's figure as
// the steps are done, weighing the two by the share of this run's steps
// done: so the first figure a user reads is the estimate they were told,
// and the last is the measured rate's.
func Left(elapsed time.Duration, start, done, total int64, estimate time.Duration) (time.Duration, bool) {
	run := total - start
	if run <= 0 || done >= total {
		return 0, true
	}
	f := float64(done-start) / float64(run)
	var measured float64
	if f > 0 {
		measured = elapsed.Seconds() * (1 - f) / f
	}
	switch {
	case estimate <= 0 && f <= 0:
		return 0, false
	case estimate <= 0:
		return time.Duration(measured * float64(time.Second)), true
	}
	planned := max(estimate.Seconds()*float64(run)/float64(total)-elapsed.Seconds(), 0)
	return time.Duration(((1-f)*planned + f*measured) * float64(time.Second)), true
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// Nop is a meter that shows nothing.
var Nop Meter = nop{}

type nop struct{}

func (nop) Add(int64) {}
func (nop) Done()     {}

// bar draws an mpb bar with counts, rate and time left. Add only counts; a
// goroutine hands the counts to the bar ten times a second, so that
// workers adding one unit each never wait on the bar.
type bar struct {
	p       *mpb.Progress
	bar     *mpb.Bar
	pending atomic.Int64
	stop    chan struct{}
	wg      sync.WaitGroup
}

func newBar(w io.Writer, label string, done, total int64, estimate time.Duration) *bar {
	p := mpb.New(mpb.WithOutput(w), mpb.WithAutoRefresh(), mpb.WithWidth(40), mpb.WithRefreshRate(150*time.Millisecond))
	began := time.Now()
	left := decor.Any(func(st decor.Statistics) string {
		if st.Completed {
			return "done"
		}
		d, ok := Left(time.Since(began), done, st.Current, st.Total, estimate)
		if !ok {
			return "time left unknown"
		}
		return phrase.About(d.Seconds()) + " left"
	}, decor.WCSyncSpace)
	counters := decor.Any(func(st decor.Statistics) string {
		return phrase.Count(st.Current) + "/" + phrase.Count(st.Total)
	}, decor.WCSyncSpace)
	speed := decor.Any(func(st decor.Statistics) string {
		return " " + rate(st.Current-done, time.Since(began))
	}, decor.WCSyncSpace)
	b := p.AddBar(total,
		mpb.PrependDecorators(decor.Name(label+" ", decor.WCSyncSpaceR), counters),
		mpb.AppendDecorators(decor.Percentage(decor.WCSyncSpace), speed, left),
	)
	b.SetCurrent(done)
	m := &bar{p: p, bar: b, stop: make(chan struct{})}
	t := time.NewTicker(100 * time.Millisecond)
	m.wg.Go(func() {
		defer t.Stop()
		each(t.C, m.stop, m.flush)
	})
	return m
}

func (m *bar) Add(k int64) { m.pending.Add(k) }

// flush hands the counts added since the last flush to the bar.
func (m *bar) flush() {
	if k := m.pending.Swap(0); k != 0 {
		m.bar.IncrInt64(k)
	}
}

func (m *bar) Done() {
	close(m.stop)
	m.wg.Wait()
	m.flush()
	if !m.bar.Completed() {
		m.bar.Abort(false)
	}
	m.p.Wait()
}

// Lines is a meter that writes "label: done/total unit (p%), rate/s, T
// elapsed, about T left" on each tick, from its own goroutine, its
// numbers and times in the words of every message of nqueens (package
// phrase): "build n=16: 4,225/6,870 work units (61%), 2,108/s, 2.0 s
// elapsed, about 1.3 s left". done counts from the whole job, the steps
// done before this run included.
type Lines struct {
	w            io.Writer
	label, unit  string
	total, start int64
	estimate     time.Duration
	done         atomic.Int64
	began        time.Time
	stop         chan struct{}
	stopTicker   func()
	wg           sync.WaitGroup
}

// NewLines returns a meter that writes a line to w each time tick fires
// (New gives it a ticker of LineEvery), until Done; estimate is New's.
func NewLines(w io.Writer, label string, done, total int64, unit string, estimate time.Duration, tick <-chan time.Time) *Lines {
	m := &Lines{w: w, label: label, unit: unit, total: total, start: done, estimate: estimate, began: time.Now(), stop: make(chan struct{})}
	m.done.Store(done)
	m.wg.Go(func() { each(tick, m.stop, m.line) })
	return m
}

// Add counts k more steps done.
func (m *Lines) Add(k int64) { m.done.Add(k) }

// Done stops the lines; none is written after it returns.
func (m *Lines) Done() {
	close(m.stop)
	m.wg.Wait()
	if m.stopTicker != nil {
		m.stopTicker()
	}
}

// line writes the current state.
func (m *Lines) line() {
	done := m.done.Load()
	elapsed := time.Since(m.began)
	left := "time left unknown"
	if d, ok := Left(elapsed, m.start, done, m.total, m.estimate); ok {
		left = phrase.About(d.Seconds()) + " left"
	}
	fmt.Fprintf(m.w, "%s: %s/%s %s (%.0f%%), %s, %s elapsed, %s\n",
		m.label, phrase.Count(done), phrase.Count(m.total), m.unit, 100*float64(done)/float64(m.total),
		rate(done-m.start, elapsed), phrase.Duration(elapsed), left)
}

// rate returns the steps done a second, k of them in elapsed: "2,108/s".
func rate(k int64, elapsed time.Duration) string {
	if elapsed <= 0 {
		return "0/s"
	}
	return phrase.Count(int64(math.Round(float64(k)/elapsed.Seconds()))) + "/s"
}

// each calls f on every tick until stop is closed.
func each(tick <-chan time.Time, stop <-chan struct{}, f func()) {
	for {
		select {
		case <-stop:
			return
		case <-tick:
			f()
		}
	}
}
