package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nqueens/nqueens/store/internal/dbfile"
)

// ErrChanged: the catalog file was removed or replaced, or changed in a
// way the connections reading it cannot follow. A Follower opens the path
// afresh on it; its Read returns it, wrapped, while the path holds no
// catalog.
var ErrChanged = dbfile.ErrChanged

// Read calls read with db: a DB is its own catalog for as long as it is
// open, so that a reader written for a Follower can read a DB too.
func (db *DB) Read(ctx context.Context, read func(*DB) error) error { return read(db) }

// FollowOptions bound the connections of a Follower. The zero value
// leaves them to database/sql: no bound, and idle connections kept.
type FollowOptions struct {
	// MaxConns is the most SQLite connections open at once; a read waits
	// for one when all are busy.
	MaxConns int
	// MaxIdle is how long an unused connection stays open.
	MaxIdle time.Duration
}

// A Follower reads the catalog at one path for a long-lived reader, such
// as a server, that must see each build's commits as they land, never
// take a healthy file for a damaged one, and never create or change a
// file. It opens the path read-only (Open with ReadOnly) and opens it
// afresh whenever the file it reads changes in a way its connections
// cannot follow (ErrChanged): the path removed or replaced by another
// file; another user's catalog, read as an immutable file while no build
// has it open, that a build opens; or one read through a build's log
// once the build closes it. A Read runs on one open catalog from start to
// end, so it never mixes two files. Its methods are safe for concurrent
// use.
type Follower struct {
	path string
	opts FollowOptions

	mu     sync.Mutex
	cur    *followed
	closed bool
}

// followed is one opening of the path and the Reads using it.
type followed struct {
	db    *DB
	users int
	stale bool // replaced: closed when its last Read ends
}

// Follow opens the catalog at path read-only for a Follower, failing as
// Open does when the path holds no catalog now. The caller must Close the
// Follower.
func Follow(ctx context.Context, path string, opts FollowOptions) (*Follower, error) {
	f := &Follower{path: path, opts: opts}
	db, err := f.open(ctx)
	if err != nil {
		return nil, err
	}
	f.cur = &followed{db: db}
	return f, nil
}

// open opens the path read-only with the connection bounds.
func (f *Follower) open(ctx context.Context) (*DB, error) {
	db, err := Open(ctx, f.path, Options{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	if f.opts.MaxConns > 0 {
		db.h.DB.SetMaxOpenConns(f.opts.MaxConns)
		db.h.DB.SetMaxIdleConns(f.opts.MaxConns)
	}
	if f.opts.MaxIdle > 0 {
		db.h.DB.SetConnMaxIdleTime(f.opts.MaxIdle)
	}
	return db, nil
}

// Path returns the absolute path of the catalog file read now.
func (f *Follower) Path() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.cur.db.Path()
}

// Read calls read with the catalog at the path, open as it is now, and
// returns read's error. If the file changed while read ran (ErrChanged),
// read may have seen pages of two states of an immutable file, or failed
// because the file was replaced: Read then calls it again, once, on the
// path opened afresh, so read must not keep what a first call gathered.
// When the path holds no catalog (removed, or replaced by something
// else) Read returns Open's error wrapped in one wrapping ErrChanged,
// without calling read, and tries again on the next Read.
func (f *Follower) Read(ctx context.Context, read func(*DB) error) error {
	for try := 1; ; try++ {
		c, err := f.acquire(ctx)
		if err != nil {
			return err
		}
		err = read(c.db)
		changed := c.db.h.Watch.Changed()
		f.release(c)
		if changed == nil {
			return err
		}
		if try == 2 {
			return fmt.Errorf("catalog %s changed twice during one read: %w", f.path, changed)
		}
	}
}

// acquire returns the current opening of the path, after opening it
// afresh if its file changed.
func (f *Follower) acquire(ctx context.Context) (*followed, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil, fmt.Errorf("catalog %s: follower closed", f.path)
	}
	if changed := f.cur.db.h.Watch.Changed(); changed != nil {
		db, err := f.open(ctx)
		if err != nil {
			if errors.Is(err, ErrChanged) {
				return nil, err
			}
			return nil, fmt.Errorf("%w: %w", changed, err)
		}
		f.retire(f.cur)
		f.cur = &followed{db: db}
	}
	f.cur.users++
	return f.cur, nil
}

// release ends a Read on c.
func (f *Follower) release(c *followed) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c.users--
	if c.stale && c.users == 0 {
		c.db.Close()
	}
}

// retire marks c replaced, closing it now if no Read uses it. The caller
// holds f.mu.
func (f *Follower) retire(c *followed) {
	c.stale = true
	if c.users == 0 {
		c.db.Close()
	}
}

// Close closes the catalog once the Reads in progress end; Reads after
// it fail.
func (f *Follower) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.closed {
		f.closed = true
		f.retire(f.cur)
	}
	return nil
}
