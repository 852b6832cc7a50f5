package main

import (
	"cmp"
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/config"
	"github.com/nqueens/nqueens/count/estimate"
)

// TestWarnLong checks the line a long count starts with, at a rate set
// rather than measured.
func TestWarnLong(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n     int
		quiet bool
		want  string
		// engine counts: "cpu" if empty.
		engine string
	}{
		{n: 20, want: "count 20: about 10 h on 2 cores; --shard splits it\n"},
		{n: 20, quiet: true},
		{n: 16}, // short even at estimate.MinRate: no line, no measurement
		{n: 12},
		{n: 21, engine: "join", want: "count 21: about 8 h on 2 cores; --shard splits it\n"},
		{n: 18, engine: "join"}, // short by the join
	}
	for _, tt := range tests {
		var stderr strings.Builder
		a := &app{stderr: &stderr, cfg: config.Config{Workers: 2, Quiet: tt.quiet},
			est: &estimate.Estimator{Workers: 2, Measured: &estimate.Rate{Workers: 2, Cores: 2, PerSecond: 1e7}}}
		engine := cmp.Or(tt.engine, "cpu")
		d, err := a.warnLong(context.Background(), tt.n, engine)
		if err != nil {
			t.Fatal(err)
		}
		if stderr.String() != tt.want {
			t.Errorf("n=%d quiet=%t: stderr %q, want %q", tt.n, tt.quiet, stderr.String(), tt.want)
		}
		// The meter's time left starts from the estimate said, and only then.
		if said := tt.want != ""; said != (d > 0) || said && !strings.Contains(tt.want, "about "+strconv.Itoa(int(d.Hours()+0.5))+" h") {
			t.Errorf("n=%d %s quiet=%t: warnLong gave the meter %v after saying %q", tt.n, engine, tt.quiet, d, tt.want)
		}
	}
}
