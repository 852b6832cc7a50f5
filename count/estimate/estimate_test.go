package estimate

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/testutil"
)

// TestEstimateNodes checks the node estimate against the nodes the search
// visits, counted by Nodes.
func TestEstimateNodes(t *testing.T) {
	tests := []struct {
		n      int
		factor float64 // the largest ratio allowed either way
	}{
		{n: 1, factor: 1},
		{n: 3, factor: 1}, // no constellations, no nodes
		{n: 4, factor: 1},
		{n: 8, factor: 1.1},
		{n: 10, factor: 1.1},
		{n: 11, factor: 1.1},
		{n: 12, factor: 1.1},
		{n: 13, factor: 1.1},
		{n: 14, factor: 1.1},
	}
	for _, tt := range tests {
		var nodes uint64
		for _, c := range count.Constellations(tt.n) {
			nodes += c.Nodes()
		}
		got := Nodes(tt.n)
		if nodes == 0 && got == 0 {
			continue
		}
		if ratio := got / float64(nodes); ratio > tt.factor || ratio < 1/tt.factor {
			t.Errorf("n=%d: EstimateNodes = %.0f, the search visits %d nodes (ratio %.3f, want within %g)", tt.n, got, nodes, ratio, tt.factor)
		}
	}
}

// TestEstimateNodesGrows checks the estimate where it samples and where
// Cost saturates: finite, and each n a few times the one before (7 near
// n = 18).
func TestEstimateNodesGrows(t *testing.T) {
	t.Parallel()
	for _, n := range testutil.Sizes(20, 32) {
		prev, e := Nodes(n-1), Nodes(n)
		if math.IsInf(e, 0) || math.IsNaN(e) || e < 4*prev || e > 16*prev {
			t.Errorf("n=%d: EstimateNodes = %.3g, n=%d's is %.3g: want 4 to 16 times as many", n, e, n-1, prev)
		}
	}
}

func TestRateEstimate(t *testing.T) {
	nodes := Nodes(12)
	tests := []struct {
		name string
		rate Rate
		want float64
	}{
		{"measured", Rate{Workers: 2, Cores: 2, PerSecond: 1e6}, nodes / 1e6},
		{"zero rate", Rate{Workers: 1, Cores: 1}, math.Inf(1)},
		{"floor", MinRate(1), nodes / MinRate(1).PerSecond},
	}
	for _, tt := range tests {
		e := tt.rate.For(12)
		if e.N != 12 || e.Nodes != nodes || e.Seconds != tt.want || e.Workers != tt.rate.Workers || e.Cores != tt.rate.Cores {
			t.Errorf("%s: Estimate(12) = %+v, want %.0f nodes in %g seconds", tt.name, e, nodes, tt.want)
		}
		if at := e.At(Rate{Workers: 4, Cores: 4, PerSecond: 2e6}); at.Nodes != nodes || at.Seconds != nodes/2e6 || at.Workers != 4 {
			t.Errorf("%s: At = %+v, want %.0f nodes in %g seconds on 4 workers", tt.name, at, nodes, nodes/2e6)
		}
	}
	if r := MinRate(3); r.Workers != 3 || r.Cores < 1 || r.Cores > 3 || r.PerSecond <= 0 {
		t.Errorf("MinRate(3) = %+v", r)
	}
}

func TestMeasureRateCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := measureRate(ctx, 1); err != context.Canceled {
		t.Errorf("MeasureRate of a cancelled context: err = %v, want context.Canceled", err)
	}
}

func ExampleNodes() {
	var nodes uint64
	for _, c := range count.Constellations(12) {
		nodes += c.Nodes()
	}
	fmt.Printf("n=12: about %.0f nodes, %d in fact\n", Nodes(12), nodes)
	// Output: n=12: about 94785 nodes, 94714 in fact
}

// TestMeasureRate checks a measured rate's estimate of n = 20: the nodes
// the model gives, and a positive time.
func TestMeasureRate(t *testing.T) {
	r, err := measureRate(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	e := r.For(20)
	_, nodes, _ := strings.Cut(e.String(), " (") // "about 10 h on 2 cores (3.7e11 nodes)"
	if got := strings.TrimSuffix(nodes, ")"); got != "3.7e11 nodes" || e.Seconds <= 0 {
		t.Errorf("n=20: %s, %v s; want 3.7e11 nodes and a positive time", got, e.Seconds)
	}
}

// BenchmarkMeasureRate measures the calibration, which count --estimate
// and a long count run before they start.
func BenchmarkMeasureRate(b *testing.B) {
	for b.Loop() {
		measureRate(context.Background(), 0)
	}
}

// BenchmarkEstimateNodes measures the node estimate of a sampled n and of
// the largest.
func BenchmarkEstimateNodes(b *testing.B) {
	for _, n := range []int{18, 32} {
		b.Run(fmt.Sprint("n=", n), func(b *testing.B) {
			for b.Loop() {
				Nodes(n)
			}
		})
	}
}

// TestEstimatorLong checks when an Estimator measures the rate (with a
// cancelled context, measuring fails) and what it answers.
func TestEstimatorLong(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	known := &Rate{Workers: 2, Cores: 2, PerSecond: 1e7}
	tests := []struct {
		name     string
		n        int
		measured *Rate
		long     bool
		err      error
	}{
		{"short: no estimate, no measurement", 17, nil, false, nil},
		{"could be long: measures", 20, nil, false, context.Canceled},
		{"long at the known rate", 20, known, true, nil},
		{"not long at a fast rate", 19, &Rate{Workers: 2, Cores: 2, PerSecond: 1e12}, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := Estimator{Workers: 2, Measured: tt.measured}
			est, long, err := e.Long(cancelled, tt.n, false)
			if long != tt.long || err != tt.err {
				t.Errorf("Long(%d) = %v, %v, %v; want %v, %v", tt.n, est, long, err, tt.long, tt.err)
			}
			if long && est.N != tt.n {
				t.Errorf("Long(%d) estimates n=%d", tt.n, est.N)
			}
		})
	}
}
