//go:build unix

package dbfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/nqueens/nqueens/internal/catalogfile"
)

// TestCompanions plants each kind of file that checkCompanions refuses beside a
// catalog, as its -wal: a symbolic link, a FIFO, a second link to another
// file, and (as root) a file of another user; and checks that a plain
// file of the catalog's owner passes.
func TestCompanions(t *testing.T) {
	dir := t.TempDir()
	abs := filepath.Join(dir, "c.db")
	other := filepath.Join(dir, "other")
	for _, p := range []string{abs, other} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, why string
		plant     func(path string) error
	}{
		{"plain file of the owner", "", func(p string) error { return os.WriteFile(p, []byte("x"), 0o644) }},
		{"symbolic link", "is a symbolic link", func(p string) error { return os.Symlink(other, p) }},
		{"FIFO", "is not a regular file", func(p string) error { return syscall.Mkfifo(p, 0o644) }},
		{"hard link", "has 2 hard links", func(p string) error { return os.Link(other, p) }},
		{"another user's file", "is owned by uid 65534", func(p string) error {
			if os.Geteuid() != 0 {
				t.Skip("needs root to make another user's file")
			}
			if err := os.WriteFile(p, nil, 0o644); err != nil {
				return err
			}
			return os.Chown(p, 65534, 65534)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer os.Remove(abs + "-wal")
			if err := tc.plant(abs + "-wal"); err != nil {
				t.Fatal(err)
			}
			err := checkCompanions(abs)
			switch {
			case tc.why == "" && err != nil:
				t.Errorf("checkCompanions: %v, want nil", err)
			case tc.why != "" && (!errors.Is(err, ErrForeignFile) || !strings.Contains(err.Error(), abs+"-wal "+tc.why)):
				t.Errorf("checkCompanions: %v, want ErrForeignFile saying %q", err, tc.why)
			}
		})
	}
}

// TestLockReplacesAnOpenLockFile takes the lock of a catalog whose lock
// file an older version left readable by every user, while a descriptor
// of it, opened before, holds an exclusive flock: Lock must succeed, on a
// new file of mode 0600 in its place.
func TestLockReplacesAnOpenLockFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.db"+catalogfile.Lock)
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0o644)
	old, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if err := syscall.Flock(int(old.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	release, err := Lock(path)
	if err != nil {
		t.Fatalf("Lock beside a held 0644 lock file: %v", err)
	}
	defer release()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("the lock file's mode is %v, want -rw-------", fi.Mode())
	}
	if _, err := Lock(path); !errors.Is(err, ErrBusy) {
		t.Errorf("a second Lock: %v, want ErrBusy", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("Lock left %v", left)
	}
}

// TestLockMode checks that the lock file opens for those who may write
// the catalog, and only for them, as its mode changes.
func TestLockMode(t *testing.T) {
	dir := t.TempDir()
	abs := filepath.Join(dir, "c.db")
	if err := os.WriteFile(abs, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ catalog, lock os.FileMode }{
		{0o644, 0o600}, {0o664, 0o660}, {0o666, 0o666}, {0o644, 0o600},
	} {
		os.Chmod(abs, tc.catalog)
		release, err := Lock(abs + catalogfile.Lock)
		if err != nil {
			t.Fatal(err)
		}
		release()
		fi, err := os.Stat(abs + catalogfile.Lock)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != tc.lock {
			t.Errorf("catalog %v: lock file %v, want %v", tc.catalog, fi.Mode().Perm(), tc.lock)
		}
	}
}

// TestLockReplacementExcludes has two Locks race to replace the same old
// 0644 lock file, round after round: at most one may hold the lock, as
// two builds of a catalog made by an earlier version would otherwise both
// write it.
func TestLockReplacementExcludes(t *testing.T) {
	dir := t.TempDir()
	abs := filepath.Join(dir, "c.db")
	if err := os.WriteFile(abs, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	path := abs + catalogfile.Lock
	both := 0
	for round := range 200 {
		os.Remove(path)
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chmod(path, 0o644)
		start := make(chan struct{})
		var tried, done sync.WaitGroup
		var held atomic.Int32
		tried.Add(2)
		for range 2 {
			done.Go(func() {
				<-start
				release, err := Lock(path)
				if err == nil {
					held.Add(1)
				} else if !errors.Is(err, ErrBusy) {
					t.Errorf("round %d: %v", round, err)
				}
				tried.Done()
				tried.Wait() // hold the lock until both have tried
				if err == nil {
					release()
				}
			})
		}
		close(start)
		done.Wait()
		if held.Load() > 1 {
			both++
		}
	}
	if both > 0 {
		t.Errorf("in %d of 200 rounds both Locks held the lock at once", both)
	}
}
