// Package dbfile is the catalog's file on disk, below SQLite: the path it
// really is once symbolic links are followed, what its header says, the
// advisory build lock beside it, whether this process may write it, and
// the temporary files from which a new catalog is linked into place whole;
// and, once open, the Handle the store reads and writes it through.
package dbfile

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nqueens/nqueens/internal/catalogfile"
)

// Errors the store wraps and re-exports under the same names.
var (
	// ErrNotCatalog: the file is not a SQLite database, or is one that is
	// not an nqueens catalog. The file is left untouched.
	ErrNotCatalog = errors.New("not an nqueens catalog")
	// ErrCorrupt: SQLite reports the file damaged or truncated.
	ErrCorrupt = errors.New("catalog file is damaged")
	// ErrBusy: another process holds the lock the operation needs.
	ErrBusy = errors.New("catalog is busy")
	// ErrReadOnly: the catalog cannot be written.
	ErrReadOnly = errors.New("catalog is read-only")
	// ErrHotJournal: the catalog's rollback journal holds a write that a
	// killed process left unfinished, which only a process that may write
	// the catalog (its owner) can roll back, and this one may not, so it
	// cannot read the catalog either. It reads as ErrReadOnly and wraps
	// it, so errors.Is matches both.
	ErrHotJournal = fmt.Errorf("%w", ErrReadOnly)
	// ErrNoCatalog: the file does not exist and Open was not asked to
	// create it.
	ErrNoCatalog = errors.New("no catalog")
	// ErrEmptyCatalog: the file exists but is empty, or is an empty
	// SQLite database, so it holds no catalog yet. It reads as
	// ErrNoCatalog and wraps it, so errors.Is matches both.
	ErrEmptyCatalog = fmt.Errorf("%w", ErrNoCatalog)
	// ErrNewerSchema: the catalog was written by a newer nqueens whose
	// schema this one does not know. The file is left untouched.
	ErrNewerSchema = errors.New("catalog schema is newer than this program")
	// ErrDiskFull: the disk holding the catalog is full.
	ErrDiskFull = errors.New("disk is full")
	// ErrForeignFile: a file beside the catalog that SQLite would read
	// into it (its -wal, -shm or -journal) is not a plain file of the
	// catalog's owner with one link, so another user may have put it
	// there to rewrite the catalog. A writer refuses the catalog; a
	// reader refuses it only where it cannot be read without that file
	// (see foreignMode). The file is never opened; it and the catalog are
	// left as they are.
	ErrForeignFile = errors.New("refusing a file beside the catalog")
	// ErrNames: the catalog file has other names (hard links), and a
	// catalog is written through one name only, so that no two writers
	// write it through two (see oneName).
	ErrNames = errors.New("refusing to write a catalog with several names")
	// ErrIO: reading or writing the catalog file failed, as writing past
	// a file-size limit or to a failing disk does.
	ErrIO = errors.New("catalog i/o failed (disk full, or over a file-size limit?)")
)

// Files returns the paths of the files that make up the catalog at path:
// the catalog itself, then each file beside it (catalogfile.Suffixes:
// SQLite's write-ahead log and its index, its rollback journal, and the
// build lock), spelled as path is and, when path is or passes through a
// symbolic link, as the file it leads to is.
func Files(path string) []string {
	files := func(p string) []string {
		out := []string{p}
		for _, suffix := range catalogfile.Suffixes() {
			out = append(out, p+suffix)
		}
		return out
	}
	out := files(path)
	if abs, err := Resolve(path); err == nil && abs != path {
		out = append(out, files(abs)...)
	}
	return out
}

// Resolve returns the absolute path that path leads to once every symbolic
// link in it is followed, including a last link whose target does not
// exist yet. The directory that holds the result must exist. A ".." is
// taken as the system takes it, after the link before it is followed: the
// path is not cleaned as text first.
func Resolve(path string) (string, error) {
	p := path
	if !filepath.IsAbs(p) {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		p = wd + string(filepath.Separator) + p
	}
	for range 40 {
		dir, base := filepath.Split(p)
		if base == "" || base == "." || base == ".." {
			return filepath.EvalSymlinks(p) // a directory: Open says so
		}
		rdir, err := filepath.EvalSymlinks(dir)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return "", fmt.Errorf("directory %s does not exist", strings.TrimSuffix(dir, string(filepath.Separator)))
			}
			return "", err
		}
		p = filepath.Join(rdir, base) // rdir has no link and no "..", base is a name
		st, err := os.Lstat(p)
		if err != nil || st.Mode()&os.ModeSymlink == 0 {
			return p, nil
		}
		target, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = rdir + string(filepath.Separator) + target
		}
		p = target
	}
	return "", errors.New("too many levels of symbolic links")
}

// fileHeader is what the first 100 bytes of a SQLite file say, with the size
// of the file they were read from.
type fileHeader struct {
	WAL  bool  // the file is in WAL mode: readers need its -shm index
	Size int64 // the file's size in bytes, taken after the header was read
}

// readFileHeader checks, without writing, that the file at abs is a SQLite
// database that is not cut short, and returns its header. An empty file
// has a Header of Size 0 and no error: callers decide what it means.
//
// The size is taken from the open file after its header is read, so that
// another process growing the file in between (a migration, or a
// checkpoint when a writer closes) cannot make the header promise pages
// the size has not seen. While a write is under way, its log or journal
// beside the file, the size says nothing; and should the file look short
// with neither there, a writer may have just finished copying its log
// in and removed it, so the header and size are read again before the
// file is called damaged.
func readFileHeader(abs string) (fileHeader, error) {
	hook("header")
	f, err := os.Open(abs)
	if err != nil {
		return fileHeader{}, err
	}
	defer f.Close()
	for try := 1; ; try++ {
		h, err := readHeader(f)
		if err != nil || h.Size == 0 || live(abs) {
			return h.fileHeader, err
		}
		if err = h.check(); err == nil || try == 3 {
			return h.fileHeader, err
		}
	}
}

// live reports whether a write to the catalog at abs may be under way:
// its log or its journal is there and not empty.
func live(abs string) bool { return size(abs+catalogfile.WAL) > 0 || size(abs+catalogfile.Journal) > 0 }

// header holds the fields of a SQLite header that say how long its file
// must be.
type header struct {
	fileHeader
	pageSize, pages int64
}

// readHeader reads the header of the open file f, then its size.
func readHeader(f *os.File) (header, error) {
	var hdr [100]byte
	_, rerr := f.ReadAt(hdr[:], 0)
	st, err := f.Stat()
	if err != nil {
		return header{}, err
	}
	if st.Size() == 0 {
		return header{}, nil
	}
	if rerr != nil || !catalogfile.IsSQLite(hdr[:]) {
		return header{}, fmt.Errorf("%w: not a SQLite database", ErrNotCatalog)
	}
	pageSize := int64(hdr[16])<<8 | int64(hdr[17])
	if pageSize == 1 {
		pageSize = 65536
	}
	if pageSize < 512 || pageSize&(pageSize-1) != 0 {
		return header{}, fmt.Errorf("%w: bad page size %d in the header", ErrCorrupt, pageSize)
	}
	return header{
		fileHeader: fileHeader{WAL: hdr[18] == 2 || hdr[19] == 2, Size: st.Size()},
		pageSize:   pageSize,
		pages:      int64(hdr[28])<<24 | int64(hdr[29])<<16 | int64(hdr[30])<<8 | int64(hdr[31]),
	}, nil
}

// check reports whether the file's size fits its header: whole pages, at
// least as many as the header counts.
func (h header) check() error {
	switch {
	case h.pages > 0 && h.Size < h.pages*h.pageSize:
		return fmt.Errorf("%w: file is %d bytes, shorter than the %d pages of %d bytes its header promises (truncated)", ErrCorrupt, h.Size, h.pages, h.pageSize)
	case h.Size%h.pageSize != 0:
		return fmt.Errorf("%w: file is %d bytes, %d more than the %d pages of %d bytes its header promises, and not a whole page (something was appended to it)", ErrCorrupt, h.Size, h.Size-h.pages*h.pageSize, h.pages, h.pageSize)
	}
	return nil
}

// size returns the size of the file at path, or -1 if it cannot be
// read.
func size(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return -1
	}
	return st.Size()
}

// hotJournal reports whether a rollback journal lies beside the catalog:
// a write that a killed process left unfinished, which the next writer
// rolls back.
func hotJournal(abs string) bool { return size(abs+catalogfile.Journal) > 0 }

// tempPrefix returns the prefix of the temporary names of a new catalog
// at abs: hidden, beside it.
func tempPrefix(abs string) string {
	dir, base := filepath.Split(abs)
	return filepath.Join(dir, "."+base+".new-")
}

// newTemp creates an empty file under a new temporary name for the
// catalog at abs, with the mode SQLite gives a new database (0644 less the
// umask).
func newTemp(abs string) (string, error) {
	var rnd [8]byte
	rand.Read(rnd[:])
	tmp := tempPrefix(abs) + hex.EncodeToString(rnd[:])
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return "", fmt.Errorf("create: %w", err)
	}
	return tmp, f.Close()
}

// removeStale removes the temporary files that creations of the catalog at
// abs left when killed. It does nothing while any process holds the build
// lock (a creation in progress, or a build), or where there are no locks
// to tell.
func removeStale(abs string) {
	if !canLock || len(stale(abs)) == 0 {
		return
	}
	unlock, err := Lock(abs + catalogfile.Lock)
	if err != nil {
		return
	}
	defer unlock()
	for _, name := range stale(abs) {
		os.Remove(name)
	}
}

// stale returns the paths of the temporary files of new catalogs at abs.
func stale(abs string) []string {
	dir, prefix := filepath.Split(tempPrefix(abs))
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// sync_ flushes the file at path to disk.
func sync_(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// syncDir flushes a directory's entries to disk, where that is possible.
func syncDir(dir string) {
	if f, err := os.Open(dir); err == nil {
		f.Sync()
		f.Close()
	}
}

// withLock runs f holding the lock at path that take takes (Lock or
// lockShared), waiting up to five seconds for another process to release
// it.
func withLock(ctx context.Context, path string, take func(string) (func(), error), f func() error) error {
	deadline := time.Now().Add(5 * time.Second)
	for {
		unlock, err := take(path)
		if err == nil {
			defer unlock()
			return f()
		}
		if !errors.Is(err, ErrBusy) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// writable checks that the catalog at abs can be written: the file, its
// log and index where they exist, and otherwise its directory, where
// SQLite makes them.
func writable(abs string) error {
	for _, f := range []string{abs, abs + catalogfile.WAL, abs + catalogfile.SHM} {
		err := access(f)
		if f != abs && errors.Is(err, os.ErrNotExist) {
			continue // not there (or just removed by the last connection's close)
		}
		if err != nil {
			return fmt.Errorf("%w: cannot write %s: %v", ErrReadOnly, f, err)
		}
	}
	if size(abs+catalogfile.WAL) >= 0 && size(abs+catalogfile.SHM) >= 0 {
		return nil // SQLite needs to create nothing there
	}
	return writableDir(filepath.Dir(abs))
}

// pathError strips the paths from a *os.LinkError, which the caller's
// message names.
func pathError(err error) error {
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// writableDir checks that files can be created in dir.
func writableDir(dir string) error {
	if err := access(dir); err != nil {
		return fmt.Errorf("%w: cannot create files in %s: %v", ErrReadOnly, dir, err)
	}
	return nil
}
