package main

import (
	"runtime"
	"strings"
	"testing"
)

// TestVersionNamesWhatIsKnown checks --version's text with and without a
// commit stamped by -ldflags "-X main.commit=...".
func TestVersionNamesWhatIsKnown(t *testing.T) {
	defer func(c string) { commit = c }(commit)
	commit = ""
	if v := version(); !strings.HasSuffix(v, ") "+runtime.Version()) || !strings.Contains(v, "(commit ") {
		t.Errorf("version() = %q", v)
	}
	commit = "0123456789abcdef0123"
	if v := version(); !strings.Contains(v, "(commit 0123456789ab") {
		t.Errorf("with a stamped commit, version() = %q", v)
	}
}
