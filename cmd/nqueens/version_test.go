package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestVersionHasTheStampedCommit checks that --version shows the commit a
// build stamps with -ldflags "-X main.commit=...": main passes it to
// buildinfo.Version, which words it.
func TestVersionHasTheStampedCommit(t *testing.T) {
	defer func(c string) { commit = c }(commit)
	commit = "0123456789abcdef0123"
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"--version"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if got := stdout.String(); !strings.HasPrefix(got, "nqueens ") || !strings.Contains(got, "(commit 0123456789ab") {
		t.Errorf("--version = %q; want the stamped commit", got)
	}
}
