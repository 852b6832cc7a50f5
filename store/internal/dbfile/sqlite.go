package dbfile

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"syscall"

	"github.com/jmoiron/sqlx"
	"github.com/pressly/goose/v3"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/nqueens/nqueens/internal/catalogfile"
	"github.com/nqueens/nqueens/migrations"
)

// ApplicationID is the SQLite application_id that marks a file as an
// nqueens catalog: the bytes "NQcT".
const ApplicationID = 0x4e516354

// dsn returns the driver's data source name for the catalog at the
// absolute path abs: a file: URI whose path is escaped, so no character of
// a file name can reach the query, with the pragmas every pooled connection
// needs.
func dsn(abs string, m mode) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(5000)")
	switch m {
	case reader:
		// The owner reading: a connection that could write, so SQLite keeps
		// its log and index as for any reader beside a writer and removes
		// them when the last connection closes, but that runs no statement
		// that writes, and no pragma that changes the file; and that never
		// creates the file (mode=rw) should it be removed.
		q.Add("mode", "rw")
		q.Add("_pragma", "query_only(1)")
	case readOnly:
		q.Add("mode", "ro")
	case immutable:
		// Read-only, and no lock or companion file either: for a catalog in
		// WAL mode that no writer has open (see openReadOnly).
		q.Add("mode", "ro")
		q.Add("immutable", "1")
	case fresh:
		// A new catalog, built in a rollback journal so that it is one file
		// when closed. NewTemp has made the file: mode=rw, as every DSN
		// here has mode=ro or rw, so that no connection creates a file.
		// Nothing reads the file by its temporary name, and Create flushes
		// it to disk once, whole, before it links it to the catalog's
		// name: its transactions need not each wait for the disk.
		q.Add("mode", "rw")
		q.Add("_pragma", "synchronous(OFF)")
		q.Add("_txlock", "immediate")
	case hot:
		// A catalog whose rollback journal holds a write a killed process
		// left unfinished: writable, and with no pragma that would change
		// the file or how it reaches the disk, so that SQLite rolls the
		// write back, durably, as it first reads.
		q.Add("mode", "rw")
	case readWrite:
		q.Add("mode", "rw")
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous(NORMAL)")
		q.Add("_txlock", "immediate")
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// mode is how dsn opens a catalog.
type mode int

const (
	readWrite mode = iota // the catalog in WAL mode, for writers
	reader                // reading, by a process that may write the files
	readOnly              // changing nothing
	immutable             // changing nothing, taking no locks
	fresh                 // a new catalog under its temporary name
	hot                   // a catalog with a write to roll back (see rollBack)
)

// check reads the application id and schema version of an open database:
// it returns the schema version, 0 for an empty database, and an error for
// another program's database or a newer schema.
func check(ctx context.Context, db *sql.DB) (int64, error) {
	var appID, objects int64
	if err := db.QueryRowContext(ctx, "PRAGMA application_id").Scan(&appID); err != nil {
		return 0, Translate(err)
	}
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&objects); err != nil {
		return 0, Translate(err)
	}
	if appID != ApplicationID {
		if appID == 0 && objects == 0 {
			return 0, nil // an empty database: a writer makes it a catalog
		}
		return 0, fmt.Errorf("%w: a SQLite database of another program (application_id %d, %d schema objects)", ErrNotCatalog, appID, objects)
	}
	var version sql.NullInt64
	err := db.QueryRowContext(ctx, "SELECT max(version_id) FROM goose_db_version WHERE is_applied").Scan(&version)
	if err != nil {
		return 0, fmt.Errorf("%w: no schema version table (%v)", ErrCorrupt, Translate(err))
	}
	if latest := latestVersion(); version.Int64 > latest {
		return 0, fmt.Errorf("%w: schema version %d, this program knows up to %d", ErrNewerSchema, version.Int64, latest)
	}
	return version.Int64, nil
}

// rollBack opens the SQLite file at abs for writing, with no pragma that
// would change it, so that SQLite rolls back the unfinished write its
// journal holds.
func rollBack(ctx context.Context, abs string) error {
	db, err := sql.Open("sqlite", dsn(abs, hot))
	if err != nil {
		return Translate(err)
	}
	defer db.Close()
	var n int64
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&n); err != nil {
		return fmt.Errorf("roll back an unfinished write: %w", Translate(err))
	}
	return nil
}

// OpenRead opens the existing file at abs without writing anything, and
// returns its Handle with DB, Path, Version, ReadOnly and Watch set. Its
// pool opens a connection only while the Watch finds the file unchanged
// (see Watch.Changed). A write that a killed process left unfinished in
// the rollback journal is rolled back first if this process may write
// the catalog, and is ErrHotJournal if it may not.
// Its companion files are checked first (see checkCompanions): beside one
// another user may have put there, the catalog is read without it where
// that is safe (see foreignMode) and is ErrForeignFile otherwise. They
// are checked again before each new connection.
func OpenRead(ctx context.Context, abs string) (Handle, error) {
	w, err := newWatch(abs) // before the header: a change from here on shows
	if err != nil {
		return Handle{}, err
	}
	files := survey(abs)
	h, err := readFileHeader(abs)
	if err != nil {
		return Handle{}, err
	}
	if h.Size == 0 {
		return Handle{}, fmt.Errorf("%w: the file is empty", ErrEmptyCatalog)
	}
	if files.first == nil && hotJournal(abs) {
		if writable(abs) != nil {
			return Handle{}, fmt.Errorf("%w: %s-journal holds a write that a killed process left unfinished", ErrHotJournal, abs)
		}
		if err := rollBack(ctx, abs); err != nil {
			return Handle{}, err
		}
	}
	w.m, err = readMode(abs, h, files)
	if err != nil {
		return Handle{}, err
	}
	w.wal = h.WAL
	db, err := openPool(abs, w.m, w)
	if err != nil {
		return Handle{}, err
	}
	version, err := check(ctx, db.DB)
	if err == nil && version == 0 {
		err = fmt.Errorf("%w: an empty database", ErrEmptyCatalog)
	}
	if err != nil {
		db.Close()
		return Handle{}, err
	}
	return Handle{DB: db, Path: abs, Version: version, ReadOnly: true, Watch: w}, nil
}

// readMode returns how to read the file at abs, whose header is h and
// whose companion files are files, without leaving a file behind.
//
// Beside a companion file that another user may have put there, the
// catalog is read as foreignMode says, never through that file.
// Otherwise, a process that may write the catalog and its directory (its
// owner) reads through a connection that could write but is held to
// queries (reader): it shares SQLite's log and index with any build
// running, and SQLite removes them when the last connection closes.
// Anyone else must not create those files: they would belong to whoever
// ran stats, could block the owner's next build, and cannot be made in a
// directory the reader may not write. It reads a catalog in
// rollback-journal mode, or one whose log and index are there (a build
// has it open), read-only, using them as they are; and a catalog in WAL
// mode with neither as an immutable file, as no writer has it open.
// (Should the owner start a build while such a read runs, the read may
// see pages half changed: an export then fails its count check, and a
// second run reads right.)
func readMode(abs string, h fileHeader, files companionFiles) (mode, error) {
	switch {
	case files.first != nil:
		return foreignMode(abs, h, files)
	case writable(abs) == nil:
		return reader, nil
	case !h.WAL || size(abs+catalogfile.WAL) >= 0 || size(abs+catalogfile.SHM) >= 0:
		return readOnly, nil
	}
	return immutable, nil
}

// OpenWrite opens the existing file at abs for writing, migrating its
// schema if it is older than this program's; an empty file becomes a
// catalog. Its companion files are checked first (see checkCompanions), and
// claimed before each new connection (see claim); a file with other
// names is ErrNames (see oneName), checked again before each new
// connection and by Lock.
func OpenWrite(ctx context.Context, abs string) (*sqlx.DB, int64, error) {
	if err := oneName(abs); err != nil {
		return nil, 0, err
	}
	if err := checkCompanions(abs); err != nil {
		return nil, 0, err
	}
	if err := writable(abs); err != nil {
		return nil, 0, err
	}
	removeStale(abs)
	version := int64(0)
	h, err := readFileHeader(abs)
	if err != nil {
		return nil, 0, err
	}
	if h.Size > 0 {
		if hotJournal(abs) {
			if err := rollBack(ctx, abs); err != nil {
				return nil, 0, err
			}
		}
		m, err := readMode(abs, h, companionFiles{})
		if err != nil {
			return nil, 0, err
		}
		ro, err := sql.Open("sqlite", dsn(abs, m))
		if err != nil {
			return nil, 0, Translate(err)
		}
		version, err = check(ctx, ro)
		ro.Close()
		if err != nil {
			return nil, 0, err
		}
	}
	db, err := openPool(abs, readWrite, nil)
	if err != nil {
		return nil, 0, err
	}
	if version < latestVersion() {
		// Migrations of one file run one process at a time, under the build
		// lock; goose skips those another process applied meanwhile.
		err := withLock(ctx, abs+catalogfile.Lock, Lock, func() error { return migrate(ctx, db.DB) })
		if err != nil {
			db.Close()
			return nil, 0, err
		}
		version = latestVersion()
	}
	return db, version, nil
}

// Create makes a new catalog at abs, which does not exist: it builds the
// schema in a temporary file beside abs, lets fill (if not nil) write into
// it, and links it to abs only when complete, so abs holds either nothing
// or a whole catalog. fill gets the open temporary file, its name and its
// schema version; it runs without the build lock, as nothing else can
// reach the file by that name and the creator holds abs's lock shared. If
// another process created abs meanwhile, Create leaves that one in place
// and returns nil, or, when fill is given, an error: fill's work would be
// lost.
//
// Creators hold the build lock shared while they work; RemoveStale takes
// it exclusively, so it removes only what killed creators left.
func Create(ctx context.Context, abs string, fill func(db *sqlx.DB, tmp string, version int64) error) (err error) {
	if err := writableDir(filepath.Dir(abs)); err != nil {
		return err
	}
	removeStale(abs)
	var tmp string
	err = withLock(ctx, abs+catalogfile.Lock, lockShared, func() error {
		tmp, err = newTemp(abs)
		if err != nil {
			return err
		}
		defer func() {
			os.Remove(tmp)
			os.Remove(tmp + catalogfile.Journal)
		}()
		return fillTemp(ctx, abs, tmp, fill)
	})
	return err
}

// fillTemp makes the empty file tmp a catalog, lets fill write into it,
// and links it to abs (see create).
func fillTemp(ctx context.Context, abs, tmp string, fill func(*sqlx.DB, string, int64) error) error {
	hook("created")
	db, err := sqlx.Open("sqlite", dsn(tmp, fresh))
	if err != nil {
		return Translate(err)
	}
	db.SetMaxOpenConns(1) // one connection, so the journal mode can change
	if err := migrate(ctx, db.DB); err != nil {
		db.Close()
		return err
	}
	hook("migrated")
	if fill != nil {
		err = fill(db, tmp, latestVersion())
	}
	if err == nil {
		// At rest in WAL mode, as every writer leaves it, so the first
		// writer does not change the file merely by opening it.
		_, err = db.ExecContext(ctx, "PRAGMA journal_mode=WAL")
	}
	if cerr := db.Close(); err == nil && cerr != nil {
		err = Translate(cerr)
	}
	if err != nil {
		return err
	}
	if err := sync_(tmp); err != nil {
		return fmt.Errorf("create %s: %w", abs, flushError(err))
	}
	hook("linking")
	switch err := os.Link(tmp, abs); {
	case err == nil:
	case errors.Is(err, os.ErrExist):
		if fill != nil {
			return fmt.Errorf("%s was created by another process meanwhile; nothing written", abs)
		}
		return nil // another process made the catalog first: it is as good
	case noHardLinks(err) && fill == nil:
		// A file system without hard links: rename, which replaces, so only
		// while abs is still missing (a creator racing this one in that
		// instant loses its empty catalog, never classes: fill is nil).
		if _, serr := os.Lstat(abs); serr == nil {
			return nil
		}
		if err := os.Rename(tmp, abs); err != nil {
			return fmt.Errorf("create: %w", err)
		}
	default:
		return fmt.Errorf("create %s: %w", abs, pathError(err))
	}
	syncDir(filepath.Dir(abs))
	hook("linked")
	return nil
}

// flushError is the error of Sync on a new catalog's temporary file, where
// writes the disk could not take show (its transactions did not wait for
// the disk): ErrDiskFull or ErrIO with the system's reason, and without
// the temporary file's name, which the caller replaces with the catalog's.
func flushError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if errors.Is(err, syscall.ENOSPC) {
		return fmt.Errorf("%w: flush to disk: %v", ErrDiskFull, err)
	}
	return fmt.Errorf("%w: flush to disk: %v", ErrIO, err)
}

// TestHook, when set by a test, is called at named points of create and
// of the opens.
var TestHook func(point string)

func hook(point string) {
	if TestHook != nil {
		TestHook(point)
	}
}

// Translate maps a driver error to this package's sentinels by SQLite
// result code, keeping the driver's text for context. Other errors pass
// through unchanged.
func Translate(err error) error {
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
		return fmt.Errorf("migrate schema: %w", Translate(unwrapPartial(err)))
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
