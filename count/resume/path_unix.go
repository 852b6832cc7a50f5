//go:build unix

package resume

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// maxLinks bounds the symbolic links followed on a state's path, as the
// kernel's ELOOP does.
const maxLinks = 40

// securePath checks that no user but this one and root can change where
// the state file at path is, and makes its missing directories (0755) as
// it goes, one at a time, so that each is known to be this user's. It
// walks the path from the root, following symbolic links, and returns an
// error of one line naming the first thing another user controls: a
// directory owned by another user, a directory that others may write
// (group or other write bit, as OpenSSH's StrictModes reads them) unless
// the sticky bit keeps them from replacing this user's entries, a
// symbolic link in a directory others may write, or a state file that
// another user owns. Nothing is read or written before it returns nil.
func securePath(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("state file %s: %w", path, err)
	}
	refuse := func(format string, args ...any) error {
		return fmt.Errorf("state file %s: %s: give the count a state file whose directories only you and root can change", path, fmt.Sprintf(format, args...))
	}
	me := os.Geteuid()
	trusted := func(fi fs.FileInfo) (int, bool) {
		uid := int(fi.Sys().(*syscall.Stat_t).Uid)
		return uid, uid == 0 || uid == me
	}
	// openToOthers reports whether users other than its owner may add,
	// remove or rename the entries of the directory fi.
	openToOthers := func(fi fs.FileInfo) bool { return fi.Mode().Perm()&0o022 != 0 }

	cur := "/"
	fi, err := os.Lstat(cur)
	if err != nil {
		return fmt.Errorf("state file %s: %w", path, err)
	}
	curInfo := fi
	if _, ok := trusted(fi); !ok || openToOthers(fi) && fi.Mode()&fs.ModeSticky == 0 {
		return refuse("/ can be changed by other users")
	}
	todo := strings.Split(strings.TrimPrefix(filepath.Clean(abs), "/"), "/")
	links := 0
	for len(todo) > 0 {
		name := todo[0]
		last := len(todo) == 1
		if name == "" || name == "." {
			todo = todo[1:]
			continue
		}
		if name == ".." {
			// cur holds no link: its parent is its lexical one.
			cur, todo = filepath.Dir(cur), todo[1:]
			if curInfo, err = os.Lstat(cur); err != nil {
				return fmt.Errorf("state file %s: %w", path, err)
			}
			continue
		}
		next := filepath.Join(cur, name)
		fi, err := os.Lstat(next)
		switch {
		case errors.Is(err, fs.ErrNotExist) && last:
			return nil // the state file is made with O_EXCL in cur
		case errors.Is(err, fs.ErrNotExist):
			if err := os.Mkdir(next, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return &createError{fmt.Errorf("state file: %w", err)}
			}
			continue // look at what is there now
		case err != nil:
			// A file where a directory should be, or one this user may
			// not search: the open says so.
			return nil
		}
		sticky := curInfo.Mode()&fs.ModeSticky != 0
		uid, ok := trusted(fi)
		switch {
		case fi.Mode()&fs.ModeSymlink != 0 && last:
			return nil // refused by the open as no state file
		case fi.Mode()&fs.ModeSymlink != 0 && openToOthers(curInfo):
			return refuse("%s is a symbolic link in %s, which other users can change", next, cur)
		case fi.Mode()&fs.ModeSymlink != 0:
			if links++; links > maxLinks {
				return refuse("too many symbolic links")
			}
			target, err := os.Readlink(next)
			if err != nil {
				return fmt.Errorf("state file %s: %w", path, err)
			}
			if filepath.IsAbs(target) {
				cur = "/"
				if curInfo, err = os.Lstat(cur); err != nil {
					return fmt.Errorf("state file %s: %w", path, err)
				}
			}
			todo = append(strings.Split(target, "/"), todo[1:]...)
			continue
		case !ok:
			return refuse("%s belongs to uid %d", next, uid)
		case openToOthers(curInfo) && !sticky:
			// cur reached by ".." or a link to /, not checked as it
			// was entered.
			return refuse("%s can be changed by other users (mode %s, no sticky bit)", cur, curInfo.Mode())
		case last || !fi.IsDir():
			return nil
		case openToOthers(fi) && fi.Mode()&fs.ModeSticky == 0:
			return refuse("%s can be changed by other users (mode %s, no sticky bit)", next, fi.Mode())
		}
		cur, curInfo, todo = next, fi, todo[1:]
	}
	return nil
}
