package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nqueens/nqueens/store/internal/dbfile"

	"github.com/jmoiron/sqlx"

	"github.com/nqueens/nqueens"
)

// Build is what the catalog records of one board size.
type Build struct {
	N int
	nqueens.Counts
	// Complete is true once every work unit's classes are stored; until
	// then the counts cover only the first UnitsDone units.
	Complete   bool
	UnitsDone  int
	UnitsTotal int
	// StartedAt is when the first run of the build started, FinishedAt when
	// it completed (zero while incomplete).
	StartedAt  time.Time
	FinishedAt time.Time
	// Seconds is the time spent building, summed over the runs.
	Seconds float64
	// Shard says which shard of n's work units the build holds; it is the
	// zero Shard for a build of the whole board.
	Shard nqueens.Shard
}

// MarshalJSON writes b as one object of nqueens stats --json: n, the
// counts (total, unique, orbit8 to orbit1), complete, units_done,
// units_total, started_at and finished_at in RFC 3339 to the second
// (finished_at left out while incomplete), seconds, and, for a shard
// build only, shard.
func (b Build) MarshalJSON() ([]byte, error) {
	o := struct {
		N int `json:"n"`
		nqueens.Counts
		Complete   bool           `json:"complete"`
		UnitsDone  int            `json:"units_done"`
		UnitsTotal int            `json:"units_total"`
		StartedAt  string         `json:"started_at"`
		FinishedAt string         `json:"finished_at,omitempty"`
		Seconds    float64        `json:"seconds"`
		Shard      *nqueens.Shard `json:"shard,omitempty"`
	}{N: b.N, Counts: b.Counts, Complete: b.Complete, UnitsDone: b.UnitsDone, UnitsTotal: b.UnitsTotal,
		StartedAt: b.StartedAt.Format(time.RFC3339), Seconds: b.Seconds}
	if !b.FinishedAt.IsZero() {
		o.FinishedAt = b.FinishedAt.Format(time.RFC3339)
	}
	if !b.Shard.IsWhole() {
		o.Shard = &b.Shard
	}
	return json.Marshal(o)
}

// buildRow is the scan target for a builds row.
type buildRow struct {
	N          int            `db:"n"`
	Total      uint64         `db:"total"`
	Unique     uint64         `db:"unique_count"`
	Orbit8     uint64         `db:"orbit8"`
	Orbit4     uint64         `db:"orbit4"`
	Orbit2     uint64         `db:"orbit2"`
	Orbit1     uint64         `db:"orbit1"`
	Complete   bool           `db:"complete"`
	UnitsDone  int            `db:"units_done"`
	UnitsTotal int            `db:"units_total"`
	StartedAt  string         `db:"started_at"`
	FinishedAt sql.NullString `db:"finished_at"`
	Seconds    float64        `db:"seconds"`
	ShardIndex int            `db:"shard_index"`
	ShardCount int            `db:"shard_count"`
}

const buildColumns = `n, total, unique_count, orbit8, orbit4, orbit2, orbit1, complete, units_done, units_total, started_at, finished_at, seconds, shard_index, shard_count`

// buildColumns returns the columns of a builds row as the catalog's schema
// holds them: a catalog opened read-only keeps its older schema, and
// before version 2 every build was of the whole board.
func (db *DB) buildColumns() string {
	if db.version < 2 {
		return strings.Replace(buildColumns, "shard_index, shard_count", "0 AS shard_index, 0 AS shard_count", 1)
	}
	return buildColumns
}

func (r buildRow) build() Build {
	b := Build{
		N: r.N,
		Counts: nqueens.Counts{Total: r.Total, Unique: r.Unique,
			Orbit8: r.Orbit8, Orbit4: r.Orbit4, Orbit2: r.Orbit2, Orbit1: r.Orbit1},
		Complete: r.Complete, UnitsDone: r.UnitsDone, UnitsTotal: r.UnitsTotal,
		Seconds: r.Seconds,
		Shard:   nqueens.Shard{Index: r.ShardIndex, Count: r.ShardCount},
	}
	b.StartedAt, _ = time.Parse(time.RFC3339Nano, r.StartedAt)
	if r.FinishedAt.Valid {
		b.FinishedAt, _ = time.Parse(time.RFC3339Nano, r.FinishedAt.String)
	}
	return b
}

// Finished reports whether b is complete and of the whole board: its
// classes are all the classes of its n, and readers may take them as such.
func (b Build) Finished() bool { return b.Complete && b.Shard.IsWhole() }

// Complete returns the build of n if it is Finished. Otherwise it returns
// the build, if any, with an error wrapping ErrNotBuilt when the catalog
// has no build of n, or ErrIncomplete when it holds a build in progress,
// an interrupted one, or one shard of a sharded build (the build's Shard,
// UnitsDone and UnitsTotal say which and how far it got).
func (db *DB) Complete(ctx context.Context, n int) (Build, error) {
	b, err := db.Build(ctx, n)
	switch {
	case err != nil:
		return b, err
	case !b.Shard.IsWhole():
		return b, fmt.Errorf("n=%d is shard %s of a sharded build: %w", n, b.Shard, ErrIncomplete)
	case !b.Complete:
		return b, fmt.Errorf("n=%d is built %d of %d work units: %w", n, b.UnitsDone, b.UnitsTotal, ErrIncomplete)
	}
	return b, nil
}

// Builds returns what the catalog records of every n it has started, in
// increasing n.
func (db *DB) Builds(ctx context.Context) ([]Build, error) {
	var rows []buildRow
	if err := db.db.SelectContext(ctx, &rows, `SELECT `+db.buildColumns()+` FROM builds ORDER BY n`); err != nil {
		return nil, fmt.Errorf("read builds: %w", dbfile.Translate(err))
	}
	out := make([]Build, len(rows))
	for i, r := range rows {
		out[i] = r.build()
	}
	return out, nil
}

// Build returns what the catalog records of n, or an error wrapping
// ErrNotBuilt if no build of n was ever started.
func (db *DB) Build(ctx context.Context, n int) (Build, error) {
	return db.getBuild(ctx, db.db, n)
}

func (db *DB) getBuild(ctx context.Context, q sqlx.QueryerContext, n int) (Build, error) {
	var r buildRow
	err := sqlx.GetContext(ctx, q, &r, `SELECT `+db.buildColumns()+` FROM builds WHERE n = ?`, n)
	if errors.Is(err, sql.ErrNoRows) {
		return Build{}, fmt.Errorf("n=%d: %w", n, ErrNotBuilt)
	}
	if err != nil {
		return Build{}, fmt.Errorf("read build n=%d: %w", n, dbfile.Translate(err))
	}
	return r.build(), nil
}

// Builder writes the classes of one n into the catalog, a work unit at a
// time, committing regularly so that an interrupted build keeps what it
// has done: the catalog then holds the classes of the first UnitsDone
// units exactly, and the n stays marked incomplete until Finish.
type Builder struct {
	db     *DB
	n      int
	shard  nqueens.Shard
	unlock func()
	ctx    context.Context // not cancelled by the caller's cancellation: writes finish

	tx        *sqlx.Tx
	ins       inserter
	state     Build // what the open transaction will record
	committed Build // what the catalog holds: state as of the last commit
	resume    int
	failed    error // the write that failed; the builder takes no more

	runStart    time.Time
	lastCommit  time.Time
	sinceCommit int
	done        bool
}

const (
	batchRows   = 500                    // rows per INSERT statement
	commitRows  = 200_000                // rows per transaction, at most
	commitEvery = 500 * time.Millisecond // time between commits, at most
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
// whole, BeginShard fails with an error wrapping ErrShardMismatch.
func (db *DB) BeginShard(ctx context.Context, n int, shard nqueens.Shard, unitsTotal int) (*Builder, error) {
	if err := nqueens.CheckN(n); err != nil {
		return nil, err
	}
	if !shard.IsWhole() && (shard.Index < 0 || shard.Index >= shard.Count) {
		return nil, fmt.Errorf("build n=%d: bad shard %s", n, shard)
	}
	if db.readOnly {
		return nil, fmt.Errorf("build n=%d: %w: %s was opened for reading only", n, ErrReadOnly, db.path)
	}
	unlock, err := dbfile.Lock(db.lockPath)
	if err != nil {
		return nil, fmt.Errorf("build n=%d: %w", n, err)
	}
	b := &Builder{db: db, n: n, shard: shard, unlock: unlock, ctx: context.WithoutCancel(ctx)}
	if err := b.start(unitsTotal); err != nil {
		unlock()
		return nil, err
	}
	return b, nil
}

func (b *Builder) start(unitsTotal int) error {
	ctx := b.ctx
	now := time.Now().UTC()
	tx, err := b.db.db.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("build n=%d: %w", b.n, dbfile.Translate(err))
	}
	defer tx.Rollback()
	st, err := b.db.getBuild(ctx, tx, b.n)
	switch {
	case errors.Is(err, ErrNotBuilt):
		var orphans int64
		if err := tx.GetContext(ctx, &orphans, `SELECT count(*) FROM classes WHERE n = ?`, b.n); err != nil {
			return fmt.Errorf("build n=%d: %w", b.n, dbfile.Translate(err))
		}
		if orphans > 0 {
			return fmt.Errorf("build n=%d: %w: the catalog holds %d classes of n=%d but no record of their build (its builds row was deleted?); %s",
				b.n, ErrOrphans, orphans, b.n, orphanFix(b.db.path, b.n))
		}
		st = Build{N: b.n, UnitsTotal: unitsTotal, StartedAt: now, Shard: b.shard}
		_, err = tx.ExecContext(ctx, `INSERT INTO builds (n, units_total, started_at, shard_index, shard_count) VALUES (?, ?, ?, ?, ?)`,
			b.n, unitsTotal, now.Format(time.RFC3339Nano), b.shard.Index, b.shard.Count)
	case err != nil:
	case st.Shard != b.shard:
		return fmt.Errorf("n=%d: %w: the catalog holds %s, not %s", b.n, ErrShardMismatch, st.Shard.Describe(), b.shard.Describe())
	case st.Complete:
		return fmt.Errorf("n=%d: %w", b.n, ErrComplete)
	case st.UnitsTotal != unitsTotal:
		// The search is split differently from when the build began: its
		// units do not line up, so start again from nothing.
		st = Build{N: b.n, UnitsTotal: unitsTotal, StartedAt: st.StartedAt, Seconds: st.Seconds, Shard: b.shard}
		if _, err = tx.ExecContext(ctx, `DELETE FROM classes WHERE n = ?`, b.n); err == nil {
			err = b.saveState(tx, st, false)
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
	if st.Unique > 0 {
		// The classes to come follow the last one stored.
		var key string
		if err := b.db.db.GetContext(ctx, &key, `SELECT placement FROM classes WHERE n = ? ORDER BY class DESC LIMIT 1`, b.n); err != nil {
			return fmt.Errorf("build n=%d: %w", b.n, dbfile.Translate(err))
		}
		if p, err := nqueens.ParseKey(key); err == nil {
			b.ins.last, b.ins.committedLast = p, p
		}
	}
	return b.begin()
}

// Resume returns the index of the first work unit the build still needs:
// 0 for a new build.
func (b *Builder) Resume() int { return b.resume }

// State returns what the builder has recorded so far.
func (b *Builder) State() Build { return b.state }

// begin opens the next write transaction.
func (b *Builder) begin() error {
	tx, err := b.db.db.BeginTxx(b.ctx, nil)
	if err != nil {
		return b.fail(fmt.Errorf("build n=%d: %w", b.n, dbfile.Translate(err)))
	}
	b.tx = tx
	b.ins = inserter{ctx: b.ctx, tx: tx, n: b.n, class: int64(b.state.Unique),
		last: b.ins.last, committedLast: b.ins.committedLast, args: b.ins.args[:0]}
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
		if err := b.ins.add(l); err != nil {
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

// inserter inserts classes of one n inside a transaction, batchRows rows
// a statement, numbering them: the classes must come in increasing order
// of their placements, which is the order of their numbers.
type inserter struct {
	ctx   context.Context
	tx    *sqlx.Tx
	n     int
	class int64             // the number of the last class added
	last  nqueens.Placement // the last class added, zero before the first
	// committedLast is last as of the Builder's last commit.
	committedLast nqueens.Placement
	stmt          *sql.Stmt // multi-row insert of batchRows rows
	args          []any
	key           []byte
}

// errOrder is add's error for a class out of order: one stored already or
// one that belongs before the last.
var errOrder = errors.New("class out of order")

// add buffers the class l, numbered after the last, inserting the buffer
// once it holds batchRows.
func (w *inserter) add(l nqueens.Layout) error {
	if l.Placement.N() != w.n {
		return fmt.Errorf("placement of size %d", l.Placement.N())
	}
	if w.last.N() != 0 && l.Placement.Compare(w.last) <= 0 {
		return fmt.Errorf("%w: %s after %s", errOrder, l.Placement, w.last)
	}
	w.class++
	w.last = l.Placement
	w.key = l.Placement.AppendKey(w.key[:0])
	w.args = append(w.args, w.class, string(w.key), l.Symmetry.Orbit())
	if len(w.args) == insertArgs*batchRows {
		return w.flush()
	}
	return nil
}

// insertArgs is the number of values bound for each row.
const insertArgs = 3

// flush inserts the buffered rows.
func (w *inserter) flush() error {
	rows := len(w.args) / insertArgs
	if rows == 0 {
		return nil
	}
	var err error
	if rows == batchRows {
		if w.stmt == nil {
			w.stmt, err = w.tx.PrepareContext(w.ctx, insertSQL(w.n, batchRows))
			if err != nil {
				return fmt.Errorf("prepare insert: %w", dbfile.Translate(err))
			}
		}
		_, err = w.stmt.ExecContext(w.ctx, w.args...)
	} else {
		_, err = w.tx.ExecContext(w.ctx, insertSQL(w.n, rows), w.args...)
	}
	if err != nil {
		return fmt.Errorf("insert classes: %w", dbfile.Translate(err))
	}
	w.args = w.args[:0]
	return nil
}

// close releases the prepared statement.
func (w *inserter) close() {
	if w.stmt != nil {
		w.stmt.Close()
		w.stmt = nil
	}
}

// insertSQL returns a statement inserting rows classes of n, each bound as
// class, placement and orbit. n, an int checked by Begin, is written in the
// text.
func insertSQL(n, rows int) string {
	var s strings.Builder
	s.WriteString("INSERT INTO classes (n, class, placement, orbit) VALUES ")
	row := fmt.Sprintf("(%d,?,?,?)", n)
	for i := range rows {
		if i > 0 {
			s.WriteByte(',')
		}
		s.WriteString(row)
	}
	return s.String()
}

// saveState writes st to the builds row of its n inside tx.
func (b *Builder) saveState(tx *sqlx.Tx, st Build, complete bool) error {
	var finished any
	if complete {
		finished = st.FinishedAt.Format(time.RFC3339Nano)
	}
	_, err := tx.ExecContext(b.ctx, `UPDATE builds SET total = ?, unique_count = ?, orbit8 = ?, orbit4 = ?,
		orbit2 = ?, orbit1 = ?, complete = ?, units_done = ?, units_total = ?, finished_at = ?, seconds = ?
		WHERE n = ?`,
		st.Total, st.Unique, st.Orbit8, st.Orbit4, st.Orbit2, st.Orbit1, complete,
		st.UnitsDone, st.UnitsTotal, finished, st.Seconds, st.N)
	return err
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
	b.ins.close()
	b.ins.args = b.ins.args[:0]
	if b.tx != nil {
		b.tx.Rollback()
		b.tx = nil
	}
	b.state = b.committed
	b.ins.last = b.ins.committedLast
	b.failed = err
	return err
}

// commit flushes, records progress (and completion) and commits.
func (b *Builder) commit(complete bool) error {
	if b.failed != nil {
		return fmt.Errorf("build n=%d: a write failed before: %w", b.n, b.failed)
	}
	if err := b.ins.flush(); err != nil {
		return b.fail(fmt.Errorf("build n=%d: %w", b.n, err))
	}
	st := b.state
	now := time.Now()
	st.Seconds += now.Sub(b.runStart).Seconds()
	if complete {
		st.Complete = true
		st.FinishedAt = now.UTC()
	}
	if err := b.saveState(b.tx, st, complete); err != nil {
		return b.fail(fmt.Errorf("build n=%d: record progress: %w", b.n, dbfile.Translate(err)))
	}
	b.ins.close()
	if err := b.tx.Commit(); err != nil {
		return b.fail(fmt.Errorf("build n=%d: commit: %w", b.n, dbfile.Translate(err)))
	}
	b.tx = nil
	b.state = st
	b.committed = st
	b.ins.committedLast = b.ins.last
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
