// Package store is the SQLite catalog of N-Queens classes: it opens (and
// creates, and migrates) catalog files, records builds as they progress,
// merges shard catalogs, and reads classes and counts back. It and its
// internal packages are the only ones that know database/sql, sqlx and the
// SQLite driver (modernc.org/sqlite, pure Go). Below SQL, its internal
// package dbfile handles the file itself (paths, locks, headers,
// connections, creation, migration); this package owns the rows: opening
// a catalog, the rows of builds and classes, the resumable build, the
// merge of shard catalogs, the reading of classes, and the long-lived
// reader. Exported methods of DB do the work, over unexported helpers that
// run the statements inside one transaction.
//
// A catalog holds, per board size n, a row in builds (counts, whether the
// build completed, how far it got) and one row per class in classes (its
// number, the canonical placement as a string of base-32 digits, and the
// orbit size), keyed by the number: class K is one seek, and the class of
// a placement a bisection on the numbers (Finder), as class order is
// placement order.
//
// An n may instead be built as an index (FormIndex): no row per class, but the counts of classes and
// solutions under each prefix of the class search, cumulated, in blocks,
// from which class K, the class of a placement and any range of classes
// are found by searching a prefix's subtree. Build.Form says which form an
// n has; every reader (Class, Classes, Count, Layouts, Lookup, Finder,
// Numbers, ClassTable) answers alike of both, so callers need not know.
// The schema is in the migrations package and is applied with goose when a
// catalog is opened.
package store

import (
	"errors"
	"fmt"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/internal/phrase"
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
	// ErrEmptyCatalog: the file is empty, or an empty SQLite database,
	// and was opened read-only: it holds no catalog yet. It wraps
	// ErrNoCatalog, so errors.Is matches both.
	ErrEmptyCatalog = dbfile.ErrEmptyCatalog
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
	// ErrHotJournal: the catalog's rollback journal holds a write that a
	// killed process left unfinished, and Open with ReadOnly was called
	// by a process that may not write the catalog: only one that may (its
	// owner, opening it in any mode) can roll the write back, and until
	// then the catalog cannot be read. It reads as ErrReadOnly and wraps
	// it, so errors.Is matches both.
	ErrHotJournal = dbfile.ErrHotJournal
	// ErrForeignFile: a file beside the catalog that SQLite would read
	// into it (its -wal, -shm or -journal) is not a plain file of the
	// catalog's owner with one link, so another user may have put it
	// there to rewrite the catalog. Open refuses to write the catalog
	// beside it; with ReadOnly it reads the catalog without ever opening
	// that file (as an immutable file, where no log or unfinished write of
	// the owner's lies beside it) and refuses it only where it cannot. Both
	// files are left as they are. The error names the file, its owner and
	// the way to get the catalog back.
	ErrForeignFile = dbfile.ErrForeignFile
	// ErrNames: Open was asked to write a catalog file that has other
	// names (hard links, as ln and cp -al make): a catalog is written
	// through one name only, as its build lock and SQLite's log are named
	// after the path. Readers read it through any name.
	ErrNames = dbfile.ErrNames
	// ErrDiskFull: the disk holding the catalog is full.
	ErrDiskFull = dbfile.ErrDiskFull
	// ErrIO: reading or writing the catalog file failed, as writing past
	// a file-size limit or to a failing disk does.
	ErrIO = dbfile.ErrIO
	// ErrNotBuilt: the catalog holds no build of the requested n.
	ErrNotBuilt = errors.New("not in the catalog")
	// ErrIncomplete: the catalog holds n only in part: a build in
	// progress or interrupted, or one shard of a sharded build (see
	// DB.Complete).
	ErrIncomplete = errors.New("not complete")
	// ErrComplete: the requested n is already completely built.
	ErrComplete = errors.New("already built")
	// ErrOrphans: the catalog holds classes of an n with no record of
	// their build (its builds row was deleted by hand), which a build
	// cannot account for. The error says how to remove them.
	ErrOrphans = errors.New("classes with no build")
	// ErrShardMismatch: the catalog holds a build of n for another shard
	// (or whole, or as a shard) than asked for.
	ErrShardMismatch = errors.New("shard mismatch")
	// ErrNoClass: the catalog holds no such class of n: a class number
	// out of range, or a placement whose class it lacks.
	ErrNoClass = errors.New("no such class")
	// ErrBadRow: a row read is not what the catalog promises: a class row
	// not a solution, not canonical, of a wrong orbit, out of order or
	// numbered out of turn (a *RowError naming n, the class and the
	// fault), or a builds row whose time does not read or whose counts are
	// not the published ones. The file was changed by hand or damaged.
	ErrBadRow = errors.New("damaged row")
	// ErrOverLimit: n is above the largest n the caller builds (see
	// CheckLimit).
	ErrOverLimit = errors.New("above the build limit")
	// ErrNotShard: Merge was given a catalog that holds a build of the
	// whole board, which only a build of one shard can be merged with.
	ErrNotShard = errors.New("not a shard")
	// ErrNamedTwice: MergeFiles was given the same shard catalog twice.
	ErrNamedTwice = errors.New("named twice")
	// ErrPartFile: Merge was asked to write into one of its parts or one
	// of their companion files.
	ErrPartFile = errors.New("the output is a file of a part")
)

// Path returns the absolute path of the catalog file.
func (db *DB) Path() string { return db.h.Path }

// Close closes the catalog.
func (db *DB) Close() error {
	return db.h.DB.Close()
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

// BytesPerClass estimates the bytes one class of n takes in a catalog,
// from catalogs measured here: 28.7 bytes a class at n = 16, about n + 13.
func BytesPerClass(n int) uint64 { return uint64(n + 13) }

// CheckLimit returns an error wrapping ErrOverLimit if n is above limit,
// saying how large its catalog would be: "n=18 is above the build limit
// 17: its catalog would hold 83,263,591 rows, about 2.4 GiB".
func CheckLimit(n, limit int) error {
	if n <= limit {
		return nil
	}
	size := "more rows than OEIS has counted"
	if k, _ := nqueens.KnownCounts(n); k.Unique > 0 {
		size = fmt.Sprintf("%s, about %s", phrase.Plural(k.Unique, "row"), phrase.Bytes(k.Unique*BytesPerClass(n)))
	}
	return fmt.Errorf("n=%d is %w %d: its catalog would hold %s", n, ErrOverLimit, limit, size)
}

// CheckBuild returns an error if the build of each n of ns, whole or as
// the given shard (the zero Shard for the whole board), cannot be asked
// of Run, before any catalog is opened: first the CheckLimit error of the
// first n above limit (wrapping ErrOverLimit), then, for a shard, the
// error of the first n whose work units do not split into it
// (canonical.CheckShard), "n=14: ...". An n outside 1..nqueens.MaxN
// is an error before any of those. It does not say whether the catalog
// can take the build (ErrShardMismatch, ErrComplete).
func CheckBuild(ns []int, shard nqueens.Shard, limit int) error {
	for _, n := range ns {
		if err := nqueens.CheckN(n); err != nil {
			return err
		}
	}
	for _, n := range ns {
		if err := CheckLimit(n, limit); err != nil {
			return err
		}
	}
	for _, n := range ns {
		if shard.IsWhole() {
			break
		} else if err := canonical.CheckShard(n, shard); err != nil {
			return fmt.Errorf("n=%d: %w", n, err)
		}
	}
	return nil
}
