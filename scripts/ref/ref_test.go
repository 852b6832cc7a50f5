// Package ref holds the C reference counter that scripts/bench.sh times
// nqueens against (ref_total.c); its test checks the counter's counts.
package ref

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
)

// TestReferenceCounts compiles ref_total.c with the system's C compiler
// and checks its counts of n = 1..12 against OEIS A000170, and that it
// refuses an n it cannot count. It skips where there is no C compiler.
func TestReferenceCounts(t *testing.T) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler (cc) to build ref_total.c")
	}
	exe := filepath.Join(t.TempDir(), "ref_total")
	if out, err := exec.Command(cc, "-O2", "-o", exe, "ref_total.c").CombinedOutput(); err != nil {
		t.Fatalf("cc ref_total.c: %v\n%s", err, out)
	}
	for n := 1; n <= 12; n++ {
		out, err := exec.Command(exe, strconv.Itoa(n)).Output()
		if err != nil {
			t.Fatalf("ref_total %d: %v", n, err)
		}
		want, _ := nqueens.KnownCounts(n)
		if got, w := strings.TrimSpace(string(out)), strconv.Itoa(n)+" "+strconv.FormatUint(want.Total, 10); got != w {
			t.Errorf("ref_total %d printed %q, want %q", n, got, w)
		}
	}
	for _, bad := range []string{"0", "32", "x", ""} {
		if out, err := exec.Command(exe, bad).CombinedOutput(); err == nil {
			t.Errorf("ref_total %q exited 0 with %q", bad, out)
		}
	}
}
