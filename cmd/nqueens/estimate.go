package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/count"
)

// longCount is the estimated time above which count says how long it
// will take before it starts.
const longCount = 60 // seconds

// countEstimate prints the estimate of counting each n of ns, as text or,
// with asJSON, a JSON array; it searches only the calibration sample.
func (a *app) countEstimate(ctx context.Context, ns []int, asJSON bool) error {
	r, err := a.rate(ctx)
	if err != nil {
		return err
	}
	var out []estimateJSON
	for _, n := range ns {
		e := r.Estimate(n)
		out = append(out, estimateJSON{N: n, Seconds: e.Seconds, Nodes: e.Nodes, Workers: e.Workers})
		if !asJSON {
			fmt.Fprintf(a.stdout, "count %d: %s on %s (%s nodes)\n", n, about(e.Seconds), coresText(e.Cores), nodesText(e.Nodes))
		}
	}
	if asJSON {
		return writeJSON(a.stdout, out)
	}
	return nil
}

// estimateJSON is the shape of one object of count --estimate --json.
type estimateJSON struct {
	N       int     `json:"n"`
	Seconds float64 `json:"seconds"`
	Nodes   float64 `json:"nodes"`
	Workers int     `json:"workers"`
}

// warnLong writes to stderr, unless --quiet, how long counting n will
// take if the estimate is over longCount. It measures the rate only when
// the count could take that long on a slow machine (count.MinRate),
// so counts of a few seconds start at once.
func (a *app) warnLong(ctx context.Context, n int) error {
	if a.cfg.Quiet || n < progressFromN {
		return nil
	}
	e := count.MinRate(a.cfg.Workers).Estimate(n)
	if e.Seconds < longCount {
		return nil
	}
	r, err := a.rate(ctx)
	if err != nil {
		return err
	}
	if e = e.At(r); e.Seconds >= longCount {
		fmt.Fprintf(a.stderr, "count %d: %s on %s; --shard splits it\n", n, about(e.Seconds), coresText(e.Cores))
	}
	return nil
}

// rate returns this machine's search rate with the configured workers,
// measured on the first call (count.MeasureRate).
func (a *app) rate(ctx context.Context) (count.Rate, error) {
	if a.measured == nil {
		r, err := count.MeasureRate(ctx, a.cfg.Workers)
		switch {
		case ctx.Err() != nil:
			return r, errors.New("count: interrupted while measuring the search rate")
		case err != nil:
			return r, fmt.Errorf("count: %w", err)
		}
		a.measured = &r
	}
	return *a.measured, nil
}

// coresText returns "1 core" or "k cores".
func coresText(k int) string {
	if k == 1 {
		return "1 core"
	}
	return strconv.Itoa(k) + " cores"
}

// nodesText returns a number of nodes in full below a million and as
// "3.1e15" above.
func nodesText(x float64) string {
	if x < 1e6 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	mant, exp, _ := strings.Cut(strconv.FormatFloat(x, 'e', 1, 64), "e") // 3.1e+15
	return mant + "e" + strings.TrimLeft(exp, "+0")
}

// durationUnits are the units about speaks in, largest first; a month is
// a twelfth of a year. step is what the unit is rounded to when it comes
// second: "1 minute 30 seconds", not "1 minute 31 seconds".
var durationUnits = []struct {
	name       string
	secs, step float64
}{
	{"year", 365.25 * 86400, 1},
	{"month", 365.25 * 86400 / 12, 1},
	{"day", 86400, 1},
	{"hour", 3600, 1},
	{"minute", 60, 5},
	{"second", 1, 10},
}

// about returns an estimated duration in words: "about 3 hours", "about 1
// hour 20 minutes", "about 9 months", "about 40 years", "about 270 million
// years". It speaks in the largest unit the duration reaches, adding the
// next smaller one when there are fewer than 3 of the first; it rounds to
// whole units below 10 of them and to two significant digits above, and
// gives tenths of a second below 10 seconds.
func about(secs float64) string {
	switch {
	case math.IsInf(secs, 1) || math.IsNaN(secs):
		return "an unknown time"
	case secs < 0.05:
		return "under 0.1 seconds"
	case secs < 10:
		return "about " + countWords(strconv.FormatFloat(secs, 'f', 1, 64), "second")
	}
	i := 0
	for secs < durationUnits[i].secs {
		i++
	}
	u := durationUnits[i]
	q := secs / u.secs
	if q < 3 && i+1 < len(durationUnits) {
		v := durationUnits[i+1]
		whole := math.Floor(q)
		rest := math.Round((secs-whole*u.secs)/v.secs/v.step) * v.step
		if rest >= math.Round(u.secs/v.secs) {
			whole, rest = whole+1, 0
		}
		s := "about " + countWords(strconv.FormatFloat(whole, 'f', 0, 64), u.name)
		if rest > 0 {
			s += " " + countWords(strconv.FormatFloat(rest, 'f', 0, 64), v.name)
		}
		return s
	}
	switch {
	case q >= 1e9:
		return "about " + sig2(q/1e9) + " billion " + u.name + "s"
	case q >= 1e6:
		return "about " + sig2(q/1e6) + " million " + u.name + "s"
	}
	if q < 10 {
		return "about " + countWords(strconv.FormatFloat(q, 'f', 0, 64), u.name)
	}
	return "about " + countWords(sig2(q), u.name)
}

// sig2 returns x rounded to two significant digits, in full: 3, 47, 1200.
func sig2(x float64) string {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 2, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// countWords returns "count name", adding an s unless count is "1".
func countWords(count, name string) string {
	if count == "1" {
		return count + " " + name
	}
	return count + " " + name + "s"
}
