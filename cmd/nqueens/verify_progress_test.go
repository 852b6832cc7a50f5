package main

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/nqueens/nqueens/progress"
)

// TestVerifyIndexShowsProgress verifies n = 15 built as an index, at the
// default threshold: it gets a meter, of its 285,053 classes, that counts
// every one of them and is done.
func TestVerifyIndexShowsProgress(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"build", "15", "--index", "-q", "--db", db}, &out, &errOut); err != nil {
		t.Fatal(err, errOut.String())
	}
	defer func() { testHookVerifyMeter = nil }()
	var m *countingMeter
	testHookVerifyMeter = func(n int, pm progress.Meter) progress.Meter {
		if pm == progress.Nop {
			return pm
		}
		m = &countingMeter{Meter: pm}
		return m
	}
	if err := run(context.Background(), []string{"verify", "--db", db}, &out, &errOut); err != nil {
		t.Fatal(err, errOut.String())
	}
	if m == nil || m.added != 285053 || !m.done {
		t.Errorf("meter %+v: want one of 285053 classes, done", m)
	}
}

// TestVerifyInterrupted cancels verify 8,10,12 as n = 12 starts, as
// Ctrl-C does: the n verified are printed, and the error is one line that
// says which n checked out and which was not finished, with exit status
// 1, never "context canceled".
func TestVerifyInterrupted(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"build", "8,10,12", "-q", "--db", db}, &out, &errOut); err != nil {
		t.Fatal(err, errOut.String())
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	defer func() { testHookVerifyMeter = nil }()
	testHookVerifyMeter = func(n int, m progress.Meter) progress.Meter {
		if n == 12 {
			cancel()
		}
		return m
	}
	out.Reset()
	err := run(ctx, []string{"verify", "--db", db}, &out, &errOut)
	if want := "verify interrupted after n=8,10 checked out; n=12 was not finished"; err == nil || err.Error() != want || exitCode(err) != exitError {
		t.Errorf("err = %v (exit %d), want %q, exit %d", err, exitCode(err), want, exitError)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v does not match context.Canceled", err)
	}
	if want := "n=8 ok: 92 solutions in 12 classes\nn=10 ok: 724 solutions in 92 classes\n"; out.String() != want {
		t.Errorf("stdout %q, want %q", out.String(), want)
	}
	// Cancelled before the catalog opens.
	cancel()
	err = run(ctx, []string{"verify", "--db", db}, &out, &errOut)
	if want := "verify interrupted before any n was checked"; err == nil || err.Error() != want {
		t.Errorf("cancelled at once: err = %v, want %q", err, want)
	}
}
