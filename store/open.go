package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// DB is an open catalog. Its methods are safe for concurrent use, but a
// catalog takes one Builder at a time (see Begin).
type DB struct {
	db       *sqlx.DB
	path     string // absolute, symbolic links resolved
	name     string // the path as given to Open, for messages
	version  int64  // schema version of the file
	readOnly bool
	// lockPath is the build lock's file: path's, or, while Create fills a
	// new catalog under a temporary name, the final path's.
	lockPath string
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
	// schema is read as it is. Builders and Merge refuse such a DB with
	// ErrReadOnly. Create is ignored.
	ReadOnly bool
}

// Open opens the catalog at path. Symbolic links in path are resolved once,
// here: the DB, its build lock and SQLite all use the one file they lead
// to.
//
// A missing file is ErrNoCatalog unless opts.Create is set; then a new
// empty catalog is made under a temporary name beside it and linked into
// place whole, so that path holds either nothing or a complete catalog,
// whenever the process is killed, and concurrent creators all succeed.
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
	abs, err := resolve(path)
	if err != nil {
		return nil, fmt.Errorf("open catalog %s: %w", path, err)
	}
	st, err := os.Stat(abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if !opts.Create || opts.ReadOnly {
			return nil, fmt.Errorf("open catalog %s: %w (run nqueens build to make one)", path, ErrNoCatalog)
		}
		if err := create(ctx, abs, nil); err != nil {
			return nil, fmt.Errorf("open catalog %s: %w", path, err)
		}
		st, err = os.Stat(abs)
		if err != nil {
			return nil, fmt.Errorf("open catalog %s: %w", path, err)
		}
	case err != nil:
		return nil, fmt.Errorf("open catalog %s: %w", path, err)
	case st.IsDir():
		return nil, fmt.Errorf("open catalog %s: is a directory", path)
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("open catalog %s: not a regular file", path)
	}
	var db *DB
	if opts.ReadOnly {
		db, err = openReadOnly(ctx, abs, st.Size())
	} else {
		db, err = openWrite(ctx, abs, st.Size())
	}
	if err != nil {
		return nil, fmt.Errorf("open catalog %s: %w", path, err)
	}
	db.name = path
	return db, nil
}

// resolve returns the absolute path that path leads to once every symbolic
// link in it is followed, including a last link whose target does not
// exist yet. The directory that holds the result must exist. A ".." is
// taken as the system takes it, after the link before it is followed: the
// path is not cleaned as text first.
func resolve(path string) (string, error) {
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
		// that writes, and no pragma that changes the file.
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
		// when closed.
		q.Add("_txlock", "immediate")
	case readWrite:
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
)

// header is what the first 100 bytes of a SQLite file say.
type header struct {
	wal bool // the file is in WAL mode: readers need its -shm index
}

// readHeader checks, without writing, that the file at abs of size bytes
// is a SQLite database that is not cut short.
func readHeader(abs string, size int64) (header, error) {
	f, err := os.Open(abs)
	if err != nil {
		return header{}, err
	}
	var hdr [100]byte
	_, err = io.ReadFull(f, hdr[:])
	f.Close()
	if err != nil || string(hdr[:16]) != "SQLite format 3\x00" {
		return header{}, fmt.Errorf("%w: not a SQLite database", ErrNotCatalog)
	}
	pageSize := int64(hdr[16])<<8 | int64(hdr[17])
	if pageSize == 1 {
		pageSize = 65536
	}
	pages := int64(hdr[28])<<24 | int64(hdr[29])<<16 | int64(hdr[30])<<8 | int64(hdr[31])
	if pageSize < 512 || pageSize&(pageSize-1) != 0 {
		return header{}, fmt.Errorf("%w: bad page size %d in the header", ErrCorrupt, pageSize)
	}
	// While a build writes, a checkpoint copies pages from the write-ahead
	// log into the file, page 1 (and its page count) first: the file is
	// then shorter than its header says until the checkpoint ends. The
	// size says nothing while a log is there to hold the rest.
	live := fileSize(abs+"-wal") > 0
	if !live && (size%pageSize != 0 || (pages > 0 && size < pages*pageSize)) {
		return header{}, fmt.Errorf("%w: file is %d bytes, the header promises %d pages of %d (truncated?)", ErrCorrupt, size, pages, pageSize)
	}
	return header{wal: hdr[18] == 2 || hdr[19] == 2}, nil
}

// fileSize returns the size of the file at path, or -1 if it cannot be
// read.
func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return -1
	}
	return st.Size()
}

// check reads the application id and schema version of an open database:
// it returns the schema version, 0 for an empty database, and an error for
// another program's database or a newer schema.
func check(ctx context.Context, db *sql.DB) (int64, error) {
	var appID, objects int64
	if err := db.QueryRowContext(ctx, "PRAGMA application_id").Scan(&appID); err != nil {
		return 0, translate(err)
	}
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&objects); err != nil {
		return 0, translate(err)
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
		return 0, fmt.Errorf("%w: no schema version table (%v)", ErrCorrupt, translate(err))
	}
	if latest := latestVersion(); version.Int64 > latest {
		return 0, fmt.Errorf("%w: schema version %d, this program knows up to %d", ErrNewerSchema, version.Int64, latest)
	}
	return version.Int64, nil
}

// hotJournal reports whether a rollback journal lies beside the catalog:
// a write that a killed process left unfinished, which the next writer
// rolls back.
func hotJournal(abs string) bool { return fileSize(abs+"-journal") > 0 }

// rollBack opens the SQLite file at abs for writing, with no pragma that
// would change it, so that SQLite rolls back the unfinished write its
// journal holds.
func rollBack(ctx context.Context, abs string) error {
	db, err := sql.Open("sqlite", dsn(abs, fresh))
	if err != nil {
		return translate(err)
	}
	defer db.Close()
	var n int64
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&n); err != nil {
		return fmt.Errorf("roll back an unfinished write: %w", translate(err))
	}
	return nil
}

// openReadOnly opens the existing file at abs of size bytes without
// writing anything.
func openReadOnly(ctx context.Context, abs string, size int64) (*DB, error) {
	if size == 0 {
		return nil, fmt.Errorf("%w: the file is empty (run nqueens build to make it a catalog)", ErrNoCatalog)
	}
	h, err := readHeader(abs, size)
	if err != nil {
		return nil, err
	}
	if hotJournal(abs) {
		if writable(abs) != nil {
			return nil, fmt.Errorf("%w: %s-journal holds a write that a killed process left unfinished; run a writing command such as nqueens build as the catalog's owner to roll it back", ErrReadOnly, abs)
		}
		if err := rollBack(ctx, abs); err != nil {
			return nil, err
		}
	}
	db, err := sqlx.Open("sqlite", dsn(abs, readMode(abs, h)))
	if err != nil {
		return nil, translate(err)
	}
	version, err := check(ctx, db.DB)
	if err == nil && version == 0 {
		err = fmt.Errorf("%w: an empty database (run nqueens build to make it a catalog)", ErrNoCatalog)
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return &DB{db: db, path: abs, version: version, readOnly: true, lockPath: abs + lockSuffix}, nil
}

// readMode returns how to read the file at abs, whose header is h, without
// leaving a file behind.
//
// A process that may write the catalog and its directory (its owner)
// reads through a connection that could write but is held to queries
// (reader): it shares SQLite's log and index with any build running, and
// SQLite removes them when the last connection closes. Anyone else must
// not create those files: they would belong to whoever ran stats, could
// block the owner's next build, and cannot be made in a directory the
// reader may not write. It reads a catalog in rollback-journal mode, or
// one whose log and index are there (a build has it open), read-only,
// using them as they are; and a catalog in WAL mode with neither as an
// immutable file, as no writer has it open. (Should the owner start a
// build while such a read runs, the read may see pages half changed: an
// export then fails its count check, and a second run reads right.)
func readMode(abs string, h header) mode {
	switch {
	case writable(abs) == nil:
		return reader
	case !h.wal || fileSize(abs+"-wal") >= 0 || fileSize(abs+"-shm") >= 0:
		return readOnly
	}
	return immutable
}

// openWrite opens the existing file at abs of size bytes for writing,
// migrating its schema if it is older than this program's.
func openWrite(ctx context.Context, abs string, size int64) (*DB, error) {
	if err := writable(abs); err != nil {
		return nil, err
	}
	removeStale(abs)
	version := int64(0)
	if size > 0 {
		h, err := readHeader(abs, size)
		if err != nil {
			return nil, err
		}
		if hotJournal(abs) {
			if err := rollBack(ctx, abs); err != nil {
				return nil, err
			}
		}
		ro, err := sql.Open("sqlite", dsn(abs, readMode(abs, h)))
		if err != nil {
			return nil, translate(err)
		}
		version, err = check(ctx, ro)
		ro.Close()
		if err != nil {
			return nil, err
		}
	}
	db, err := sqlx.Open("sqlite", dsn(abs, readWrite))
	if err != nil {
		return nil, translate(err)
	}
	if version < latestVersion() {
		// Migrations of one file run one process at a time, under the build
		// lock; goose skips those another process applied meanwhile.
		err := withLock(ctx, abs+lockSuffix, lockFile, func() error { return migrate(ctx, db.DB) })
		if err != nil {
			db.Close()
			return nil, err
		}
		version = latestVersion()
	}
	return &DB{db: db, path: abs, version: version, lockPath: abs + lockSuffix}, nil
}

// create makes a new catalog at abs, which does not exist: it builds the
// schema in a temporary file beside abs, lets fill (if not nil) write into
// it, and links it to abs only when complete, so abs holds either nothing
// or a whole catalog. If another process created abs meanwhile, create
// leaves that one in place and returns nil, or, when fill is given, an
// error: fill's work would be lost.
//
// Creators hold the build lock shared while they work; removeStale takes
// it exclusively, so it removes only what killed creators left.
func create(ctx context.Context, abs string, fill func(*DB) error) (err error) {
	if err := writableDir(filepath.Dir(abs)); err != nil {
		return err
	}
	removeStale(abs)
	var tmp string
	err = withLock(ctx, abs+lockSuffix, lockShared, func() error {
		tmp, err = newTemp(abs)
		if err != nil {
			return err
		}
		defer func() {
			os.Remove(tmp)
			os.Remove(tmp + "-journal")
		}()
		return fillTemp(ctx, abs, tmp, fill)
	})
	return err
}

// fillTemp makes the empty file tmp a catalog, lets fill write into it,
// and links it to abs (see create).
func fillTemp(ctx context.Context, abs, tmp string, fill func(*DB) error) error {
	hook("created")
	db, err := sqlx.Open("sqlite", dsn(tmp, fresh))
	if err != nil {
		return translate(err)
	}
	db.SetMaxOpenConns(1) // one connection, so the journal mode can change
	if err := migrate(ctx, db.DB); err != nil {
		db.Close()
		return err
	}
	hook("migrated")
	if fill != nil {
		// No build lock: nothing else can reach the file by this name, and
		// the creator holds abs's lock shared.
		err = fill(&DB{db: db, path: tmp, version: latestVersion()})
	}
	if err == nil {
		// At rest in WAL mode, as every writer leaves it, so the first
		// writer does not change the file merely by opening it.
		_, err = db.ExecContext(ctx, "PRAGMA journal_mode=WAL")
	}
	if cerr := db.Close(); err == nil && cerr != nil {
		err = translate(cerr)
	}
	if err != nil {
		return err
	}
	if err := syncFile(tmp); err != nil {
		return err
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

// testHookCreate, when set by a test, is called at named points of create.
var testHookCreate func(point string)

func hook(point string) {
	if testHookCreate != nil {
		testHookCreate(point)
	}
}

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
	unlock, err := lockFile(abs + lockSuffix)
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

// syncFile flushes the file at path to disk.
func syncFile(path string) error {
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

// withLock runs f holding the lock at path that take takes (lockFile or
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
	for _, f := range []string{abs, abs + "-wal", abs + "-shm"} {
		err := access(f)
		if f != abs && errors.Is(err, os.ErrNotExist) {
			continue // not there (or just removed by the last connection's close)
		}
		if err != nil {
			return fmt.Errorf("%w: cannot write %s: %v", ErrReadOnly, f, err)
		}
	}
	if fileSize(abs+"-wal") >= 0 && fileSize(abs+"-shm") >= 0 {
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
