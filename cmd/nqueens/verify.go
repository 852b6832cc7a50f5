package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/progress"
	"github.com/nqueens/nqueens/verify"
)

func (a *app) verifyCmd() *cobra.Command {
	var asJSON bool
	var sample int
	cmd := jsonFlag(&asJSON, nsCommand("verify [N-LIST...]", "Re-check the catalog and exit 3 on any mismatch", "", func(cmd *cobra.Command, ns []int) error {
		if sample < 0 {
			return usageError{fmt.Errorf("--sample must be 0 (every prefix) or more, got %d", sample)}
		}
		db, err := a.open(cmd.Context())
		if err != nil && cmd.Context().Err() != nil {
			// Ctrl-C as the catalog opens: nothing was verified.
			return &verify.InterruptedError{Err: cmd.Context().Err()}
		} else if err != nil {
			return err
		}
		defer db.Close()
		o, done := a.verifyOptions()
		o.Sample, o.Workers = sample, a.cfg.Workers
		reports, err := o.Catalog(cmd.Context(), db, ns)
		done()
		switch {
		case !asJSON:
			for _, r := range reports {
				writeVerify(a.stdout, r)
			}
		case err == nil:
			err = writeJSON(a.stdout, reports)
		}
		if err != nil {
			return err
		}
		return verify.Summary(reports)
	}))
	wholeVar(cmd.Flags(), &sample, "sample", 0, "of an n built as an index, re-search only this many prefixes, drawn at random (0: all)")
	return cmd
}

// verifyProgressFrom is the fewest classes whose verification shows
// progress on stderr: n = 15 (285,053 classes, 0.6 s) and above (n = 16
// 2.5 s, n = 17 about 18 s), where a plain line every few seconds starts
// to tell something.
var verifyProgressFrom uint64 = 200_000

// testHookVerifyMeter, if not nil, wraps the progress meter of each n
// verified.
var testHookVerifyMeter func(n int, m progress.Meter) progress.Meter

// verifyOptions returns the options of a verification that shows the
// progress of each n of verifyProgressFrom classes or more, a meter
// "verify n=17" of its classes; the caller calls done when it returns.
func (a *app) verifyOptions() (o verify.Options, done func()) {
	m := progress.Nop
	o.Start = func(n int, classes uint64) {
		m.Done()
		m = progress.Nop
		if classes >= verifyProgressFrom {
			m = a.progress(fmt.Sprintf("verify n=%d", n), 0, int64(classes), "classes")
		}
		if testHookVerifyMeter != nil {
			m = testHookVerifyMeter(n, m)
		}
	}
	o.Progress = func(k int64) { m.Add(k) }
	return o, func() { m.Done() }
}
