//go:build unix

package resume

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// lock takes an exclusive flock on f without waiting. It reports whether
// another open file holds it, and the process that holds it where
// /proc/locks says (0 if it does not).
func lock(f *os.File) (held bool, pid int, err error) {
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	switch {
	case err == nil:
		return false, 0, nil
	case errors.Is(err, syscall.EWOULDBLOCK):
		return true, holder(f), nil
	}
	return false, 0, err
}

// holder returns the process that holds a flock on f, as /proc/locks
// says, or 0 if it does not say.
func holder(f *os.File) int {
	fi, err := f.Stat()
	if err != nil {
		return 0
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0
	}
	dev := uint64(st.Dev)
	// Linux's encoding of a device number (major:minor, in hex in
	// /proc/locks) and the inode.
	major := (dev>>8)&0xfff | (dev>>32)&^0xfff
	minor := dev&0xff | (dev>>12)&^0xff
	want := fmt.Sprintf("%02x:%02x:%d", major, minor, st.Ino)
	locks, err := os.Open("/proc/locks")
	if err != nil {
		return 0
	}
	defer locks.Close()
	sc := bufio.NewScanner(locks)
	for sc.Scan() {
		// "1: FLOCK  ADVISORY  WRITE 17776 fe:00:9980150 0 EOF"; a waiter
		// has "->" after the number.
		f := strings.Fields(sc.Text())
		if len(f) < 6 || f[1] != "FLOCK" || f[5] != want {
			continue
		}
		if pid, err := strconv.Atoi(f[4]); err == nil {
			return pid
		}
	}
	return 0
}

// noFollow and noBlock are the flags of an open that neither follows a
// symbolic link nor waits for a FIFO's other end.
const (
	noFollow = syscall.O_NOFOLLOW
	noBlock  = syscall.O_NONBLOCK
)
