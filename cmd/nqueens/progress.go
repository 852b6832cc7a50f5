package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
)

// meter reports the progress of one long job on stderr: a live bar when
// stderr is a terminal, a plain line every few seconds when it is not (a CI
// log, a file), nothing with --quiet. Results go to stdout either way.
type meter interface {
	// Add counts k more done. It is safe for concurrent use.
	Add(k int64)
	// Done ends the report. The meter cannot be used afterwards.
	Done()
}

// lineEvery is how often a plain progress line is written.
var lineEvery = 2 * time.Second

// progress returns a meter for a job called label of total steps named
// unit ("work units", "layouts"), done already of them done.
func (a *app) progress(label string, done, total int64, unit string) meter {
	switch {
	case a.cfg.Quiet || total <= 0:
		return nopMeter{}
	case isTerminal(a.stderr):
		return newBarMeter(a.stderr, label, done, total)
	}
	return newLineMeter(a.stderr, label, done, total, unit, lineEvery)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

type nopMeter struct{}

func (nopMeter) Add(int64) {}
func (nopMeter) Done()     {}

// barMeter draws an mpb bar with counts, rate and time left. Add only
// counts; a goroutine hands the counts to the bar ten times a second, so
// that workers adding one unit each never wait on the bar.
type barMeter struct {
	p       *mpb.Progress
	bar     *mpb.Bar
	pending atomic.Int64
	stop    chan struct{}
	wg      sync.WaitGroup
}

func newBarMeter(w io.Writer, label string, done, total int64) *barMeter {
	p := mpb.New(mpb.WithOutput(w), mpb.WithAutoRefresh(), mpb.WithWidth(40), mpb.WithRefreshRate(150*time.Millisecond))
	bar := p.AddBar(total,
		mpb.PrependDecorators(decor.Name(label+" ", decor.WCSyncSpaceR), decor.CountersNoUnit("%d/%d", decor.WCSyncSpace)),
		mpb.AppendDecorators(
			decor.Percentage(decor.WCSyncSpace),
			decor.AverageSpeed(0, " %.0f/s", decor.WCSyncSpace),
			decor.OnComplete(decor.AverageETA(decor.ET_STYLE_GO, decor.WCSyncSpace), " done"),
		),
	)
	bar.SetCurrent(done)
	bar.DecoratorAverageAdjust(time.Now())
	m := &barMeter{p: p, bar: bar, stop: make(chan struct{})}
	every(&m.wg, 100*time.Millisecond, m.stop, m.flush)
	return m
}

func (m *barMeter) Add(k int64) { m.pending.Add(k) }

// flush hands the counts added since the last flush to the bar.
func (m *barMeter) flush() {
	if k := m.pending.Swap(0); k != 0 {
		m.bar.IncrInt64(k)
	}
}

func (m *barMeter) Done() {
	close(m.stop)
	m.wg.Wait()
	m.flush()
	if !m.bar.Completed() {
		m.bar.Abort(false)
	}
	m.p.Wait()
}

// lineMeter writes "label: done/total unit (p%), rate/s, about T left"
// every period, from its own goroutine.
type lineMeter struct {
	w            io.Writer
	label, unit  string
	total, start int64
	done         atomic.Int64
	began        time.Time
	stop         chan struct{}
	wg           sync.WaitGroup
}

func newLineMeter(w io.Writer, label string, done, total int64, unit string, period time.Duration) *lineMeter {
	m := &lineMeter{w: w, label: label, unit: unit, total: total, start: done, began: time.Now(), stop: make(chan struct{})}
	m.done.Store(done)
	every(&m.wg, period, m.stop, m.line)
	return m
}

func (m *lineMeter) Add(k int64) { m.done.Add(k) }

func (m *lineMeter) Done() {
	close(m.stop)
	m.wg.Wait()
}

// line writes the current state.
func (m *lineMeter) line() {
	done := m.done.Load()
	elapsed := time.Since(m.began)
	rate := float64(done-m.start) / elapsed.Seconds()
	left := "time left unknown"
	if rate > 0 {
		secs := float64(m.total-done) / rate
		left = "about " + time.Duration(secs*float64(time.Second)).Round(time.Second).String() + " left"
	}
	fmt.Fprintf(m.w, "%s: %d/%d %s (%.0f%%), %.0f/s, %s elapsed, %s\n",
		m.label, done, m.total, m.unit, 100*float64(done)/float64(m.total), rate, elapsed.Round(time.Second), left)
}

// every calls f each period on a goroutine of wg until stop is closed.
func every(wg *sync.WaitGroup, period time.Duration, stop <-chan struct{}, f func()) {
	wg.Go(func() {
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				f()
			}
		}
	})
}
