//go:build unix

package dbfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/nqueens/nqueens/internal/catalogfile"
)

// checkCompanions checks, without following links, the files SQLite keeps
// beside the catalog at abs (its -wal, -shm and -journal), and returns an
// error wrapping ErrForeignFile, naming the file, its owner and the way
// to get the catalog back, for one that is not a plain file of the
// catalog's owner (or of this process's user) with one link: SQLite
// writes what a log or a journal holds into the catalog, so a log another
// user put beside it would rewrite the catalog on its owner's next
// command. A file missing is fine, as is a catalog missing (the caller
// says so). Writers refuse a catalog it refuses; readers read it without
// its companion files where that is safe (see foreignMode).
func checkCompanions(abs string) error { return survey(abs).first }

// companionFiles is what lies beside a catalog where SQLite looks for
// its companion files.
type companionFiles struct {
	trusted map[string]bool  // suffix: a plain file of the owner's is there
	foreign map[string]error // suffix: the file there is refused, and why
	first   error            // the first refused, in the order of companions
}

// survey looks, without following links or opening anything, at the
// companion files of the catalog at abs.
func survey(abs string) companionFiles {
	s := companionFiles{trusted: map[string]bool{}, foreign: map[string]error{}}
	cat, err := os.Lstat(abs)
	if err != nil {
		return s
	}
	owner := cat.Sys().(*syscall.Stat_t).Uid
	for _, suffix := range companions {
		fi, err := os.Lstat(abs + suffix)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			err = fmt.Errorf("%w: %s: %v", ErrForeignFile, abs+suffix, err)
		} else {
			err = trusted(abs+suffix, fi, owner)
		}
		if err == nil {
			s.trusted[suffix] = true
			continue
		}
		s.foreign[suffix] = err
		if s.first == nil {
			s.first = err
		}
	}
	return s
}

// foreignMode returns how to read the catalog at abs, whose header is h,
// beside the refused companion files s holds, or the error of the first
// where no read is safe. Such a file is never opened: SQLite would read
// what it holds into the pages it returns (a -wal or -shm), or roll a
// -journal into the catalog. The catalog is read as an immutable file, its
// companions unseen, where nothing of it lies elsewhere: no log of the
// owner's (a writer has it open, or was killed with writes in it) and no
// journal of a write left unfinished. Beside a log of the owner's and a
// refused -journal alone it is read read-only through the log, which
// never rolls a journal into the catalog. Otherwise it is not read.
func foreignMode(abs string, h fileHeader, s companionFiles) (mode, error) {
	switch {
	case s.trusted[catalogfile.Journal] && hotJournal(abs):
		return 0, fmt.Errorf("%w (and %s-journal holds a write that a killed process left unfinished, which only a writer may roll back)", s.first, abs)
	case s.trusted[catalogfile.WAL] && s.foreign[catalogfile.WAL] == nil && s.foreign[catalogfile.SHM] == nil:
		return readOnly, nil
	case s.trusted[catalogfile.WAL]:
		return 0, s.first
	}
	return immutable, nil
}

// companions are the suffixes of the files SQLite keeps beside a catalog.
var companions = []string{catalogfile.WAL, catalogfile.SHM, catalogfile.Journal}

// trusted returns nil if the file at path, whose Lstat is fi, is a plain
// file with one link owned by owner (the catalog's) or by this process's
// user, and an error wrapping ErrForeignFile that says what it is, and
// how to get the catalog back, otherwise.
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
	return fmt.Errorf("%w: %s %s; SQLite would write what it holds into the catalog, so the catalog is read without it and never written beside it: %s", ErrForeignFile, path, why, wayBack(path))
}

// wayBack says how the owner of a catalog gets it back from beside a file
// at path that another user may have put there: removing the file where
// this process may, and otherwise asking root to, or using a copy of the
// catalog in a directory only the owner can write.
func wayBack(path string) string {
	const copy = "copy the catalog (cp) to a directory only you can write and use the copy"
	dir, err := os.Stat(filepath.Dir(path))
	fi, ferr := os.Lstat(path)
	if err == nil && ferr == nil && dir.Mode()&os.ModeSticky != 0 && os.Geteuid() != 0 {
		uid := uint32(os.Geteuid())
		if fi.Sys().(*syscall.Stat_t).Uid != uid && dir.Sys().(*syscall.Stat_t).Uid != uid {
			return "only its owner or root may remove it from this sticky directory: ask root to, or " + copy
		}
	}
	return "remove it if you did not make it, or " + copy
}

// OthersWrite reports whether users other than this process's may
// create files in the directory dir (its mode lets its group or everyone
// write, sticky or not), and returns its mode: any of them could put a
// file beside a catalog there that keeps the catalog's writers out (see
// ErrForeignFile).
func OthersWrite(dir string) (os.FileMode, bool) {
	fi, err := os.Stat(dir)
	if err != nil {
		return 0, false
	}
	return fi.Mode(), fi.Mode().Perm()&0o022 != 0
}

// oneName returns nil unless the catalog file at abs has names other than
// abs (hard links, as ln and cp -al make), and otherwise an error
// wrapping ErrNames that says how many and the way out. The build lock
// and SQLite's log are named after the path, so two processes writing
// the file through two names would each take their own lock and keep
// their own log, and the catalog would lose what one of them wrote: a
// catalog is written through one name only. The temporary name from
// which Create links a new catalog into place, there for an instant
// after, is not counted.
func oneName(abs string) error {
	for try := 1; ; try++ {
		fi, err := os.Lstat(abs)
		if err != nil || !fi.Mode().IsRegular() {
			return nil // the open says what it is
		}
		links := fi.Sys().(*syscall.Stat_t).Nlink
		if links <= 1 {
			return nil
		}
		names := links
		for _, tmp := range stale(abs) {
			if t, err := os.Lstat(tmp); err == nil && os.SameFile(t, fi) {
				names--
			}
		}
		if names <= 1 {
			return nil
		}
		// A temporary name removed between the count and the look at the
		// directory shows as a change in the count: look again.
		now, err := os.Lstat(abs)
		if try == 3 || (err == nil && os.SameFile(now, fi) && now.Sys().(*syscall.Stat_t).Nlink == links) {
			base := filepath.Base(abs)
			return fmt.Errorf("%w: %s is one file with %d names (hard links, as ln and cp -al make); write a copy (cp %s NEW.db, not cp -al or ln), or remove its other names", ErrNames, abs, names, base)
		}
	}
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
// companion files are its owner's: it checks them as checkCompanions does,
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
			return func() {}, fmt.Errorf("%w: %s is a symbolic link; SQLite would write what it holds into the catalog, so the catalog is read without it and never written beside it: %s", ErrForeignFile, path, wayBack(path))
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
		if created && suffix == catalogfile.Journal {
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
