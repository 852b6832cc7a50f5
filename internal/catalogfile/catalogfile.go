// Package catalogfile names the files a catalog is made of on disk and
// says how a SQLite database file starts. Beside the catalog's own file
// each of the others is named by a suffix of its path: SQLite's
// write-ahead log (WAL) and its index (SHM), SQLite's rollback journal
// (Journal), and the build lock (Lock), which the store takes. The store
// (store/internal/dbfile) makes, claims and refuses them by these names,
// and count/resume refuses to take any of them for a count's state file,
// so that the two never disagree on what a catalog's files are.
package catalogfile

import "bytes"

// The suffixes of the files beside a catalog at path: path+WAL and so on.
const (
	// WAL names SQLite's write-ahead log.
	WAL = "-wal"
	// SHM names the shared-memory index of the write-ahead log.
	SHM = "-shm"
	// Journal names SQLite's rollback journal.
	Journal = "-journal"
	// Lock names the build lock.
	Lock = ".lock"
)

// Suffixes returns the suffixes of every file beside a catalog, in this
// order: WAL, SHM, Journal, Lock. The slice is the caller's.
func Suffixes() []string { return []string{WAL, SHM, Journal, Lock} }

// Magic is the 16 bytes that start every SQLite database file.
const Magic = "SQLite format 3\x00"

// IsSQLite reports whether b, the first bytes of a file, starts as a
// SQLite database does (Magic). Fewer than 16 bytes are not a database.
func IsSQLite(b []byte) bool { return bytes.HasPrefix(b, []byte(Magic)) }
