package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nqueens/nqueens/internal/catalogfile"
	"github.com/nqueens/nqueens/store/internal/dbfile"
)

// DB is an open catalog. Its methods are safe for concurrent use, but a
// catalog takes one Builder at a time (see Begin).
type DB struct {
	h dbfile.Handle
}

// Options tune Open.
type Options struct {
	// Create makes Open create a new empty catalog when the file does not
	// exist. Without it a missing file is ErrNoCatalog.
	Create bool
	// ReadOnly opens an existing catalog for reading only: nothing is
	// written, migrated or created, not even SQLite's companion files, so
	// a catalog on a read-only mount, in a directory the caller cannot
	// write, or owned by another user can be read. A catalog of an older
	// schema is read as it is. A write that a killed process left
	// unfinished in the catalog's rollback journal is rolled back first
	// where the caller may write the catalog, and is ErrHotJournal where
	// it may not. Builders and Merge refuse such a DB with ErrReadOnly.
	// Create is ignored.
	ReadOnly bool
}

// SharedDir reports whether users other than this process's may create
// files in the directory of the catalog at path (its mode lets its group
// or everyone write, sticky or not), and returns that directory, with
// symbolic links resolved, and its mode. Any of those users could put a
// file beside the catalog that keeps its writers out (see
// ErrForeignFile); a catalog is safe from that only in a directory its
// owner alone can write.
func SharedDir(path string) (dir string, mode os.FileMode, shared bool) {
	abs, err := dbfile.Resolve(path)
	if err != nil {
		return "", 0, false
	}
	dir = filepath.Dir(abs)
	mode, shared = dbfile.OthersWrite(dir)
	return dir, mode, shared
}

// Open opens the catalog at path. Symbolic links in path are resolved once,
// here: the DB, its build lock and SQLite all use the one file they lead
// to.
//
// Unless opts.ReadOnly is set, a file with other names (hard links) is
// ErrNames: a catalog is written through one name only.
//
// A missing file is ErrNoCatalog unless opts.Create is set; then a new
// empty catalog is made under a temporary name beside it and linked into
// place whole, so that path holds either nothing or a complete catalog,
// whenever the process is killed, and concurrent creators all succeed.
// With opts.ReadOnly, an empty file or an empty SQLite database is
// ErrEmptyCatalog, which is ErrNoCatalog too. These errors say what the
// file lacks; the caller says how to make a catalog.
//
// Before touching an existing file Open checks, reading only, that it is a
// SQLite database (ErrNotCatalog), that it is an nqueens catalog or an
// empty database (ErrNotCatalog), that it is not cut short (ErrCorrupt),
// and that its schema is not newer than this program's (ErrNewerSchema);
// in each of those cases the file is left as it was. Unless opts.ReadOnly
// is set, Open then checks that the file and its directory can be written
// (ErrReadOnly, naming the file and the reason), rolls back a write that a
// killed process left unfinished, and migrates an older schema forward,
// one process at a time. The caller must Close the DB.
func Open(ctx context.Context, path string, opts Options) (*DB, error) {
	if path == "" {
		return nil, errors.New("open catalog: empty path")
	}
	if strings.ContainsRune(path, 0) {
		return nil, errors.New("open catalog: path contains a NUL byte")
	}
	abs, err := dbfile.Resolve(path)
	if err != nil {
		return nil, fmt.Errorf("open catalog %s: %w", path, err)
	}
	st, err := os.Stat(abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if !opts.Create || opts.ReadOnly {
			return nil, fmt.Errorf("open catalog %s: %w", path, ErrNoCatalog)
		}
		if err := dbfile.Create(ctx, abs, nil); err != nil {
			return nil, fmt.Errorf("open catalog %s: %w", path, err)
		}
		if _, err := os.Stat(abs); err != nil {
			return nil, fmt.Errorf("open catalog %s: %w", path, err)
		}
	case err != nil:
		return nil, fmt.Errorf("open catalog %s: %w", path, err)
	case st.IsDir():
		return nil, fmt.Errorf("open catalog %s: is a directory", path)
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("open catalog %s: not a regular file", path)
	}
	if opts.ReadOnly {
		h, err := dbfile.OpenRead(ctx, abs)
		if err != nil {
			return nil, fmt.Errorf("open catalog %s: %w", path, err)
		}
		h.Name, h.LockPath = path, abs+catalogfile.Lock
		return &DB{h}, nil
	}
	x, version, err := dbfile.OpenWrite(ctx, abs)
	if err != nil {
		return nil, fmt.Errorf("open catalog %s: %w", path, err)
	}
	return &DB{dbfile.Handle{DB: x, Path: abs, Name: path, Version: version, LockPath: abs + catalogfile.Lock}}, nil
}
