package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/jmoiron/sqlx"

	"github.com/nqueens/nqueens/output"
	"github.com/nqueens/nqueens/store/internal/dbfile"
	"github.com/nqueens/nqueens/store/internal/merge"
)

// Merge writes into the catalog at path, created if missing, the classes
// of every n that parts hold, where parts are the shard catalogs of all K
// shards of n's work units (see BeginShard), and records each n as
// complete with all its work units: what a build of the whole board would
// have written.
//
// It checks first what Mergeable checks, then that every part holds a
// complete shard of each n, that the parts agree on K, and that each shard
// from 0 to K-1 is there exactly once; an error names the part or shard at
// fault. A class found in two parts (overlapping shards) is an error too,
// as is a catalog at path that already holds one of the n (ErrComplete if
// complete). Merge is all or nothing: every n is written in one
// transaction, and a catalog that Merge creates appears at path only once
// complete. On any error, or when ctx is cancelled, the catalog at path is
// left as it was, or not created. It returns the builds written, in
// increasing n.
//
// A path that names one of the parts or one of their companion files (see
// Files), however spelled, is refused before anything is read or created,
// with an error wrapping ErrPartFile: SQLite would delete or overwrite the
// merged catalog there.
func Merge(ctx context.Context, path string, parts []*DB) ([]Build, error) {
	if err := checkOutput(path, parts); err != nil {
		return nil, err
	}
	plan, err := merge.Check(ctx, handles(parts))
	if err != nil {
		return nil, err
	}
	abs, err := dbfile.Resolve(path)
	if err != nil {
		return nil, fmt.Errorf("merge into %s: %w", path, err)
	}
	if _, err := os.Stat(abs); errors.Is(err, os.ErrNotExist) {
		var out []Build
		err := dbfile.Create(ctx, abs, func(x *sqlx.DB, tmp string, version int64) (err error) {
			// No build lock: nothing else can reach the file by this name,
			// and the creator holds abs's lock shared.
			out, err = plan.Write(ctx, &dbfile.Handle{DB: x, Path: tmp, Version: version})
			return err
		})
		if err != nil {
			return nil, err
		}
		return out, nil
	}
	db, err := Open(ctx, path, Options{})
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return plan.Write(ctx, &db.h)
}

// MergeFiles is Merge of the shard catalogs at the paths parts, which it
// opens read-only and closes when it returns. A path named twice is an
// error wrapping ErrNamedTwice, "merge: s4.db is named twice", and one
// that does not open is Open's error. Before it merges, it calls start, if
// not nil, with the n the parts hold (Mergeable), so that a caller can say
// what it is about to merge.
func MergeFiles(ctx context.Context, path string, parts []string, start func(ns []int)) ([]Build, error) {
	var dbs []*DB
	defer func() {
		for _, db := range dbs {
			db.Close()
		}
	}()
	for i, p := range parts {
		if slices.Contains(parts[:i], p) {
			return nil, fmt.Errorf("merge: %s is %w", p, ErrNamedTwice)
		}
		db, err := Open(ctx, p, Options{ReadOnly: true})
		if err != nil {
			return nil, err
		}
		dbs = append(dbs, db)
	}
	if err := checkOutput(path, dbs); err != nil {
		return nil, err
	}
	ns, err := Mergeable(ctx, dbs)
	if err != nil {
		return nil, err
	} else if start != nil {
		start(ns)
	}
	return Merge(ctx, path, dbs)
}

// Mergeable checks that the catalogs parts can be merged as far as each
// says of itself, and returns the n they hold, in increasing order: each
// must hold shards only, no build of the whole board; each shard must have
// the work units this version of nqueens splits its n into (a shard made
// by a version that splits n otherwise would not line up with the others);
// and every part must hold the same n. An error names the part at fault by
// the path it was opened with. Merge makes these checks first; Mergeable
// lets a caller say what Merge will do before it starts.
func Mergeable(ctx context.Context, parts []*DB) ([]int, error) {
	return merge.Mergeable(ctx, handles(parts))
}

// handles returns the handles of the catalogs dbs.
func handles(dbs []*DB) []*dbfile.Handle {
	out := make([]*dbfile.Handle, len(dbs))
	for i, db := range dbs {
		out[i] = &db.h
	}
	return out
}

// checkOutput returns an error wrapping ErrPartFile if path names one of
// parts or one of their companion files, however spelled.
func checkOutput(path string, parts []*DB) error {
	for _, part := range parts {
		err := output.Check(path, output.Options{Protect: Files(part.h.Path), Protected: "a file of the shard catalog " + part.h.Name})
		if err != nil {
			return fmt.Errorf("merge: %w", &partFileError{err})
		}
	}
	return nil
}

// partFileError is the error of a merge into one of its parts' files: it
// says which, and is ErrPartFile.
type partFileError struct{ err error }

func (e *partFileError) Error() string { return e.err.Error() }

func (e *partFileError) Is(target error) bool { return target == ErrPartFile }

func (e *partFileError) Unwrap() error { return e.err }
