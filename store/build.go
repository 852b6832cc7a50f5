package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/store/internal/dbfile"
)

// Builder writes the classes of one n into the catalog, a work unit at a
// time (Add, after Resume), committing regularly so that an interrupted
// build keeps what it has done: the catalog then holds the classes of the
// first UnitsDone units exactly, and the n stays marked incomplete until
// Finish. Close ends a build left incomplete.
type Builder struct {
	db     *DB
	n      int
	shard  nqueens.Shard
	unlock func()
	ctx    context.Context // not cancelled by the caller's cancellation: writes finish

	tx        *sqlx.Tx
	ins       *classWriter
	state     Build // what the open transaction will record
	committed Build // what the catalog holds: state as of the last commit
	resume    int
	failed    error // the write that failed; the builder takes no more

	runStart    time.Time
	lastCommit  time.Time
	sinceCommit int
	commitRows  int // classes a transaction holds before a commit
	done        bool
}

const (
	defaultCommitRows = 200_000                // classes a transaction holds before a commit (see RunOptions.CommitRows)
	commitEvery       = 500 * time.Millisecond // time between commits, at most
)

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
	h := &db.h
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
	b := &Builder{db: db, n: n, shard: shard, unlock: unlock, ctx: context.WithoutCancel(ctx), commitRows: defaultCommitRows}
	if err := b.start(unitsTotal); err != nil {
		unlock()
		return nil, err
	}
	return b, nil
}

// start reads or starts the builds row of b's n, in one transaction, and
// opens the first write transaction.
func (b *Builder) start(unitsTotal int) error {
	ctx := b.ctx
	now := time.Now().UTC()
	tx, err := b.db.h.DB.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("build n=%d: %w", b.n, dbfile.Translate(err))
	}
	defer tx.Rollback()
	st, err := getBuild(ctx, tx, b.db.h.Version, b.n)
	switch {
	case errors.Is(err, ErrNotBuilt):
		var orphans int64
		if err := tx.GetContext(ctx, &orphans, `SELECT count(*) FROM classes WHERE n = ?`, b.n); err != nil {
			return fmt.Errorf("build n=%d: %w", b.n, dbfile.Translate(err))
		}
		if orphans > 0 {
			return fmt.Errorf("build n=%d: %w: the catalog holds %d classes of n=%d but no record of their build (its builds row was deleted?); %s",
				b.n, ErrOrphans, orphans, b.n, orphanFix(b.db.h.Path, b.n))
		}
		st = Build{N: b.n, UnitsTotal: unitsTotal, StartedAt: now, Shard: b.shard}
		err = startBuild(ctx, tx, st)
	case err != nil:
	case st.Shard != b.shard:
		return fmt.Errorf("n=%d: %w: the catalog holds %s, not %s", b.n, ErrShardMismatch, st.Shard.Describe(), b.shard.Describe())
	case st.Form != FormRows:
		return fmt.Errorf("n=%d: %w: the catalog holds %s of its index, not its rows", b.n, ErrFormMismatch, st.Describe())
	case st.Complete:
		return fmt.Errorf("n=%d: %w", b.n, ErrComplete)
	case st.UnitsTotal != unitsTotal:
		// The search is split differently from when the build began: its
		// units do not line up, so start again from nothing.
		st = Build{N: b.n, UnitsTotal: unitsTotal, StartedAt: st.StartedAt, Seconds: st.Seconds, Shard: b.shard}
		if _, err = tx.ExecContext(ctx, `DELETE FROM classes WHERE n = ?`, b.n); err == nil {
			err = saveBuild(ctx, tx, st, false)
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
		if err := b.db.h.DB.GetContext(ctx, &key, `SELECT placement FROM classes WHERE n = ? ORDER BY class DESC LIMIT 1`, b.n); err != nil {
			return fmt.Errorf("build n=%d: %w", b.n, dbfile.Translate(err))
		}
		if p, err := nqueens.ParseKey(key); err == nil {
			last = p
		}
	}
	b.ins = newClassWriter(ctx, b.n, last)
	return b.begin()
}

// Resume returns the index of the first work unit the build still needs:
// 0 for a new build.
func (b *Builder) Resume() int { return b.resume }

// State returns what the builder has recorded so far.
func (b *Builder) State() Build { return b.state }

// begin opens the next write transaction.
func (b *Builder) begin() error {
	tx, err := b.db.h.DB.BeginTxx(b.ctx, nil)
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
	if b.sinceCommit >= b.commitRows || time.Since(b.lastCommit) >= commitEvery {
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
	if err := saveBuild(b.ctx, b.tx, st, complete); err != nil {
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
func (b *Builder) Finish() (Build, error) {
	if b.done {
		return Build{}, errors.New("build: Finish after Finish or Close")
	}
	if b.state.UnitsDone != b.state.UnitsTotal {
		return Build{}, fmt.Errorf("build n=%d: finish after %d of %d units", b.n, b.state.UnitsDone, b.state.UnitsTotal)
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

// RunOptions tune Run. The zero value searches on all cores and reports
// nothing.
type RunOptions struct {
	// Workers is how many goroutines search work units: all cores when
	// less than 1.
	Workers int
	// Start, if not nil, is called once, when the build has begun and
	// before the search: from is the first work unit still to search (0
	// unless an earlier run stopped part way), total the build's work
	// units, and stored the classes the catalog holds of them already.
	Start func(from, total int, stored uint64)
	// Progress, if not nil, is called after each work unit's classes are
	// handed to the catalog, with the units done so far (the unit just
	// added is done-1) and the total. It runs on Run's goroutine: the
	// search waits for it.
	Progress func(done, total int)
	// CommitRows is how many classes the build adds in a transaction
	// before it commits (200,000 when less than 1): it commits at the end
	// of the work unit whose classes reach it, and also every half second.
	// A commit is what a killed build keeps: fewer classes a commit lose
	// less work to a kill, and cost more commits. An index build commits
	// at the end of a block of work units, every half second, and, when
	// CommitRows is set, once the blocks since the last commit hold
	// CommitRows classes.
	CommitRows int
	// Index builds the index of n (FormIndex) instead of its rows.
	Index bool
}

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
//
// With opts.Index it builds the index of n instead (FormIndex): the work
// units' prefixes (canonical.Tallies) in blocks of 64 units, committed as
// blocks end; a catalog that holds n in the other form, whole or in part,
// is an error wrapping ErrFormMismatch. A finished build of the whole
// board whose counts are not the published ones gives
// nqueens.CheckKnown's *nqueens.KnownError.
func (db *DB) Run(ctx context.Context, n int, shard nqueens.Shard, opts RunOptions) (Build, error) {
	form := map[bool]Form{false: FormRows, true: FormIndex}[opts.Index]
	if st, err := db.Build(ctx, n); err == nil && st.Complete && st.Shard == shard {
		if st.Form != form {
			return st, fmt.Errorf("n=%d: %w: the catalog holds %s of its %s, not its %s", n, ErrFormMismatch, st.Describe(), st.Form, form)
		}
		return st, fmt.Errorf("n=%d: %w", n, ErrComplete)
	}
	if err := nqueens.CheckN(n); err != nil {
		return Build{}, fmt.Errorf("build %w", err)
	}
	units, _, err := canonical.Shard(n, shard)
	if err != nil {
		return Build{}, fmt.Errorf("build n=%d: %w", n, err)
	}
	if opts.Index {
		return db.runIndex(ctx, n, shard, units, opts)
	}
	b, err := db.BeginShard(ctx, n, shard, len(units))
	if errors.Is(err, ErrComplete) { // completed by another process meanwhile
		st, rerr := db.Build(ctx, n)
		if rerr != nil {
			return Build{}, rerr
		}
		return st, err
	}
	if err != nil {
		return Build{}, err
	}
	defer b.Close()
	if opts.CommitRows > 0 {
		b.commitRows = opts.CommitRows
	}
	from := b.Resume()
	if opts.Start != nil {
		opts.Start(from, len(units), b.State().Unique)
	}
	for i, batch := range canonical.UnitClasses(ctx, units, from, opts.Workers) {
		if err := b.Add(i, batch); err != nil {
			return b.State(), err
		}
		if opts.Progress != nil {
			opts.Progress(i+1, len(units))
		}
	}
	if ctx.Err() != nil {
		st := b.State()
		if err := b.Close(); err != nil {
			return st, err
		}
		return st, fmt.Errorf("interrupted: n=%d stopped after %d of %d work units with %s stored; run the same build again to resume",
			n, st.UnitsDone, st.UnitsTotal, phrase.Plural(st.Unique, "class"))
	}
	st, err := b.Finish()
	if err == nil && shard.IsWhole() {
		if err = nqueens.CheckKnown(n, st.Counts); err != nil {
			err = fmt.Errorf("build n=%d: finished with %w", n, err)
		}
	}
	return st, err
}
