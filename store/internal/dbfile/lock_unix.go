//go:build unix

package dbfile

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// Lock takes an exclusive advisory lock on the file at path, creating
// it if needed, without waiting: it returns an error wrapping ErrBusy if
// another process (or another Builder of this one) holds it. The lock goes
// away with the process, however it ends. The returned func releases it
// at once, even while a child process forked meanwhile still holds a copy
// of the lock file's descriptor (until it execs).
func Lock(path string) (func(), error) { return flock(path, syscall.LOCK_EX) }

// LockShared takes a shared lock on the file at path as Lock takes an
// exclusive one: any number of processes hold it at once, and none while
// one holds the exclusive lock.
func LockShared(path string) (func(), error) { return flock(path, syscall.LOCK_SH) }

// CanLock says that Lock's locks hold between processes here.
const CanLock = true

func flock(path string, how int) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if errors.Is(err, os.ErrPermission) {
		// Another user's lock file: a lock needs only to read it.
		f, err = os.Open(path)
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: another build is writing to this catalog (lock %s)", ErrBusy, path)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() {
		// Closing alone would leave the lock to any copy of f a fork made.
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// NoHardLinks reports whether err, from os.Link, says that the file system
// has no hard links.
func NoHardLinks(err error) bool {
	return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.ENOTSUP)
}

// Access checks that this process may write the file (or create files in
// the directory) at path, and says why not: "permission denied (mode
// -rw-r--r--, owner uid 1000)", "read-only file system".
func Access(path string) error {
	err := syscall.Access(path, 2) // W_OK
	if err == nil {
		return nil
	}
	if errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM) {
		if st, serr := os.Stat(path); serr == nil {
			if sys, ok := st.Sys().(*syscall.Stat_t); ok {
				return fmt.Errorf("%v (mode %v, owner uid %d, you are uid %d)", err, st.Mode().Perm(), sys.Uid, os.Geteuid())
			}
		}
	}
	return err
}
