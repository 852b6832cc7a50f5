//go:build unix

package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOutputDevice exports and solves to a null device: it is written
// through and stays a device. As root the device is a copy made in a
// temporary directory, so that a regression replaces that one and not
// /dev/null, which only root could replace.
func TestOutputDevice(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	null := "/dev/null"
	if os.Geteuid() == 0 {
		null = filepath.Join(dir, "null")
		if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
			t.Skip("mknod:", err)
		}
	} else if _, err := os.Stat(null); err != nil {
		t.Skip("no /dev/null")
	}
	db := filepath.Join(dir, "c.db")
	for _, args := range [][]string{
		{"--db", db, "-q", "build", "6"},
		{"--db", db, "export", "6", "--all", "-o", null},
		{"solve", "100", "-o", null},
	} {
		if _, _, err := runCLI(t, args...); err != nil {
			t.Fatalf("nqueens %v: %v", args, err)
		}
		if fi, err := os.Lstat(null); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
			t.Fatalf("nqueens %v: %s is now %v, %v; want a character device", args, null, fi.Mode(), err)
		}
	}
}
