package dbfile

import (
	"errors"
	"io/fs"
	"strings"
	"syscall"
	"testing"
)

// TestFlushError checks the error of a failed flush of a new catalog's
// temporary file: a full disk is ErrDiskFull, any other failure ErrIO,
// each with the system's reason and without the temporary file's name.
func TestFlushError(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want error
		text string
	}{
		{&fs.PathError{Op: "sync", Path: "/d/.c.db.new-1", Err: syscall.ENOSPC}, ErrDiskFull, "disk is full: flush to disk: no space left on device"},
		{&fs.PathError{Op: "sync", Path: "/d/.c.db.new-1", Err: syscall.EIO}, ErrIO, "catalog i/o failed (disk full, or over a file-size limit?): flush to disk: input/output error"},
		{syscall.EDQUOT, ErrIO, "catalog i/o failed (disk full, or over a file-size limit?): flush to disk: disk quota exceeded"},
	} {
		got := flushError(tt.err)
		if !errors.Is(got, tt.want) || got.Error() != tt.text || strings.Contains(got.Error(), ".new-") {
			t.Errorf("flushError(%v) = %q, want %q (%v)", tt.err, got, tt.text, tt.want)
		}
	}
}
