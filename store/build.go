package store

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/enumerate"
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/store/internal/dbfile"
)

// builder writes the classes of one n into the catalog, a work unit at a
// time (Add, after Resume), committing regularly so that an interrupted
// build keeps what it has done: the catalog then holds the classes of the
// first UnitsDone units exactly, and the n stays marked incomplete until
// Finish. Close ends a build left incomplete. It writes the rows form
// (FormRows), through the same build loop as Run.
type builder struct {
	run *buildRun[[]nqueens.Layout]
}

const (
	defaultCommitRows = 200_000                // classes a transaction holds before a commit (see RunOptions.CommitRows)
	commitEvery       = 500 * time.Millisecond // time between commits, at most
)

// begin starts or resumes the build of n, whose search has unitsTotal work
// units. It takes the catalog's build lock first, and fails at once with
// ErrBusy if another Builder (in this process or another) holds it. If n
// is complete it returns an error wrapping ErrComplete. If an earlier build
// of n stopped part way, the new Builder resumes after the units it
// committed (see Resume); if that build split the search differently, its
// classes are dropped and the build starts over. The caller must call
// Finish or Close.
func (db *DB) begin(ctx context.Context, n, unitsTotal int) (*builder, error) {
	return db.beginShard(ctx, n, nqueens.Shard{}, unitsTotal)
}

// beginShard is Begin for one shard of n's work units, unitsTotal of them,
// in a shard catalog (see Merge). A catalog holds each n either whole or
// as one shard: if it already holds a build of n for another shard, or
// whole, beginShard fails with an error wrapping ErrShardMismatch. A
// catalog opened read-only is ErrReadOnly, classes of n with no builds
// row ErrOrphans, and an index of n (see RunOptions.Index)
// ErrFormMismatch.
func (db *DB) beginShard(ctx context.Context, n int, shard nqueens.Shard, unitsTotal int) (*builder, error) {
	r, _, err := beginRun(ctx, db, n, shard, unitsTotal, &rowsForm{})
	if err != nil {
		return nil, err
	}
	return &builder{run: r}, nil
}

// Resume returns the index of the first work unit the build still needs:
// 0 for a new build.
func (b *builder) Resume() int { return b.run.resume }

// State returns what the builder has recorded so far.
func (b *builder) State() Build { return b.run.state }

// Add stores the classes of work unit i, which must be the next unit the
// build needs (Resume, then one more per call), numbering them after those
// stored: they must come in increasing order of their placements, after
// every class stored before (the class search yields them so). The
// layouts' Class fields are ignored. After a failed write the Builder
// takes no more: each later Add says so.
func (b *builder) Add(i int, classes []nqueens.Layout) error { return b.run.add(i, classes) }

// Finish commits the last classes and marks n complete. Every work unit
// must have been added. It releases the build lock; the Builder cannot be
// used afterwards. A build of the whole board whose counts are not the
// published ones is marked complete all the same, and Finish returns it
// with nqueens.CheckKnown's *nqueens.KnownError.
func (b *builder) Finish() (Build, error) { return b.run.finish() }

// Close commits what has been added and releases the build lock, leaving
// n incomplete unless Finish was called; a later Begin resumes from here.
// After a failed write it commits nothing (the catalog keeps the last
// commit) and returns nil: the failure was reported by the call that met
// it. It is a no-op after Finish.
func (b *builder) Close() error { return b.run.close() }

// A buildForm writes the classes of a build in one form, a work unit at a
// time: rowsForm the rows (FormRows), indexForm the index (FormIndex).
// T is what the search yields of a work unit. The build loop, buildRun,
// does what both forms share: the build lock, the builds row (read or
// started, resumed or started over), the transactions and when they
// commit, the interruption and the finish; a buildForm holds what
// differs between the forms, and the loop never asks which it has.
type buildForm[T any] interface {
	// fresh returns b, the builds row of a new build, with the form and
	// its index depth set.
	fresh(b Build) Build
	// resumable reports whether the form can go on from st, an
	// incomplete build of the same form, work units and depth (an index only
	// from the end of a block); if not, the build starts over.
	resumable(st Build) bool
	// drop deletes the form's data of n in tx, for a build that starts
	// over.
	drop(ctx context.Context, tx *sqlx.Tx, n int) error
	// resume prepares the form to write after what the catalog holds of
	// st, the build as committed, checking that it ends where st says.
	resume(ctx context.Context, db *DB, st Build) error
	// search searches units[from:] on workers goroutines and yields, in
	// order, each unit's index and what the form takes of it. Cancelling
	// ctx stops it.
	search(ctx context.Context, units []enumerate.Unit, from, workers int) iter.Seq2[int, T]
	// add takes the data of work unit i, the next one, and returns the
	// unit's counts.
	add(i int, data T) (nqueens.Counts, error)
	// ready reports whether the units added so far can be committed: an
	// index is written a whole block at a time.
	ready() bool
	// begin makes the form write into tx, after the classes of st.
	begin(tx *sqlx.Tx, st Build)
	// flush writes into tx what the units up to the last ready point
	// hold, and returns st, the build that tx is to record, with what the
	// form knows better (an index counts the orbits of its symmetric
	// classes).
	flush(ctx context.Context, tx *sqlx.Tx, st Build) (Build, error)
	// committed says that what flush wrote is committed.
	committed()
	// abandon drops what was added since the last commit, after a failed
	// write.
	abandon()
}

// buildRun is the build loop, for either form: one run of the build of
// n, or of a shard of it, holding the build lock, writing through form
// and committing every commitEvery, or once commitRows classes wait, at a
// point where form is ready. Builder and Run both go through it.
type buildRun[T any] struct {
	db     *DB
	n      int
	shard  nqueens.Shard
	form   buildForm[T]
	unlock func()
	ctx    context.Context // not cancelled by the caller's cancellation: writes finish

	tx        *sqlx.Tx
	state     Build // what the open transaction will record: the units up to form's last ready point
	committed Build // what the catalog holds: state as of the last commit
	// gathered holds the counts of the units added since form's last
	// ready point, units of them.
	gathered nqueens.Counts
	units    int
	resume   int
	failed   error // the write that failed; the run takes no more

	runStart   time.Time
	lastCommit time.Time
	commitRows int // classes a transaction holds before a commit
	done       bool
}

// beginRun starts or resumes the build of n, or of shard, whose search
// has unitsTotal work units, in form: it takes the build
// lock (ErrBusy if another holds it) and reads or starts the builds row
// (see start). It returns the builds row as read, also with an error.
func beginRun[T any](ctx context.Context, db *DB, n int, shard nqueens.Shard, unitsTotal int, form buildForm[T]) (*buildRun[T], Build, error) {
	h := &db.h
	if err := nqueens.CheckN(n); err != nil {
		return nil, Build{}, err
	}
	if shard.Check() != nil {
		return nil, Build{}, fmt.Errorf("build n=%d: bad shard %s", n, shard)
	}
	if h.ReadOnly {
		return nil, Build{}, fmt.Errorf("build n=%d: %w: %s was opened for reading only", n, dbfile.ErrReadOnly, h.Path)
	}
	unlock, err := dbfile.Lock(h.LockPath)
	if err != nil {
		return nil, Build{}, fmt.Errorf("build n=%d: %w", n, err)
	}
	r := &buildRun[T]{db: db, n: n, shard: shard, form: form, unlock: unlock, ctx: context.WithoutCancel(ctx), commitRows: defaultCommitRows}
	st, err := r.start(unitsTotal)
	if err != nil {
		unlock()
		return nil, st, err
	}
	return r, st, nil
}

// start reads or starts the builds row of r's n, in one transaction:
// classes with no builds row are ErrOrphans; a build of another shard
// ErrShardMismatch, of the other form ErrFormMismatch, a complete one
// ErrComplete; a build that split the search otherwise (other work units,
// another index depth, or a point form cannot resume from) is dropped
// and started over. Then form resumes after what the catalog holds, and the
// first write transaction opens. It returns the builds row.
func (r *buildRun[T]) start(unitsTotal int) (Build, error) {
	ctx, n := r.ctx, r.n
	tx, err := r.db.h.DB.BeginTxx(ctx, nil)
	if err != nil {
		return Build{}, fmt.Errorf("build n=%d: %w", n, dbfile.Translate(err))
	}
	defer tx.Rollback()
	fresh := r.form.fresh(Build{N: n, UnitsTotal: unitsTotal, StartedAt: time.Now().UTC(), Shard: r.shard})
	st, err := getBuild(ctx, tx, r.db.h.Version, n)
	switch {
	case errors.Is(err, ErrNotBuilt):
		var orphans int64
		if err := tx.GetContext(ctx, &orphans, `SELECT count(*) FROM classes WHERE n = ?`, n); err != nil {
			return Build{}, fmt.Errorf("build n=%d: %w", n, dbfile.Translate(err))
		}
		if orphans > 0 {
			return Build{}, fmt.Errorf("build n=%d: %w: the catalog holds %s of n=%d but no record of their build (its builds row was deleted?); %s",
				n, ErrOrphans, phrase.Plural(orphans, "class"), n, orphanFix(r.db.h.Path, n))
		}
		st = fresh
		if err = r.form.drop(ctx, tx, n); err == nil {
			err = startBuild(ctx, tx, st)
		}
	case err != nil:
		return st, err
	case st.Shard != r.shard:
		return st, fmt.Errorf("n=%d: %w: the catalog holds %s, not %s", n, ErrShardMismatch, st.Shard.Describe(), r.shard.Describe())
	case st.Form != fresh.Form:
		return st, fmt.Errorf("n=%d: %w: the catalog holds %s of its %s, not its %s", n, ErrFormMismatch, st.Describe(), st.Form, fresh.Form)
	case st.Complete:
		return st, fmt.Errorf("n=%d: %w", n, ErrComplete)
	case st.UnitsTotal != unitsTotal || st.IndexDepth != fresh.IndexDepth || !r.form.resumable(st):
		// The search is split otherwise than when the build began: its
		// units do not line up, so start again from nothing.
		depth := st.IndexDepth != fresh.IndexDepth
		fresh.StartedAt, fresh.Seconds = st.StartedAt, st.Seconds
		st = fresh
		if err = r.form.drop(ctx, tx, n); err == nil {
			err = saveBuild(ctx, tx, st, false)
		}
		if err == nil && depth {
			_, err = tx.ExecContext(ctx, `UPDATE builds SET index_depth = ? WHERE n = ?`, st.IndexDepth, n)
		}
	}
	if err != nil {
		return st, fmt.Errorf("build n=%d: %w", n, dbfile.Translate(err))
	}
	if err := tx.Commit(); err != nil {
		return st, fmt.Errorf("build n=%d: %w", n, dbfile.Translate(err))
	}
	r.state, r.committed = st, st
	r.resume = st.UnitsDone
	r.runStart = time.Now()
	if err := r.form.resume(ctx, r.db, st); err != nil {
		return st, fmt.Errorf("build n=%d: %w", n, err)
	}
	return st, r.begin()
}

// begin opens the next write transaction.
func (r *buildRun[T]) begin() error {
	tx, err := r.db.h.DB.BeginTxx(r.ctx, nil)
	if err != nil {
		return r.fail(fmt.Errorf("build n=%d: %w", r.n, dbfile.Translate(err)))
	}
	r.tx = tx
	r.form.begin(tx, r.state)
	r.lastCommit = time.Now()
	return nil
}

// add hands the data of work unit i, the next one, to the form, and
// commits once commitRows classes wait or commitEvery has passed, if the
// form is ready.
func (r *buildRun[T]) add(i int, data T) error {
	if r.done {
		return errors.New("build: Add after Finish or Close")
	}
	if r.failed != nil {
		return fmt.Errorf("build n=%d: a write failed before: %w", r.n, r.failed)
	}
	if want := r.state.UnitsDone + r.units; i != want {
		return fmt.Errorf("build n=%d: got unit %d, want unit %d", r.n, i, want)
	}
	c, err := r.form.add(i, data)
	if err != nil {
		return r.fail(fmt.Errorf("build n=%d: %w", r.n, err))
	}
	r.gathered.Merge(c)
	r.units++
	if !r.form.ready() {
		return nil
	}
	r.state.Counts.Merge(r.gathered)
	r.state.UnitsDone += r.units
	r.gathered, r.units = nqueens.Counts{}, 0
	if r.state.Unique-r.committed.Unique >= uint64(r.commitRows) || time.Since(r.lastCommit) >= commitEvery {
		if err := r.commit(false); err != nil {
			return err
		}
		return r.begin()
	}
	return nil
}

// fail abandons the open transaction after a failed write and returns
// err. SQLite may already have rolled the transaction back (a full disk,
// an I/O error), so nothing more may be written in it: a statement would
// run on its own, outside any transaction, and record classes without the
// progress that accounts for them. The catalog keeps what the last commit
// recorded; the run takes no more writes, and a later one resumes from
// that commit.
func (r *buildRun[T]) fail(err error) error {
	r.form.abandon()
	if r.tx != nil {
		r.tx.Rollback()
		r.tx = nil
	}
	r.state = r.committed
	r.gathered, r.units = nqueens.Counts{}, 0
	r.failed = err
	return err
}

// commit has the form flush, records the progress (and completion) and
// commits.
func (r *buildRun[T]) commit(complete bool) error {
	if r.failed != nil {
		return fmt.Errorf("build n=%d: a write failed before: %w", r.n, r.failed)
	}
	st, err := r.form.flush(r.ctx, r.tx, r.state)
	if err != nil {
		return r.fail(fmt.Errorf("build n=%d: %w", r.n, err))
	}
	now := time.Now()
	st.Seconds += now.Sub(r.runStart).Seconds()
	if complete {
		st.Complete = true
		st.FinishedAt = now.UTC()
	}
	if err := saveBuild(r.ctx, r.tx, st, complete); err != nil {
		return r.fail(fmt.Errorf("build n=%d: record progress: %w", r.n, dbfile.Translate(err)))
	}
	if err := r.tx.Commit(); err != nil {
		return r.fail(fmt.Errorf("build n=%d: commit: %w", r.n, dbfile.Translate(err)))
	}
	r.tx = nil
	r.state, r.committed = st, st
	r.form.committed()
	r.runStart = now
	return nil
}

// finish commits the last units, marks n complete and releases the build
// lock; every work unit must have been added. A build of the whole board
// whose counts are not the published ones is complete all the same, and
// finish returns it with nqueens.CheckKnown's *nqueens.KnownError.
func (r *buildRun[T]) finish() (Build, error) {
	if r.done {
		return Build{}, errors.New("build: Finish after Finish or Close")
	}
	if r.state.UnitsDone != r.state.UnitsTotal {
		return Build{}, fmt.Errorf("build n=%d: finish after %d of %d units", r.n, r.state.UnitsDone+r.units, r.state.UnitsTotal)
	}
	err := r.commit(true)
	r.release()
	if err == nil && r.shard.IsWhole() {
		if err = nqueens.CheckKnown(r.n, r.state.Counts); err != nil {
			err = fmt.Errorf("build n=%d: finished with %w", r.n, err)
		}
	}
	return r.state, err
}

// close commits what the form can (up to its last ready point) and
// releases the build lock, leaving n incomplete. After a failed write it
// commits nothing and returns nil. It is a no-op after finish or close.
func (r *buildRun[T]) close() error {
	if r.done {
		return nil
	}
	var err error
	if r.failed == nil {
		err = r.commit(false)
	}
	r.release()
	return err
}

func (r *buildRun[T]) release() {
	if r.tx != nil {
		r.tx.Rollback()
		r.tx = nil
	}
	r.done = true
	r.unlock()
}

// rowsForm is the rows form of a build (FormRows): a row of the classes
// table for each class, inserted as the work units come.
type rowsForm struct {
	ins *classWriter
}

func (f *rowsForm) fresh(b Build) Build { b.Form, b.IndexDepth = FormRows, 0; return b }

func (f *rowsForm) resumable(Build) bool { return true }

func (f *rowsForm) drop(ctx context.Context, tx *sqlx.Tx, n int) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM classes WHERE n = ?`, n)
	return err
}

// resume makes the classes to come follow the last one stored.
func (f *rowsForm) resume(ctx context.Context, db *DB, st Build) error {
	var last nqueens.Placement
	if st.Unique > 0 {
		var key string
		if err := db.h.DB.GetContext(ctx, &key, `SELECT placement FROM classes WHERE n = ? ORDER BY class DESC LIMIT 1`, st.N); err != nil {
			return dbfile.Translate(err)
		}
		if p, err := nqueens.ParseKey(key); err == nil {
			last = p
		}
	}
	f.ins = newClassWriter(ctx, st.N, last)
	return nil
}

func (f *rowsForm) search(ctx context.Context, units []enumerate.Unit, from, workers int) iter.Seq2[int, []nqueens.Layout] {
	return canonical.UnitClasses(ctx, units, from, workers)
}

func (f *rowsForm) add(_ int, classes []nqueens.Layout) (nqueens.Counts, error) {
	var c nqueens.Counts
	for _, l := range classes {
		if err := f.ins.Add(l); err != nil {
			return c, err
		}
		c.Add(l.Symmetry)
	}
	return c, nil
}

func (f *rowsForm) ready() bool { return true }

func (f *rowsForm) begin(tx *sqlx.Tx, st Build) { f.ins.Begin(tx, int64(st.Unique)) }

func (f *rowsForm) flush(_ context.Context, _ *sqlx.Tx, st Build) (Build, error) {
	if err := f.ins.Flush(); err != nil {
		return st, err
	}
	f.ins.Close()
	return st, nil
}

func (f *rowsForm) committed() { f.ins.Commit() }

func (f *rowsForm) abandon() {
	if f.ins != nil {
		f.ins.Abandon()
	}
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
	// less work to a kill, and cost more commits. An index, written a
	// whole block of work units at a time, commits by the same rule at
	// the end of a block only.
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
// (ErrBusy, ErrShardMismatch, ErrFormMismatch, ErrOrphans, ErrReadOnly, a
// shard that n's units cannot be split into), Add and Finish; a build
// that fails part way keeps what it last committed, and a later Run
// resumes from there. A finished build of the whole board whose counts
// are not the published ones gives nqueens.CheckKnown's
// *nqueens.KnownError.
//
// With opts.Index it builds the index of n instead (FormIndex): the work
// units' prefixes (canonical.Tallies) in blocks of 64 units, committed as
// blocks end; a catalog that holds n in the other form, whole or in part,
// is an error wrapping ErrFormMismatch. An index whose last block does not
// end at the counts its build records is not resumed: an error wrapping
// ErrBadRow (an *IndexError). Both forms go through one build loop.
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
		return runUnits(ctx, db, n, shard, units, opts, newIndexForm(n, len(units)))
	}
	return runUnits(ctx, db, n, shard, units, opts, &rowsForm{})
}

// runUnits is Run's build loop, for form: it begins or
// resumes the build, hands the units it still needs to w in order, and
// finishes the build, or, when ctx is cancelled, commits what it can and
// says how far it got.
func runUnits[T any](ctx context.Context, db *DB, n int, shard nqueens.Shard, units []enumerate.Unit, opts RunOptions, form buildForm[T]) (Build, error) {
	r, st, err := beginRun(ctx, db, n, shard, len(units), form)
	if err != nil {
		return st, err
	}
	defer r.close()
	if opts.CommitRows > 0 {
		r.commitRows = opts.CommitRows
	}
	if opts.Start != nil {
		opts.Start(r.resume, len(units), r.state.Unique)
	}
	for i, data := range form.search(ctx, units, r.resume, opts.Workers) {
		if err := r.add(i, data); err != nil {
			return r.state, err
		}
		if opts.Progress != nil {
			opts.Progress(i+1, len(units))
		}
	}
	if ctx.Err() != nil && r.state.UnitsDone+r.units < len(units) {
		// The units added since the form's last ready point (the
		// block of an index being gathered) are searched again when the
		// build resumes.
		if err := r.close(); err != nil {
			return r.state, err
		}
		st := r.state
		return st, fmt.Errorf("interrupted: n=%d stopped after %s of %s work units with %s stored; run the same build again to resume",
			n, phrase.Count(st.UnitsDone), phrase.Count(st.UnitsTotal), phrase.Plural(st.Unique, "class"))
	}
	return r.finish()
}
