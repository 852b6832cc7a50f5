package dbfile

import "github.com/jmoiron/sqlx"

// Handle is an open catalog file: its pool of connections and what the
// store knows of the file. store.DB wraps one; the store's internal
// packages read and write through it.
type Handle struct {
	DB       *sqlx.DB
	Path     string // absolute, symbolic links resolved
	Name     string // the path as given to store.Open, for messages
	Version  int64  // schema version of the file
	ReadOnly bool
	// LockPath is the build lock's file: Path's, or, while Create fills a
	// new catalog under a temporary name, the final path's; empty when the
	// writer needs no lock (nothing else can reach the file).
	LockPath string
	// Watch, for a catalog opened read-only, tells whether the file
	// changed under the pool (nil for a writer).
	Watch *watch
}
