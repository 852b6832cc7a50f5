package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/config"
	"github.com/nqueens/nqueens/count/estimate"
	"github.com/nqueens/nqueens/store"
)

// TestWarnLexSearch checks the line a lexicographic export that searches
// every solution of a large n starts with, at a rate set rather than
// measured, and that a small n or --quiet says nothing and measures
// nothing.
func TestWarnLexSearch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n     int
		total uint64
		quiet bool
		want  string
	}{
		{n: 18, total: 666090624, want: "export 18: the lexicographic order searches all 666,090,624 solutions of n=18: about 2 h 40 min on 2 cores\n"},
		{n: 16, total: 14772512, want: "export 16: the lexicographic order searches all 14,772,512 solutions of n=16: about 3 min on 2 cores\n"},
		{n: 18, total: 666090624, quiet: true},
		{n: 15, total: 2279184},
	}
	for _, tt := range tests {
		var stderr strings.Builder
		rate := &estimate.Rate{Workers: 2, Cores: 2, PerSecond: 1e7}
		a := &app{stderr: &stderr, cfg: config.Config{Workers: 2, Quiet: tt.quiet}, est: &estimate.Estimator{Workers: 2}}
		if tt.want != "" {
			a.est.Measured = rate
		}
		d, err := a.warnLexSearch(context.Background(), store.Build{N: tt.n, Counts: nqueens.Counts{Total: tt.total}})
		if err != nil {
			t.Fatal(err)
		}
		if stderr.String() != tt.want {
			t.Errorf("n=%d quiet=%t: stderr %q, want %q", tt.n, tt.quiet, stderr.String(), tt.want)
		}
		// The meter's time left starts from the time said, and only then.
		if said := tt.want != ""; said != (d > 0) || said && d != time.Duration(lexSearchFactor*estimate.Nodes(tt.n)/rate.PerSecond*float64(time.Second)) {
			t.Errorf("n=%d quiet=%t: warnLexSearch gave the meter %v after saying %q", tt.n, tt.quiet, d, tt.want)
		}
		if tt.want == "" && a.est.Measured != nil {
			t.Errorf("n=%d quiet=%t: the rate was measured for nothing said", tt.n, tt.quiet)
		}
	}
}
