package main

// Fault-injection tests that run nqueens as a child process under real
// faults: a file-size limit (a full disk as the process sees it), kills
// during the creation of a catalog, and symlinked catalog paths.

import (
	"crypto/sha256"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// limited returns a command running nqueens with args in dir under a
// file-size limit of blocks 512-byte blocks (RLIMIT_FSIZE, as ulimit -f
// sets it) with SIGXFSZ ignored, so that a write past the limit fails with
// EFBIG as a write to a full disk fails with ENOSPC.
func limited(t *testing.T, dir string, blocks int, args ...string) *exec.Cmd {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("needs sh to set the file-size limit")
	}
	cmd := command(t, dir, args...)
	script := `trap '' XFSZ; ulimit -f ` + strconv.Itoa(blocks) + ` && exec "$0" "$@"`
	cmd.Args = append([]string{"sh", "-c", script, cmd.Path}, cmd.Args[1:]...)
	cmd.Path, _ = exec.LookPath("sh")
	return cmd
}

// catalogDigest returns a digest of the classes of n in the catalog at db,
// as export writes them, and fails the test if verify does not pass.
func catalogDigest(t *testing.T, db string, n string) [32]byte {
	t.Helper()
	if out, _, err := runCLI(t, "--db", db, "verify", n); err != nil {
		t.Fatalf("verify %s: %v\n%s", db, err, out)
	}
	csv, _, err := runCLI(t, "--db", db, "export", n, "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256([]byte(csv))
}

// TestFullDiskBuildResumes builds n=15 under file-size limits that stop it
// at several points: each run must fail with one line and leave a catalog
// that every command reads, that verify finds consistent (incomplete), and
// that the same build, once the limit is lifted, finishes with exactly the
// classes of a clean build. One catalog also goes through all the limits
// in turn, each run getting further.
func TestFullDiskBuildResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds n=15 several times")
	}
	dir := t.TempDir()
	clean := filepath.Join(dir, "clean.db")
	if _, _, err := runCLI(t, "--db", clean, "build", "15", "-q"); err != nil {
		t.Fatal(err)
	}
	want := catalogDigest(t, clean, "15")

	// In 512-byte blocks: the catalog of n=15 takes about 15,000.
	limits := []int{40, 400, 2500, 6000, 9000}
	stepwise := filepath.Join(dir, "stepwise.db")
	for _, blocks := range limits {
		for _, db := range []string{filepath.Join(dir, "limit-"+strconv.Itoa(blocks)+".db"), stepwise} {
			cmd := limited(t, dir, blocks, "build", "15", "--db", db, "--workers", "1", "-q")
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("limit %d, %s: build did not fail: %v\n%s", blocks, filepath.Base(db), err, out)
			}
			if lines := strings.Split(strings.TrimSpace(string(out)), "\n"); len(lines) != 1 || !strings.HasPrefix(lines[0], "nqueens: ") {
				t.Errorf("limit %d, %s: want one line of error, got:\n%s", blocks, filepath.Base(db), out)
			}
			t.Logf("limit %d blocks, %s: %s", blocks, filepath.Base(db), strings.TrimSpace(string(out)))
			if _, err := os.Stat(db); err != nil {
				continue // the limit stopped the catalog's creation: nothing there
			}
			// Whatever the run left is a consistent, incomplete catalog.
			stats, _, err := runCLI(t, "--db", db, "stats", "--json")
			if err != nil {
				t.Fatalf("limit %d, %s: stats after the failure: %v", blocks, filepath.Base(db), err)
			}
			if strings.Contains(stats, `"n": 15`) && !strings.Contains(stats, `"complete": false`) {
				t.Errorf("limit %d: n=15 complete after a failed build:\n%s", blocks, stats)
			}
			if v, _, err := runCLI(t, "--db", db, "verify", "15"); err == nil || strings.Contains(v, "add up to") {
				t.Errorf("limit %d, %s: verify after the failure: %v\n%s", blocks, filepath.Base(db), err, v)
			}
		}
	}
	for _, blocks := range limits {
		db := filepath.Join(dir, "limit-"+strconv.Itoa(blocks)+".db")
		if _, _, err := runCLI(t, "--db", db, "build", "15", "-q"); err != nil {
			t.Fatalf("limit %d: build after the limit was lifted: %v", blocks, err)
		}
		if got := catalogDigest(t, db, "15"); got != want {
			t.Errorf("limit %d: resumed build differs from a clean build", blocks)
		}
	}
	if _, _, err := runCLI(t, "--db", stepwise, "build", "15", "-q"); err != nil {
		t.Fatalf("stepwise: build after the limits: %v", err)
	}
	if got := catalogDigest(t, stepwise, "15"); got != want {
		t.Errorf("stepwise: resumed build differs from a clean build")
	}
}
