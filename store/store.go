// Package store is the SQLite catalog of N-Queens classes: it opens (and
// creates, and migrates) catalog files, records builds as they progress,
// and reads classes and counts back. It and its internal package dbfile
// (the file below SQLite: paths, locks, headers, connections, creation,
// migration) are the only ones that know database/sql, sqlx and the SQLite
// driver (modernc.org/sqlite, pure Go).
//
// A catalog holds, per board size n, a row in builds (counts, whether the
// build completed, how far it got) and one row per class in classes (the
// canonical placement as a string of base-32 digits, and the orbit size).
// The schema is in the migrations package and is applied with goose when a
// catalog is opened.
package store

import (
	"errors"

	"github.com/nqueens/nqueens/store/internal/dbfile"
)

// ApplicationID is the SQLite application_id that marks a file as an
// nqueens catalog: the bytes "NQcT".
const ApplicationID = dbfile.ApplicationID

// Errors callers branch on. Errors returned by this package wrap them, so
// check with errors.Is.
var (
	// ErrNoCatalog: the file does not exist and Open was not asked to
	// create it.
	ErrNoCatalog = dbfile.ErrNoCatalog
	// ErrNotCatalog: the file is not a SQLite database, or is one that is
	// not an nqueens catalog. The file is left untouched.
	ErrNotCatalog = dbfile.ErrNotCatalog
	// ErrNewerSchema: the catalog was written by a newer nqueens whose
	// schema this one does not know. The file is left untouched.
	ErrNewerSchema = dbfile.ErrNewerSchema
	// ErrCorrupt: SQLite reports the file damaged or truncated.
	ErrCorrupt = dbfile.ErrCorrupt
	// ErrBusy: another process holds the lock the operation needs.
	ErrBusy = dbfile.ErrBusy
	// ErrReadOnly: the catalog cannot be written.
	ErrReadOnly = dbfile.ErrReadOnly
	// ErrDiskFull: the disk holding the catalog is full.
	ErrDiskFull = dbfile.ErrDiskFull
	// ErrIO: reading or writing the catalog file failed, as writing past
	// a file-size limit or to a failing disk does.
	ErrIO = dbfile.ErrIO
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
func Files(path string) []string { return dbfile.Files(path) }
