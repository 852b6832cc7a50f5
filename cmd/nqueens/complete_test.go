package main

import (
	"bytes"
	"context"
	"regexp"
	"testing"
	"time"
)

// TestCompleteSaysLongCounts checks that complete says how long a count
// it estimates as long will take (unless --quiet), and that it prints the
// same count and nodes as it does for a short one. The limits are lowered
// so that a board of 12 counts as long. (partial's tests check the
// progress each unit reports.)
func TestCompleteSaysLongCounts(t *testing.T) {
	defer func(d time.Duration, k float64) { longCompletion, longCompletionNodes = d, k }(longCompletion, longCompletionNodes)
	board := "_ _ _ _ _ _ _ _ _ _ 4 _"
	var quick bytes.Buffer
	if err := run(context.Background(), []string{"complete", board, "--db", t.TempDir() + "/none.db"}, &quick, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	longCompletion, longCompletionNodes = 0, 0
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"complete", board, "--db", t.TempDir() + "/none.db"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if stdout.String() != quick.String() {
		t.Errorf("the long count printed %q, the short one %q", stdout.String(), quick.String())
	}
	if !regexp.MustCompile(`(?m)^complete _ _ _ _ _ _ _ _ _ _ 4 _: (about [0-9.]+ s|under 0\.1 s) on [0-9]+ cores? \([0-9]{1,3}(,[0-9]{3})* nodes, estimated\); Ctrl-C stops it$`).Match(stderr.Bytes()) {
		t.Errorf("stderr of a long count:\n%s\nwant the estimate's line", stderr.String())
	}
	var quiet bytes.Buffer
	if err := run(context.Background(), []string{"complete", board, "-q", "--db", t.TempDir() + "/none.db"}, &bytes.Buffer{}, &quiet); err != nil || quiet.Len() != 0 {
		t.Errorf("complete -q wrote %q to stderr (%v)", quiet.String(), err)
	}
}
