package main

import (
	"bytes"
	"context"
	"runtime"
	"strings"
	"testing"
)

// TestVersionHasTheStampedCommit checks that --version shows the commit a
// build stamps with -ldflags "-X main.commit=...", which version words.
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

// TestVersionNamesWhatIsKnown checks the text of nqueens --version with and
// without a commit stamped at link time: a test binary has no module
// version, so it is devel.
func TestVersionNamesWhatIsKnown(t *testing.T) {
	t.Parallel()
	if v := version(""); !strings.HasSuffix(v, ") "+runtime.Version()) || !strings.Contains(v, "(commit ") {
		t.Errorf("version(%q) = %q", "", v)
	}
	if v, want := version("0123456789abcdef0123"), "devel (commit 0123456789ab) "+runtime.Version(); v != want {
		t.Errorf("with a stamped commit, version = %q, want %q", v, want)
	}
}
