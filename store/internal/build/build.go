// Package build is the resumable build of a catalog: a Builder writes the
// classes of one n (or of one shard of its work units) a work unit at a
// time under the build lock, committing regularly with the units done, so
// that an interrupted build keeps its work and a later one resumes after
// it; Run is the loop that searches the units and feeds them to a Builder.
// store re-exports Builder and RunOptions, and DB.Begin, DB.BeginShard and
// DB.Run call Begin and Run.
package build

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/store/internal/dbfile"
	"github.com/nqueens/nqueens/store/internal/record"
)

// Errors of starting a build, re-exported by store under the same names.
var (
	// ErrOrphans: the catalog holds classes of an n with no record of
	// their build, which a build cannot account for.
	ErrOrphans = errors.New("classes with no build")
	// ErrShardMismatch: the catalog holds a build of n for another shard
	// (or whole, or as a shard) than asked for.
	ErrShardMismatch = errors.New("shard mismatch")
)

// Builder writes the classes of one n into the catalog, a work unit at a
// time, committing regularly so that an interrupted build keeps what it
// has done: the catalog then holds the classes of the first UnitsDone
// units exactly, and the n stays marked incomplete until Finish.
type Builder struct {
	h      *dbfile.Handle
	n      int
	shard  nqueens.Shard
	unlock func()
	ctx    context.Context // not cancelled by the caller's cancellation: writes finish

	tx        *sqlx.Tx
	ins       *record.Writer
	state     record.Build // what the open transaction will record
	committed record.Build // what the catalog holds: state as of the last commit
	resume    int
	failed    error // the write that failed; the builder takes no more

	runStart    time.Time
	lastCommit  time.Time
	sinceCommit int
	done        bool
}

const (
	commitRows  = 200_000                // rows per transaction, at most
	commitEvery = 500 * time.Millisecond // time between commits, at most
)

// Begin starts or resumes the build of shard of n (the zero Shard for the
// whole board), whose search has unitsTotal work units, in the catalog h:
// the work of store.DB.BeginShard, which documents it.
func Begin(ctx context.Context, h *dbfile.Handle, n int, shard nqueens.Shard, unitsTotal int) (*Builder, error) {
	if err := nqueens.CheckN(n); err != nil {
		return nil, err
	}
	if shard.Check() != nil {
		return nil, fmt.Errorf("build n=%d: bad shard %s", n, shard)
	}
	if h.ReadOnly {
		return nil, fmt.Errorf("build n=%d: %w: %s was opened for reading only", n, dbfile.ErrReadOnly, h.Path)
	}
	unlock, err := dbfile.Lock(h.LockPath)
	if err != nil {
		return nil, fmt.Errorf("build n=%d: %w", n, err)
	}
	b := &Builder{h: h, n: n, shard: shard, unlock: unlock, ctx: context.WithoutCancel(ctx)}
	if err := b.start(unitsTotal); err != nil {
		unlock()
		return nil, err
	}
	return b, nil
}

func (b *Builder) start(unitsTotal int) error {
	ctx := b.ctx
	now := time.Now().UTC()
	tx, err := b.h.DB.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("build n=%d: %w", b.n, dbfile.Translate(err))
	}
	defer tx.Rollback()
	st, err := record.Get(ctx, tx, b.h.Version, b.n)
	switch {
	case errors.Is(err, record.ErrNotBuilt):
		var orphans int64
		if err := tx.GetContext(ctx, &orphans, `SELECT count(*) FROM classes WHERE n = ?`, b.n); err != nil {
			return fmt.Errorf("build n=%d: %w", b.n, dbfile.Translate(err))
		}
		if orphans > 0 {
			return fmt.Errorf("build n=%d: %w: the catalog holds %d classes of n=%d but no record of their build (its builds row was deleted?); %s",
				b.n, ErrOrphans, orphans, b.n, record.OrphanFix(b.h.Path, b.n))
		}
		st = record.Build{N: b.n, UnitsTotal: unitsTotal, StartedAt: now, Shard: b.shard}
		err = record.Start(ctx, tx, st)
	case err != nil:
	case st.Shard != b.shard:
		return fmt.Errorf("n=%d: %w: the catalog holds %s, not %s", b.n, ErrShardMismatch, st.Shard.Describe(), b.shard.Describe())
	case st.Complete:
		return fmt.Errorf("n=%d: %w", b.n, record.ErrComplete)
	case st.UnitsTotal != unitsTotal:
		// The search is split differently from when the build began: its
		// units do not line up, so start again from nothing.
		st = record.Build{N: b.n, UnitsTotal: unitsTotal, StartedAt: st.StartedAt, Seconds: st.Seconds, Shard: b.shard}
		if _, err = tx.ExecContext(ctx, `DELETE FROM classes WHERE n = ?`, b.n); err == nil {
			err = record.Save(ctx, tx, st, false)
		}
	}
	if err != nil {
		return fmt.Errorf("build n=%d: %w", b.n, dbfile.Translate(err))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("build n=%d: %w", b.n, dbfile.Translate(err))
	}
	b.state = st
	b.committed = st
	b.resume = st.UnitsDone
	b.runStart = time.Now()
	var last nqueens.Placement
	if st.Unique > 0 {
		// The classes to come follow the last one stored.
		var key string
		if err := b.h.DB.GetContext(ctx, &key, `SELECT placement FROM classes WHERE n = ? ORDER BY class DESC LIMIT 1`, b.n); err != nil {
			return fmt.Errorf("build n=%d: %w", b.n, dbfile.Translate(err))
		}
		if p, err := nqueens.ParseKey(key); err == nil {
			last = p
		}
	}
	b.ins = record.NewWriter(ctx, b.n, last)
	return b.begin()
}

// Resume returns the index of the first work unit the build still needs:
// 0 for a new build.
func (b *Builder) Resume() int { return b.resume }

// State returns what the builder has recorded so far.
func (b *Builder) State() record.Build { return b.state }

// begin opens the next write transaction.
func (b *Builder) begin() error {
	tx, err := b.h.DB.BeginTxx(b.ctx, nil)
	if err != nil {
		return b.fail(fmt.Errorf("build n=%d: %w", b.n, dbfile.Translate(err)))
	}
	b.tx = tx
	b.ins.Begin(tx, int64(b.state.Unique))
	b.lastCommit = time.Now()
	b.sinceCommit = 0
	return nil
}

// Add stores the classes of work unit i, which must be the next unit the
// build needs (Resume, then one more per call), numbering them after those
// stored: they must come in increasing order of their placements, after
// every class stored before (the class search yields them so). The
// layouts' Class fields are ignored.
func (b *Builder) Add(i int, classes []nqueens.Layout) error {
	if b.done {
		return errors.New("build: Add after Finish or Close")
	}
	if b.failed != nil {
		return fmt.Errorf("build n=%d: a write failed before: %w", b.n, b.failed)
	}
	if i != b.state.UnitsDone {
		return fmt.Errorf("build n=%d: got unit %d, want unit %d", b.n, i, b.state.UnitsDone)
	}
	for _, l := range classes {
		if err := b.ins.Add(l); err != nil {
			return b.fail(fmt.Errorf("build n=%d: %w", b.n, err))
		}
		b.state.Counts.Add(l.Symmetry)
	}
	b.state.UnitsDone++
	b.sinceCommit += len(classes)
	if b.sinceCommit >= commitRows || time.Since(b.lastCommit) >= commitEvery {
		if err := b.checkpoint(); err != nil {
			return err
		}
	}
	return nil
}

// checkpoint commits the rows and progress so far and opens a new
// transaction.
func (b *Builder) checkpoint() error {
	if err := b.commit(false); err != nil {
		return err
	}
	return b.begin()
}

// fail abandons the open transaction after a failed write and returns
// err. SQLite may already have rolled the transaction back (a full disk,
// an I/O error), so nothing more may be written in it: a statement would
// run on its own, outside any transaction, and record rows without the
// progress that accounts for them. The catalog keeps what the last commit
// recorded; the builder takes no more writes, and a later Begin resumes
// from that commit.
func (b *Builder) fail(err error) error {
	if b.ins != nil {
		b.ins.Abandon()
	}
	if b.tx != nil {
		b.tx.Rollback()
		b.tx = nil
	}
	b.state = b.committed
	b.failed = err
	return err
}

// commit flushes, records progress (and completion) and commits.
func (b *Builder) commit(complete bool) error {
	if b.failed != nil {
		return fmt.Errorf("build n=%d: a write failed before: %w", b.n, b.failed)
	}
	if err := b.ins.Flush(); err != nil {
		return b.fail(fmt.Errorf("build n=%d: %w", b.n, err))
	}
	st := b.state
	now := time.Now()
	st.Seconds += now.Sub(b.runStart).Seconds()
	if complete {
		st.Complete = true
		st.FinishedAt = now.UTC()
	}
	if err := record.Save(b.ctx, b.tx, st, complete); err != nil {
		return b.fail(fmt.Errorf("build n=%d: record progress: %w", b.n, dbfile.Translate(err)))
	}
	b.ins.Close()
	if err := b.tx.Commit(); err != nil {
		return b.fail(fmt.Errorf("build n=%d: commit: %w", b.n, dbfile.Translate(err)))
	}
	b.tx = nil
	b.state = st
	b.committed = st
	b.ins.Commit()
	b.runStart = now
	return nil
}

// Finish commits the last classes and marks n complete. Every work unit
// must have been added. It releases the build lock; the Builder cannot be
// used afterwards.
func (b *Builder) Finish() (record.Build, error) {
	if b.done {
		return record.Build{}, errors.New("build: Finish after Finish or Close")
	}
	if b.state.UnitsDone != b.state.UnitsTotal {
		return record.Build{}, fmt.Errorf("build n=%d: finish after %d of %d units", b.n, b.state.UnitsDone, b.state.UnitsTotal)
	}
	err := b.commit(true)
	b.release()
	return b.state, err
}

// Close commits what has been added and releases the build lock, leaving
// n incomplete unless Finish was called; a later Begin resumes from here.
// After a failed write it commits nothing (the catalog keeps the last
// commit) and returns nil: the failure was reported by the call that met
// it. It is a no-op after Finish.
func (b *Builder) Close() error {
	if b.done {
		return nil
	}
	var err error
	if b.failed == nil {
		err = b.commit(false)
	}
	b.release()
	return err
}

func (b *Builder) release() {
	if b.tx != nil {
		b.tx.Rollback()
		b.tx = nil
	}
	b.done = true
	b.unlock()
}
