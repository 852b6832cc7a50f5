//go:build unix

package dbfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"strconv"
	"syscall"
)

// Companions checks, without following links, the files SQLite keeps
// beside the catalog at abs (its -wal, -shm and -journal), and returns an
// error wrapping ErrForeignFile, naming the file and its owner, for one
// that is not a plain file of the catalog's owner (or of this process's
// user) with one link: SQLite writes what a log or a journal holds into
// the catalog, so a log another user put beside it would rewrite the
// catalog on its owner's next command. A file missing is fine, as is a
// catalog missing (the caller says so).
func Companions(abs string) error {
	cat, err := os.Lstat(abs)
	if err != nil {
		return nil
	}
	owner := cat.Sys().(*syscall.Stat_t).Uid
	for _, suffix := range companions {
		fi, err := os.Lstat(abs + suffix)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("%w: %s: %v", ErrForeignFile, abs+suffix, err)
		}
		if err := trusted(abs+suffix, fi, owner); err != nil {
			return err
		}
	}
	return nil
}

// companions are the suffixes of the files SQLite keeps beside a catalog.
var companions = []string{"-wal", "-shm", "-journal"}

// trusted returns nil if the file at path, whose Lstat is fi, is a plain
// file with one link owned by owner (the catalog's) or by this process's
// user, and an error wrapping ErrForeignFile that says what it is
// otherwise.
func trusted(path string, fi fs.FileInfo, owner uint32) error {
	st := fi.Sys().(*syscall.Stat_t)
	var why string
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		why = "is a symbolic link"
	case !fi.Mode().IsRegular():
		why = fmt.Sprintf("is not a regular file (%v)", fi.Mode().Type())
	case st.Uid != owner && int(st.Uid) != os.Geteuid():
		why = fmt.Sprintf("is owned by %s, not by the catalog's owner, %s", userName(st.Uid), userName(owner))
	case st.Nlink > 1:
		why = fmt.Sprintf("has %d hard links (owner %s)", st.Nlink, userName(st.Uid))
	default:
		return nil
	}
	return fmt.Errorf("%w: %s %s; SQLite would write what it holds into the catalog: remove it if you did not make it", ErrForeignFile, path, why)
}

// userName returns "uid N (name)", or "uid N" where the name is unknown.
func userName(uid uint32) string {
	id := strconv.FormatUint(uint64(uid), 10)
	if u, err := user.LookupId(id); err == nil && u.Username != "" {
		return "uid " + id + " (" + u.Username + ")"
	}
	return "uid " + id
}

// claim makes sure, before SQLite opens a connection to the catalog at
// abs (in WAL mode) for a process that may write it, that the catalog's
// companion files are its owner's: it checks them as Companions does,
// through the descriptors it opens, and creates those missing as SQLite
// would (the catalog's mode, and its owner where this process is root).
// In a sticky shared directory another user can then neither put a file
// of theirs in their place nor replace them, so no instant lies between
// the check and SQLite's opening of them. The -wal and -shm stay, as
// SQLite keeps them while a connection is open and removes them as the
// last one closes; the next connection claims them again. An empty
// -journal claimed here is only for the connection's first read, after
// which it reads through the log and never looks for a journal again:
// the returned func, which the caller calls once that read is done,
// removes it.
func claim(abs string) (func(), error) {
	done := func() {}
	cat, err := os.Lstat(abs)
	if err != nil {
		return done, nil // the open says so
	}
	st := cat.Sys().(*syscall.Stat_t)
	for _, suffix := range companions {
		path := abs + suffix
		const flags = os.O_RDWR | syscall.O_NOFOLLOW | syscall.O_NONBLOCK
		f, err := os.OpenFile(path, flags|os.O_CREATE|os.O_EXCL, cat.Mode().Perm())
		created := err == nil
		if errors.Is(err, fs.ErrExist) {
			f, err = os.OpenFile(path, flags, 0)
		}
		if errors.Is(err, syscall.ELOOP) {
			done()
			return func() {}, fmt.Errorf("%w: %s is a symbolic link; SQLite would write what it holds into the catalog: remove it if you did not make it", ErrForeignFile, path)
		}
		if err != nil {
			continue // not made here (a read-only mount): SQLite says what it must
		}
		fi, err := f.Stat()
		if err == nil {
			err = trusted(path, fi, st.Uid)
		}
		if err == nil && created {
			// As SQLite makes them: the catalog's mode, whatever the umask,
			// and its owner, should root make them.
			own(f, st.Uid, st.Gid, cat.Mode().Perm())
		}
		f.Close()
		if err != nil {
			done()
			return func() {}, err
		}
		if created && suffix == "-journal" {
			done = func() { removeEmpty(path, fi) }
		}
	}
	return done, nil
}

// removeEmpty removes the file at path if it is still the file fi
// describes, and empty.
func removeEmpty(path string, fi fs.FileInfo) {
	if now, err := os.Lstat(path); err == nil && os.SameFile(now, fi) && now.Size() == 0 {
		os.Remove(path)
	}
}
