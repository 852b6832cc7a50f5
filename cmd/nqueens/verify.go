package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/progress"
	"github.com/nqueens/nqueens/verify"
)

func (a *app) verifyCmd() *cobra.Command {
	var asJSON bool
	var sample int
	var seed uint64
	cmd := jsonFlag(&asJSON, nsCommand("verify [N-LIST...]", "Re-check the catalog and exit 3 on any mismatch", "", func(cmd *cobra.Command, ns []int) error {
		if sample < 0 {
			return usageError{fmt.Errorf("--sample must be 0 (every prefix) or more, got %d", sample)}
		} else if sample == 0 && cmd.Flags().Changed("seed") {
			return usageError{errors.New("--seed seeds the draw of --sample M: give both, or neither")}
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
		o.Seed, _ = seedOf(cmd, seed)
		reports, err := o.Catalog(cmd.Context(), db, ns)
		done()
		switch {
		case !asJSON:
			for _, r := range reports {
				a.writeVerify(cmd.Context(), r, db.Path())
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
	wholeVar(cmd.Flags(), &seed, "seed", 0, "seed of the draws of --sample (default: a random seed; the report prints it)")
	cmd.ValidArgsFunction = a.completeBuilt(false)
	return cmd
}

// writeVerify writes the text form of r, a report on the catalog at
// path, to stdout: before the lines of writeVerify, for a sample of an
// index, which sample and the command that searches it again; for an n
// not in the catalog, where and how to build it, and no other line.
func (a *app) writeVerify(ctx context.Context, r verify.Report, path string) {
	if s := r.Sample; s != nil {
		again := a.advice().command("verify", strconv.Itoa(r.N), "--sample", strconv.FormatInt(s.Prefixes, 10), "--seed", strconv.FormatUint(s.Seed, 10))
		fmt.Fprintf(a.stdout, "n=%d sample: %d of %d index prefixes searched again, seed %d (%s draws them again)\n", r.N, s.Prefixes, s.Of, s.Seed, again)
	}
	if r.Missing {
		fmt.Fprintf(a.stdout, "n=%d is not in the catalog %s: %s\n", r.N, path, a.buildAdvice(ctx, r.N))
		return
	}
	writeVerify(a.stdout, r)
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
