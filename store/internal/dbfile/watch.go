package dbfile

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"

	"github.com/jmoiron/sqlx"
	"modernc.org/sqlite"

	"github.com/nqueens/nqueens/internal/catalogfile"
)

// ErrChanged: the catalog file a pool reads was removed or replaced, or
// changed in a way the pool's read mode cannot follow (a writer opened a
// file read as immutable, or the last writer closed a file read through
// its log). The pool opens no more connections; a long-lived reader opens
// the path afresh.
var ErrChanged = errors.New("catalog file changed")

// watch tells whether the catalog file a pool reads is still the file it
// opened, in the state its read mode needs. Its methods are safe for
// concurrent use.
type watch struct {
	abs string
	fi  os.FileInfo // the file before the pool was opened
	m   mode
	wal bool // the header says WAL mode
}

// newWatch returns the Watch of the file at abs as it is now, before it
// is opened; the mode is set once it is chosen.
func newWatch(abs string) (*watch, error) {
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	return &watch{abs: abs, fi: fi}, nil
}

// Immutable reports whether the pool reads the file as immutable: no lock,
// no log, a page cache that is never checked against the file.
func (w *watch) Immutable() bool { return w.m == immutable }

// Changed returns nil while the file at the watched path is the one the
// pool opened, in a state the pool reads right, and an error wrapping
// ErrChanged otherwise, saying what changed:
//
//   - any mode: the path was removed, or leads to another file (replaced by
//     a rename);
//   - immutable: the file changed size or time, or a writer opened it (a
//     -wal or -shm of the owner's is there): pages read before and after
//     may disagree;
//   - read-only (another user's catalog in WAL mode): its -wal or -shm is
//     gone, so a new connection would have to create them.
func (w *watch) Changed() error {
	fi, err := os.Stat(w.abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%w: %s was removed", ErrChanged, w.abs)
	case err != nil:
		return fmt.Errorf("%w: %w", ErrChanged, err)
	case !os.SameFile(fi, w.fi):
		return fmt.Errorf("%w: %s was replaced by another file", ErrChanged, w.abs)
	}
	live := size(w.abs+catalogfile.WAL) >= 0 || size(w.abs+catalogfile.SHM) >= 0
	switch w.m {
	case immutable:
		// A file of another user's there is none of a writer's: the
		// owner's writers refuse the catalog beside it.
		files := survey(w.abs)
		if files.trusted[catalogfile.WAL] || files.trusted[catalogfile.SHM] || fi.Size() != w.fi.Size() || !fi.ModTime().Equal(w.fi.ModTime()) {
			return fmt.Errorf("%w: a build opened %s", ErrChanged, w.abs)
		}
	case readOnly:
		if w.wal && (size(w.abs+catalogfile.WAL) < 0 || size(w.abs+catalogfile.SHM) < 0) {
			return fmt.Errorf("%w: the last writer of %s closed it", ErrChanged, w.abs)
		}
		if !w.wal && live {
			return fmt.Errorf("%w: a build opened %s in WAL mode", ErrChanged, w.abs)
		}
	}
	return nil
}

// openPool returns a pool of connections to the catalog at abs, read or
// written as m says, that checks the catalog's companion files before
// each new connection (see checkCompanions; a read-only or immutable reader
// minds only those it reads), and a writer's file for other names (see
// oneName), claims them for its first read
// where the process may write the catalog in WAL mode (see claim), and, given a Watch, opens a
// connection only while w.Changed is nil: a pool never follows a path to
// another file, never reads pages an immutable read cannot trust, and
// never creates the -wal or -shm of a file it may not write.
func openPool(abs string, m mode, w *watch) (*sqlx.DB, error) {
	c, err := sqlite.NewConnector(dsn(abs, m))
	if err != nil {
		return nil, Translate(err)
	}
	return sqlx.NewDb(sql.OpenDB(guarded{c, abs, m, w}), "sqlite"), nil
}

// guarded is a connector that checks the catalog's files, and its Watch
// if any, before each connection.
type guarded struct {
	driver.Connector
	abs string
	m   mode
	w   *watch
}

func (c guarded) Connect(ctx context.Context) (driver.Conn, error) {
	if c.w != nil {
		if err := c.w.Changed(); err != nil {
			return nil, err
		}
	}
	switch files := survey(c.abs); {
	case c.m == immutable:
		// Reads no companion file: one another user put there is no matter.
	case c.m == readOnly && files.foreign[catalogfile.WAL] == nil && files.foreign[catalogfile.SHM] == nil:
		// Reads the log and index, and only looks at a journal: one that
		// holds a write to roll back stops a read-only connection.
	case files.first != nil:
		return nil, files.first
	}
	if c.m == readWrite {
		if err := oneName(c.abs); err != nil {
			return nil, err
		}
	}
	if (c.m != reader && c.m != readWrite) || !walMode(c.abs) {
		return c.Connector.Connect(ctx)
	}
	done, err := claim(c.abs)
	if err != nil {
		return nil, err
	}
	defer done()
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	// The first read looks for a journal to roll back, finds the one
	// claimed (empty), and opens the log, through which the connection
	// reads from then on.
	if err := firstRead(ctx, conn); err != nil {
		conn.Close()
		return nil, Translate(err)
	}
	return conn, nil
}

// firstRead reads the schema version through conn.
func firstRead(ctx context.Context, conn driver.Conn) error {
	q, ok := conn.(driver.QueryerContext)
	if !ok {
		return nil
	}
	rows, err := q.QueryContext(ctx, "PRAGMA schema_version", nil)
	if err != nil {
		return err
	}
	return rows.Close()
}

// walMode reports whether the header of the file at abs says WAL mode.
func walMode(abs string) bool {
	f, err := os.Open(abs)
	if err != nil {
		return false
	}
	defer f.Close()
	h, err := readHeader(f)
	return err == nil && h.WAL
}
