package store

import (
	"context"
	"errors"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/store/internal/build"
	"github.com/nqueens/nqueens/store/internal/record"
)

// Build is what the catalog records of one board size: n, its counts so
// far, whether it is complete, its work units done and in all, when it
// started and finished, the seconds spent, and the shard it holds (the
// zero Shard for the whole board). Build.Finished tells whether it holds
// every class of n; Build.MarshalJSON writes it as nqueens stats --json
// does. See the record package for each field.
type Build = record.Build

// Complete returns the build of n if it is Finished. Otherwise it returns
// the build, if any, with an *IncompleteError that says why, wrapping
// ErrNotBuilt when the catalog has no build of n, or ErrIncomplete when it
// holds a build in progress, an interrupted one, or one shard of a sharded
// build (the build's Shard, UnitsDone and UnitsTotal say which and how far
// it got); or with a read error.
func (db *DB) Complete(ctx context.Context, n int) (Build, error) {
	b, err := record.Complete(ctx, &db.h, n)
	for _, reason := range []error{ErrNotBuilt, ErrIncomplete} {
		if errors.Is(err, reason) {
			return b, &IncompleteError{Path: db.Path(), N: n, Build: b, Err: reason}
		}
	}
	return b, err
}

// Builds returns what the catalog records of every n it has started, in
// increasing n.
func (db *DB) Builds(ctx context.Context) ([]Build, error) {
	return record.List(ctx, &db.h)
}

// Build returns what the catalog records of n, or an error wrapping
// ErrNotBuilt if no build of n was ever started.
func (db *DB) Build(ctx context.Context, n int) (Build, error) {
	return record.Get(ctx, db.h.DB, db.h.Version, n)
}

// Builder writes the classes of one n into the catalog, a work unit at a
// time (Add, after Resume), committing regularly so that an interrupted
// build keeps what it has done: the catalog then holds the classes of the
// first UnitsDone units exactly, and the n stays marked incomplete until
// Finish. Close ends a build left incomplete. See the build package for
// its methods.
type Builder = build.Builder

// Begin starts or resumes the build of n, whose search has unitsTotal work
// units. It takes the catalog's build lock first, and fails at once with
// ErrBusy if another Builder (in this process or another) holds it. If n
// is complete it returns an error wrapping ErrComplete. If an earlier build
// of n stopped part way, the new Builder resumes after the units it
// committed (see Resume); if that build split the search differently, its
// classes are dropped and the build starts over. The caller must call
// Finish or Close.
func (db *DB) Begin(ctx context.Context, n, unitsTotal int) (*Builder, error) {
	return db.BeginShard(ctx, n, nqueens.Shard{}, unitsTotal)
}

// BeginShard is Begin for one shard of n's work units, unitsTotal of them,
// in a shard catalog (see Merge). A catalog holds each n either whole or
// as one shard: if it already holds a build of n for another shard, or
// whole, BeginShard fails with an error wrapping ErrShardMismatch. A
// catalog opened read-only is ErrReadOnly, and classes of n with no
// builds row ErrOrphans.
func (db *DB) BeginShard(ctx context.Context, n int, shard nqueens.Shard, unitsTotal int) (*Builder, error) {
	return build.Begin(ctx, &db.h, n, shard, unitsTotal)
}

// RunOptions tune Run: Workers, the goroutines that search (all cores when
// less than 1), and Start and Progress, the callbacks that report how far
// the build has got. The zero value searches on all cores and reports
// nothing. See the build package for each field.
type RunOptions = build.RunOptions

// Run builds n, or the given shard of n's work units (the zero Shard for
// the whole board), into the catalog: it splits n's search into work
// units (canonical.Units, split by canonical.Cost), begins or resumes the
// build (see BeginShard), searches the units it still needs on
// opts.Workers goroutines and adds their classes in order, and finishes
// the build. It returns the build as recorded.
//
// If the catalog already holds n complete, for the same shard, Run does
// nothing and returns that build with an error wrapping ErrComplete. When
// ctx is cancelled, Run commits the work units done so far and returns the
// build as committed with an error saying how far it got and that running
// the same build again resumes it. Other errors are those of BeginShard
// (ErrBusy, ErrShardMismatch, ErrOrphans, ErrReadOnly, a shard that n's
// units cannot be split into), Add and Finish; a build that fails part
// way keeps what it last committed, and a later Run resumes from there.
func (db *DB) Run(ctx context.Context, n int, shard nqueens.Shard, opts RunOptions) (Build, error) {
	return build.Run(ctx, &db.h, n, shard, opts)
}
