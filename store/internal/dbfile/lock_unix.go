//go:build unix

package dbfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/nqueens/nqueens/internal/catalogfile"
)

// Lock takes an exclusive advisory lock on the file at path (the
// catalog's path and catalogfile.Lock), creating it if needed, without waiting:
// it returns an error wrapping ErrBusy if another process (or another
// Builder of this one) holds it, and one wrapping ErrNames, holding
// nothing, if the catalog has other names (see oneName). The lock goes away with the process,
// however it ends. The returned func releases it at once, even while a
// child process forked meanwhile still holds a copy of the lock file's
// descriptor (until it execs).
//
// Only the users who may write the catalog can open its lock file (see
// lockMode): flock needs no more than a descriptor open for reading, so a
// lock file others could read would let any of them block every build.
// A lock file that grants more (0644, as the catalogs of nqueens before
// v0.9.0 have), or that is not a plain file of the catalog's owner, is
// replaced by a new one before it is used, so a descriptor of it that
// another user opened before locks nothing that counts. The replacing
// process holds the old file's lock while it renames the new one into
// place, and replaces only the file still at path, so two builds that
// find the same old file exclude each other; a lock of the old file held
// longer than replaceWait (another user's, or a running build of an
// earlier version) does not stop the replacement.
func Lock(path string) (func(), error) { return flock(path, syscall.LOCK_EX) }

// lockShared takes a shared lock on the file at path as Lock takes an
// exclusive one: any number of processes hold it at once, and none while
// one holds the exclusive lock.
func lockShared(path string) (func(), error) { return flock(path, syscall.LOCK_SH) }

// canLock says that Lock's locks hold between processes here.
const canLock = true

func flock(path string, how int) (func(), error) {
	for range 10 {
		f, err := openLock(path)
		if errors.Is(err, errReplaced) {
			continue // another process replaced it first: lock the new one
		} else if err != nil {
			return nil, err
		}
		if err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, fmt.Errorf("%w: another build is writing to this catalog (lock %s)", ErrBusy, path)
			}
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		release := func() {
			// Closing alone would leave the lock to any copy of f a fork made.
			syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
			f.Close()
		}
		// The lock counts only while path leads to the file locked: another
		// process may have replaced an unsafe lock file meanwhile.
		held, err := f.Stat()
		now, lerr := os.Lstat(path)
		if err == nil && lerr == nil && os.SameFile(held, now) {
			// A writer holds the lock exclusively: the catalog must have no
			// other name, through which another writer would take another
			// lock (see oneName).
			if how == syscall.LOCK_EX {
				if err := oneName(strings.TrimSuffix(path, catalogfile.Lock)); err != nil {
					release()
					return nil, err
				}
			}
			return release, nil
		}
		release()
	}
	return nil, fmt.Errorf("%w: the lock file %s keeps changing", ErrBusy, path)
}

// errReplaced is openLock's error when the unsafe lock file it would
// replace was replaced by another process meanwhile.
var errReplaced = errors.New("the lock file was replaced")

// replaceWait is how long openLock waits for the lock of an unsafe lock
// file before it replaces the file all the same: another build of this
// version holds it only while it replaces the file, for microseconds.
const replaceWait = 100 * time.Millisecond

// openLock opens the lock file at path for reading and writing, creating
// it with lockMode's mode, or replacing it (see Lock) where it is not
// safe. It returns errReplaced if another process replaced the unsafe
// file first.
func openLock(path string) (*os.File, error) {
	owner, gid, mode := lockMode(strings.TrimSuffix(path, catalogfile.Lock))
	const flags = os.O_RDWR | syscall.O_NOFOLLOW | syscall.O_NONBLOCK
	f, err := os.OpenFile(path, flags|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		own(f, owner, gid, mode)
		return f, nil
	}
	if errors.Is(err, fs.ErrExist) {
		f, err = os.OpenFile(path, flags, 0)
	}
	switch {
	case err == nil:
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		st := fi.Sys().(*syscall.Stat_t)
		if fi.Mode().IsRegular() && st.Nlink == 1 && (st.Uid == owner || int(st.Uid) == os.Geteuid()) && fi.Mode().Perm()&^mode == 0 {
			if fi.Mode().Perm() != mode && int(st.Uid) == os.Geteuid() {
				f.Chmod(mode) // the catalog's writers grew: they may open it too
			}
			return f, nil
		}
		// Replace it holding its lock, if it is still the lock file.
		defer f.Close()
		for deadline := time.Now().Add(replaceWait); syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
		if now, err := os.Lstat(path); err != nil || !os.SameFile(fi, now) {
			return nil, errReplaced
		}
	case errors.Is(err, syscall.ELOOP), errors.Is(err, syscall.ENXIO):
		// A symbolic link, or a socket: replaced as an unsafe file is.
	case errors.Is(err, fs.ErrPermission):
		way := ""
		if fi, serr := os.Lstat(path); serr == nil && fi.Sys().(*syscall.Stat_t).Uid != owner {
			way = "; another user may have put it there: " + wayBack(path)
		}
		return nil, fmt.Errorf("lock %s: %w (%s): the build lock opens only for users who may write the catalog%s", path, err, describe(path), way)
	default:
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return replaceLock(path, owner, gid, mode)
}

// replaceLock puts a new lock file of the catalog's owner with mode in
// place of the one at path, and returns it open.
func replaceLock(path string, owner, gid uint32, mode os.FileMode) (*os.File, error) {
	dir, base := filepath.Split(path)
	f, err := os.CreateTemp(dir, "."+base+".new-*")
	if err != nil {
		return nil, fmt.Errorf("lock %s: replace the lock file, which %s: %w", path, describe(path), err)
	}
	own(f, owner, gid, mode)
	if err := os.Rename(f.Name(), path); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("lock %s: the lock file %s and cannot be replaced (%v): %s", path, describe(path), pathError(err), wayBack(path))
	}
	return f, nil
}

// own gives the new lock file f its mode, whatever the umask, and the
// catalog's owner, should root make it.
func own(f *os.File, owner, gid uint32, mode os.FileMode) {
	f.Chmod(mode)
	if os.Geteuid() == 0 && owner != 0 {
		f.Chown(int(owner), int(gid))
	}
}

// lockMode returns the owner (and group) a lock file of the catalog at
// abs should have, and the mode that lets open it only those who may
// write the catalog: read and write for each class of users (owner,
// group, others) that the catalog's mode lets write. Without a catalog
// yet, it is this process's user's, mode 0600.
func lockMode(abs string) (owner, gid uint32, mode os.FileMode) {
	fi, err := os.Stat(abs)
	if err != nil {
		return uint32(os.Geteuid()), uint32(os.Getegid()), 0o600
	}
	st := fi.Sys().(*syscall.Stat_t)
	mode = 0o600
	if fi.Mode()&0o020 != 0 {
		mode |= 0o060
	}
	if fi.Mode()&0o002 != 0 {
		mode |= 0o006
	}
	return st.Uid, st.Gid, mode
}

// describe says what the file at path is, for a lock file's error: "is
// owned by uid 65534 (nobody), mode -rw-r--r--, 1 link".
func describe(path string) string {
	fi, err := os.Lstat(path)
	if err != nil {
		return "cannot be read: " + err.Error()
	}
	st := fi.Sys().(*syscall.Stat_t)
	return fmt.Sprintf("is owned by %s, mode %v, %d link(s)", userName(st.Uid), fi.Mode(), st.Nlink)
}

// noHardLinks reports whether err, from os.Link, says that the file system
// has no hard links.
func noHardLinks(err error) bool {
	return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.ENOTSUP)
}

// access checks that this process may write the file (or create files in
// the directory) at path, and says why not: "permission denied (mode
// -rw-r--r--, owner uid 1000)", "read-only file system".
func access(path string) error {
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
