// Package estimate says how long counting a board by constellations
// (count.Board) would take, before searching it.
//
// The time the count takes is, to within a few percent, its number of
// search-tree nodes divided by the rate at which this machine searches
// them. Nodes predicts the nodes from Knuth's estimator (the one behind
// count's Cost), MeasureRate measures the rate by searching a fixed
// sample of real constellations, and Rate.For divides one by the other.
// Neither searches the board being estimated, so an estimate takes under
// a second for any n (0.65 s for n = 32 on 2 cores).
package estimate

import (
	"context"
	"errors"
	"math"
	"runtime"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/parallel"
	"github.com/nqueens/nqueens/internal/phrase"
)

// maxSampled is the largest number of constellations whose trees
// Nodes estimates; above it, it estimates an evenly spaced sample
// of them (n = 18 and above).
const maxSampled = 4096

// Nodes returns an estimate of the number of search-tree nodes
// that counting a board of n by constellations visits (count.Solutions
// of count.Constellations(n)): the sum over the constellations of the mean of
// Knuth's estimator, as Cost computes it but in floating point, so that
// neither small trees (rounded down by Cost) nor those of n = 31 and 32
// (saturated by Cost) are biased. Above maxSampled constellations it sums
// every k-th of them and scales the sum by k. The result depends on n
// alone. It spreads its work over all cores: about 0.1 s on the 2 cores of
// an AMD EPYC for n = 18 and 0.3 s for n = 32, less for smaller n.
//
// Measured against the nodes the search visits (Nodes), it is within 1.5%
// for every n from 1 to 16 (exact up to n = 7); the sampling from n = 18
// adds under 1.5% (measured on n = 18 to 24 against the sum over every
// constellation). Above n = 16 it has not been checked against a search,
// but the estimator is unbiased for every tree. It panics if n is outside
// 1..nqueens.MaxN.
func Nodes(n int) float64 {
	cs := count.Constellations(n)
	if len(cs) == 0 {
		return 0 // n = 2 or 3: nothing to search
	}
	stride := (len(cs) + maxSampled - 1) / maxSampled
	k := (len(cs) + stride - 1) / stride
	means := make([]float64, k)
	parallel.Each(context.Background(), k, 0, func(i int, _ *parallel.Stop) {
		means[i] = cs[i*stride].MeanNodes()
	})
	var sum float64
	for _, m := range means {
		sum += m
	}
	return sum * float64(len(cs)) / float64(k)
}

// The sample MeasureRate searches: every calibrationStride-th
// constellation of n = calibrationN, whose trees hold calibrationNodes
// nodes in all (TestCalibrationNodes checks the figure). It is a fixed
// amount of work, about 0.4 s of one core of a 2-core AMD EPYC, so the
// measurement takes the same time whatever is estimated.
const (
	calibrationN      = 17
	calibrationStride = 24
	calibrationNodes  = 34917588
)

// minRate is a floor of the search rate, in nodes per second on each core,
// below any machine this is likely to run on: a fifth of the rate of one
// core of a 2-core AMD EPYC (7e7 nodes per second).
const minRate = 1.4e7

// Rate is a speed of the constellation search on a machine: nodes per
// second with Workers goroutines on Cores cores.
type Rate struct {
	// Workers is the number of goroutines the count runs, and Cores the
	// number of them that can run at once (Workers, or GOMAXPROCS if
	// fewer).
	Workers, Cores int
	// PerSecond is the number of search-tree nodes that the Workers
	// goroutines visit in a second, together.
	PerSecond float64
}

// measureRate measures how fast this machine counts by constellations
// with workers goroutines (all cores when workers < 1): it searches a
// fixed sample of constellations of n = 17 on them, as
// count.Solutions would, and divides the sample's nodes by the time
// the search took. The sample is about 3.5e7 nodes (0.2 s on both cores
// of a 2-core AMD EPYC). The rate is that of the machine as it is loaded
// at the time: other work running alongside slows it as it would slow the
// count. It returns ctx.Err() if ctx is cancelled first.
func measureRate(ctx context.Context, workers int) (Rate, error) {
	var sample []count.Constellation
	cs := count.Constellations(calibrationN)
	for i := 0; i < len(cs); i += calibrationStride {
		sample = append(sample, cs[i])
	}
	w := parallel.Workers(workers)
	start := time.Now()
	if _, err := count.Solutions(ctx, sample, w, nil); err != nil {
		return Rate{}, err
	}
	secs := time.Since(start).Seconds()
	if secs <= 0 {
		return Rate{}, errors.New("measure rate: the clock did not advance")
	}
	return Rate{Workers: w, Cores: cores(w), PerSecond: calibrationNodes / secs}, nil
}

// MinRate returns a rate slower than any machine's for workers goroutines
// (all cores when workers < 1): minRate nodes per second on each core
// they can use. An estimate at this rate bounds the time from above
// without measuring: a count it puts under a minute takes less.
func MinRate(workers int) Rate {
	w := parallel.Workers(workers)
	return Rate{Workers: w, Cores: cores(w), PerSecond: minRate * float64(cores(w))}
}

// cores returns how many of w goroutines can run at once.
func cores(w int) int { return max(1, min(w, runtime.GOMAXPROCS(0))) }

// Result is the predicted work of counting a board by constellations
// (For) or by the join (ForJoin), whose JSON is an object of count
// --estimate --json.
type Result struct {
	// N is the board size.
	N int `json:"n"`
	// Engine is the engine the estimate is for: "cpu" (constellations) or
	// "join".
	Engine string `json:"engine"`
	// Seconds is Nodes at the rate: the time of the search. It leaves out
	// the search for symmetric solutions that count.Board adds, a few seconds
	// below n = 25.
	Seconds float64 `json:"seconds"`
	// Nodes is the estimate of Nodes, or for the join JoinWork.
	Nodes float64 `json:"nodes"`
	// Bytes is the memory the join takes (0 for constellations, whose
	// search takes little).
	Bytes int64 `json:"bytes,omitempty"`
	// Workers and Cores are those of the rate the estimate is for.
	Workers int `json:"workers"`
	Cores   int `json:"-"`
}

// For returns the estimate of counting a board of n by constellations
// at rate r: Nodes(n) nodes, in Nodes(n) / r.PerSecond
// seconds. It panics if n is outside 1..nqueens.MaxN.
//
// Measured on a 2-core AMD EPYC shared with other work, against the best
// of two runs of count 15, 16 and 17 and one of count 18 (0.12, 0.72,
// 4.8 and 34 s), the seconds were 0.86 to 1.32 times the real time (0.10
// to 0.11, 0.66 to 0.67, 5.3 to 5.8 and 42 to 45 s). The rate of the
// sample is within 10% of the rate of the whole searches of n = 15 to 17;
// what varies most is the load of the machine, which the short
// calibration catches less well than a long count averages it. Above
// n = 18 the estimate has not been checked against a search.
func (r Rate) For(n int) Result {
	if err := nqueens.CheckN(n); err != nil {
		panic("estimate: " + err.Error())
	}
	return r.estimate(n, Nodes(n))
}

// At returns e at rate r: the same nodes, for r's workers, in the time
// they take at r.
func (e Result) At(r Rate) Result {
	out := r.estimate(e.N, e.Nodes)
	out.Engine, out.Bytes = e.Engine, e.Bytes
	return out
}

func (r Rate) estimate(n int, nodes float64) Result {
	secs := math.Inf(1)
	if r.PerSecond > 0 {
		secs = nodes / r.PerSecond
	}
	return Result{N: n, Engine: "cpu", Workers: r.Workers, Cores: r.Cores, Nodes: nodes, Seconds: secs}
}

// shortMax is the largest n whose count is short (not Long) at MinRate
// even on one core: Nodes(17) is 8.2e8 nodes, 59 s at minRate, and each n
// above has about 7 times as many. TestShortMax checks it.
const shortMax = 17

// short reports whether a count of n is short (not Long) at MinRate, on
// any number of workers, without estimating it: true up to n = 17. For
// those n, MinRate(w).For(n).Long() is false, and asking it would cost
// Nodes(n), about a sixth of the count itself for n = 16.
func short(n int) bool { return n <= shortMax }

// LongSeconds is the estimated time, in seconds, from which a count is
// long: long enough that count says how long before it starts, and
// suggests splitting it into shards.
const LongSeconds = 60

// Long reports whether e is of a long count: LongSeconds or more.
func (e Result) Long() bool { return e.Seconds >= LongSeconds }

// Time returns the time of e in words, with the cores it is for: "about 10
// h on 2 cores" (see String).
func (e Result) Time() string {
	return phrase.About(e.Seconds) + " on " + phrase.Plural(e.Cores, "core")
}

// String returns e in words: its Time and, in parentheses, its nodes,
// "about 10 h on 2 cores (3.7e11 nodes)", or for the join the memory it
// takes, "about 3 min on 2 cores (the join, 101.5 MiB of memory)".
// Durations are phrase.About's ("about 3 h", "about 1 h 20 min", "about 9
// months", "about 270 million years"), nodes phrase.Approx's ("35,000"
// below a million, "3.1e15" above).
func (e Result) String() string {
	if e.Engine == "join" {
		return e.Time() + " " + joinText(e)
	}
	return e.Time() + " (" + phrase.Approx(e.Nodes, "node") + ")"
}
