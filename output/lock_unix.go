//go:build unix

package output

import (
	"io/fs"
	"os"
	"strings"
	"syscall"
)

// closeBeforeRename is false: closing the temporary file releases its
// flock, so it is renamed first, still locked.
const closeBeforeRename = false

// lock takes an exclusive flock on f without waiting, reporting whether it
// got it. The lock goes away with the process, however it ends.
func lock(f *os.File) bool {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}

// removeStale removes the files in dir (a directory prefix, "" for the
// working directory) named prefix+anything whose flock it can take: the
// temporary files of writers that died. Errors are ignored: a file left is
// only clutter.
func removeStale(dir, prefix string) {
	d := dir
	if d == "" {
		d = "."
	}
	entries, err := os.ReadDir(d)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), prefix) || e.Type()&fs.ModeType != 0 {
			continue
		}
		name := dir + e.Name()
		f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
		if err != nil {
			continue
		}
		if lock(f) && stillNamed(f, name) {
			os.Remove(name)
		}
		f.Close()
	}
}

// keepOwner gives f the owner and group of old, where the process may.
func keepOwner(f *os.File, old fs.FileInfo) {
	st, ok := old.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	if now, err := f.Stat(); err == nil {
		if cur, ok := now.Sys().(*syscall.Stat_t); ok && cur.Uid == st.Uid && cur.Gid == st.Gid {
			return
		}
	}
	f.Chown(int(st.Uid), int(st.Gid))
}
