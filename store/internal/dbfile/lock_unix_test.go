//go:build linux

package dbfile

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// TestReleaseWhileAChildHoldsTheFile checks that releasing a lock frees it
// at once even when another process holds a copy of the lock file's
// descriptor, as every child a process forks does until it execs: a
// library caller that starts processes while it builds must not find its
// own catalog busy. The child here keeps the descriptor for its life.
func TestReleaseWhileAChildHoldsTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "catalog.db.lock")
	release, err := Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	child := exec.Command("sleep", "600")
	held := openFD(t, path)
	child.ExtraFiles = []*os.File{held}
	err = child.Start()
	held.Close()
	if err != nil {
		t.Skipf("no sleep to hold the descriptor: %v", err)
	}
	defer func() { child.Process.Kill(); child.Wait() }()
	release()
	again, err := Lock(path)
	if errors.Is(err, ErrBusy) {
		t.Fatalf("the released lock is still held through the child's copy: %v", err)
	} else if err != nil {
		t.Fatal(err)
	}
	again()
}

// openFD returns a copy of this process's open descriptor of path, as a
// file that shares its open file description (and so its lock).
func openFD(t *testing.T, path string) *os.File {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	for _, e := range entries {
		if target, err := os.Readlink("/proc/self/fd/" + e.Name()); err == nil && target == path {
			fd, _ := strconv.Atoi(e.Name())
			dup, err := syscall.Dup(fd)
			if err != nil {
				t.Fatal(err)
			}
			return os.NewFile(uintptr(dup), path)
		}
	}
	t.Fatalf("no descriptor of %s", path)
	return nil
}
