package buildinfo

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// TestVersionNamesWhatIsKnown checks the text of nqueens --version with and
// without a commit stamped at link time.
func TestVersionNamesWhatIsKnown(t *testing.T) {
	if v := Version(""); !strings.HasSuffix(v, ") "+runtime.Version()) || !strings.Contains(v, "(commit ") {
		t.Errorf("Version(%q) = %q", "", v)
	}
	if v := Version("0123456789abcdef0123"); !strings.Contains(v, "(commit 0123456789ab") {
		t.Errorf("with a stamped commit, Version = %q", v)
	}
}

func ExampleVersion() {
	// A test binary has no module version; the commit is the one given.
	v := Version("0123456789abcdef0123")
	fmt.Println(strings.TrimSuffix(v, " "+runtime.Version()))
	// Output: devel (commit 0123456789ab)
}
