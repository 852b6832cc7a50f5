// Package store is the SQLite catalog of N-Queens classes: it opens (and
// creates, and migrates) catalog files, records builds as they progress,
// and reads classes and counts back. It is the only package that knows
// database/sql, sqlx and the SQLite driver (modernc.org/sqlite, pure Go).
//
// A catalog holds, per board size n, a row in builds (counts, whether the
// build completed, how far it got) and one row per class in classes (the
// canonical placement as a string of base-32 digits, and the orbit size).
// The schema is in the migrations package and is applied with goose when a
// catalog is opened.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/pressly/goose/v3"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/nqueens/nqueens/migrations"
)

// ApplicationID is the SQLite application_id that marks a file as an
// nqueens catalog: the bytes "NQcT".
const ApplicationID = 0x4e516354

// Errors callers branch on. Errors returned by this package wrap them, so
// check with errors.Is.
var (
	// ErrNoCatalog: the file does not exist and Open was not asked to
	// create it.
	ErrNoCatalog = errors.New("no catalog")
	// ErrNotCatalog: the file is not a SQLite database, or is one that is
	// not an nqueens catalog. The file is left untouched.
	ErrNotCatalog = errors.New("not an nqueens catalog")
	// ErrNewerSchema: the catalog was written by a newer nqueens whose
	// schema this one does not know. The file is left untouched.
	ErrNewerSchema = errors.New("catalog schema is newer than this program")
	// ErrCorrupt: SQLite reports the file damaged or truncated.
	ErrCorrupt = errors.New("catalog file is damaged")
	// ErrBusy: another process holds the lock the operation needs.
	ErrBusy = errors.New("catalog is busy")
	// ErrReadOnly: the catalog cannot be written.
	ErrReadOnly = errors.New("catalog is read-only")
	// ErrDiskFull: the disk holding the catalog is full.
	ErrDiskFull = errors.New("disk is full")
	// ErrIO: reading or writing the catalog file failed, as writing past
	// a file-size limit or to a failing disk does.
	ErrIO = errors.New("catalog i/o failed (disk full, or over a file-size limit?)")
	// ErrNotBuilt: the catalog holds no build of the requested n.
	ErrNotBuilt = errors.New("not in the catalog")
	// ErrComplete: the requested n is already completely built.
	ErrComplete = errors.New("already built")
	// ErrOrphans: the catalog holds classes of an n with no record of
	// their build (its builds row was deleted by hand), which a build
	// cannot account for. The error says how to remove them.
	ErrOrphans = errors.New("classes with no build")
	// ErrShardMismatch: the catalog holds a build of n for another shard
	// (or whole, or as a shard) than asked for.
	ErrShardMismatch = errors.New("shard mismatch")
)

// translate maps a driver error to this package's sentinels by SQLite
// result code, keeping the driver's text for context. Other errors pass
// through unchanged.
func translate(err error) error {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return err
	}
	var kind error
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_NOTADB:
		kind = ErrNotCatalog
	case sqlite3.SQLITE_CORRUPT:
		kind = ErrCorrupt
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		kind = ErrBusy
	case sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM, sqlite3.SQLITE_CANTOPEN:
		kind = ErrReadOnly
	case sqlite3.SQLITE_FULL:
		kind = ErrDiskFull
	case sqlite3.SQLITE_IOERR:
		kind = ErrIO
	default:
		return err
	}
	// The driver names extended codes it knows; the primary code's name
	// stands in for the others, so a message never ends in a colon.
	name := sqlite.ErrorCodeString[se.Code()]
	if name == "" {
		name = sqlite.ErrorCodeString[se.Code()&0xff]
	}
	if name == "" {
		return fmt.Errorf("%w (SQLite code %d)", kind, se.Code())
	}
	return fmt.Errorf("%w: %s", kind, name)
}

// latestVersion returns the highest migration version embedded.
func latestVersion() int64 {
	var v int64
	entries, _ := migrations.FS.ReadDir(".")
	for _, e := range entries {
		var k int64
		if _, err := fmt.Sscanf(e.Name(), "%d_", &k); err == nil && k > v {
			v = k
		}
	}
	return v
}

// migrate applies the embedded migrations that db lacks.
func migrate(ctx context.Context, db *sql.DB) error {
	p, err := goose.NewProvider(goose.DialectSQLite3, db, migrations.FS, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrate schema: %w", translate(unwrapPartial(err)))
	}
	return nil
}

// unwrapPartial returns the underlying error of goose's PartialError.
func unwrapPartial(err error) error {
	var pe *goose.PartialError
	if errors.As(err, &pe) && pe.Err != nil {
		return pe.Err
	}
	return err
}

// Path returns the absolute path of the catalog file.
func (db *DB) Path() string { return db.path }

// Close closes the catalog.
func (db *DB) Close() error {
	return db.db.Close()
}

// Files returns the paths of the files that make up the catalog at path:
// the catalog itself, SQLite's write-ahead log and its index (-wal,
// -shm), its rollback journal (-journal), and the build lock (.lock),
// spelled as path is and, when path is or passes through a symbolic link,
// as the file it leads to is (where Open puts them). None of them may be
// overwritten by anything but the store; a caller writing an output file
// refuses any of these (compare with os.SameFile where the file exists, as
// one file has many spellings).
func Files(path string) []string {
	files := func(p string) []string {
		return []string{p, p + "-wal", p + "-shm", p + "-journal", p + lockSuffix}
	}
	out := files(path)
	if abs, err := resolve(path); err == nil && abs != path {
		out = append(out, files(abs)...)
	}
	return out
}

// lockSuffix names the build lock beside a catalog.
const lockSuffix = ".lock"
