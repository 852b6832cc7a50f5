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
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/jmoiron/sqlx"
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
	return fmt.Errorf("%w: %s", kind, sqlite.ErrorCodeString[se.Code()])
}

// DB is an open catalog. Its methods are safe for concurrent use, but a
// catalog takes one Builder at a time (see Begin).
type DB struct {
	db   *sqlx.DB
	path string
}

// Options tune Open.
type Options struct {
	// Create makes Open create a new empty catalog when the file does not
	// exist. Without it a missing file is ErrNoCatalog.
	Create bool
}

// Open opens the catalog at path, creating it if opts.Create is set and the
// file does not exist, and migrating its schema forward if it was written
// by an older nqueens. Before touching an existing file it checks, reading
// only, that the file is a SQLite database (ErrNotCatalog), that it is an
// nqueens catalog or an empty database (ErrNotCatalog), that it is not cut
// short (ErrCorrupt), and that its schema is not newer than this program's
// (ErrNewerSchema); in each of those cases the file is left as it was. The
// caller must Close the DB.
func Open(ctx context.Context, path string, opts Options) (*DB, error) {
	if path == "" {
		return nil, errors.New("open catalog: empty path")
	}
	if strings.ContainsRune(path, 0) {
		return nil, errors.New("open catalog: path contains a NUL byte")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open catalog %s: %w", path, err)
	}
	st, err := os.Stat(abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if !opts.Create {
			return nil, fmt.Errorf("open catalog %s: %w (run nqueens build to make one)", path, ErrNoCatalog)
		}
		if dir := filepath.Dir(abs); !isDir(dir) {
			return nil, fmt.Errorf("open catalog %s: directory %s does not exist", path, dir)
		}
	case err != nil:
		return nil, fmt.Errorf("open catalog %s: %w", path, err)
	case st.IsDir():
		return nil, fmt.Errorf("open catalog %s: is a directory", path)
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("open catalog %s: not a regular file", path)
	case st.Size() > 0:
		if err := inspect(ctx, abs, st.Size()); err != nil {
			return nil, fmt.Errorf("open catalog %s: %w", path, err)
		}
	}
	db, err := sqlx.Open("sqlite", dsn(abs, false))
	if err != nil {
		return nil, fmt.Errorf("open catalog %s: %w", path, translate(err))
	}
	if err := migrate(ctx, db.DB); err != nil {
		db.Close()
		return nil, fmt.Errorf("open catalog %s: %w", path, err)
	}
	return &DB{db: db, path: abs}, nil
}

func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// dsn returns the driver's data source name for the catalog at the
// absolute path abs: a file: URI whose path is escaped, so no character of
// a file name can reach the query, with the pragmas every pooled connection
// needs. readOnly opens without changing the file in any way.
func dsn(abs string, readOnly bool) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(5000)")
	if readOnly {
		q.Add("mode", "ro")
	} else {
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous(NORMAL)")
		q.Add("_txlock", "immediate")
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// inspect checks, without writing, that the existing file at abs of size
// bytes can be opened as a catalog.
func inspect(ctx context.Context, abs string, size int64) error {
	f, err := os.Open(abs)
	if err != nil {
		return err
	}
	var hdr [100]byte
	_, err = io.ReadFull(f, hdr[:])
	f.Close()
	if err != nil || string(hdr[:16]) != "SQLite format 3\x00" {
		return fmt.Errorf("%w: not a SQLite database", ErrNotCatalog)
	}
	pageSize := int64(hdr[16])<<8 | int64(hdr[17])
	if pageSize == 1 {
		pageSize = 65536
	}
	pages := int64(hdr[28])<<24 | int64(hdr[29])<<16 | int64(hdr[30])<<8 | int64(hdr[31])
	if pageSize < 512 || pageSize&(pageSize-1) != 0 {
		return fmt.Errorf("%w: bad page size %d in the header", ErrCorrupt, pageSize)
	}
	// While a build writes, a checkpoint copies pages from the write-ahead
	// log into the file, page 1 (and its page count) first: the file is
	// then shorter than its header says until the checkpoint ends. The
	// size says nothing while a log is there to hold the rest.
	live := false
	if st, err := os.Stat(abs + "-wal"); err == nil && st.Size() > 0 {
		live = true
	}
	if !live && (size%pageSize != 0 || (pages > 0 && size < pages*pageSize)) {
		return fmt.Errorf("%w: file is %d bytes, the header promises %d pages of %d (truncated?)", ErrCorrupt, size, pages, pageSize)
	}

	db, err := sql.Open("sqlite", dsn(abs, true))
	if err != nil {
		return translate(err)
	}
	defer db.Close()
	var appID, objects int64
	if err := db.QueryRowContext(ctx, "PRAGMA application_id").Scan(&appID); err != nil {
		return translate(err)
	}
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&objects); err != nil {
		return translate(err)
	}
	if appID != ApplicationID {
		if appID == 0 && objects == 0 {
			return nil // an empty database: Open makes it a catalog
		}
		return fmt.Errorf("%w: a SQLite database of another program (application_id %d, %d schema objects)", ErrNotCatalog, appID, objects)
	}
	var version sql.NullInt64
	err = db.QueryRowContext(ctx, "SELECT max(version_id) FROM goose_db_version WHERE is_applied").Scan(&version)
	if err != nil {
		return fmt.Errorf("%w: no schema version table (%v)", ErrCorrupt, translate(err))
	}
	if latest := latestVersion(); version.Int64 > latest {
		return fmt.Errorf("%w: schema version %d, this program knows up to %d", ErrNewerSchema, version.Int64, latest)
	}
	return nil
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

// Files returns the paths of the files that make up the catalog at path,
// spelled as path is: the catalog itself, SQLite's write-ahead log and its
// index (-wal, -shm), its rollback journal (-journal), and the build lock
// (.lock). None of them may be overwritten by anything but the store; a
// caller writing an output file refuses any of these (compare with
// os.SameFile where the file exists, as one file has many spellings).
func Files(path string) []string {
	return []string{path, path + "-wal", path + "-shm", path + "-journal", path + lockSuffix}
}

// lockSuffix names the build lock beside a catalog.
const lockSuffix = ".lock"
