package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/enumerate"
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/store/internal/dbfile"
	"github.com/nqueens/nqueens/store/internal/indexblock"
)

// ErrFormMismatch: the catalog holds n in the other form (rows, or an
// index) than a build asked for.
var ErrFormMismatch = errors.New("built in the other form")

// indexWriter gathers the prefixes of an index work unit by work unit into
// blocks of blockUnits units, and writes the finished blocks and the
// symmetric classes in them into a transaction. The blocks depend on the
// prefixes and units alone, so a build that resumes writes what an
// unbroken one does.
type indexWriter struct {
	n       int
	next    IndexPrefix // the counts before the prefix to come; Index numbers it
	block   int64       // the number of the block being gathered
	units   int         // work units added to it
	entries []indexblock.Entry
	first   IndexPrefix // the counts before the block being gathered
	// done holds the finished blocks not yet written, sym their symmetric
	// classes.
	done []blockRow
	sym  []nqueens.Layout
}

// add adds the tallies of the prefixes of the next work unit, in order.
func (w *indexWriter) add(tallies []canonical.Tally) {
	if w.units == 0 {
		w.first = w.next
	}
	for _, t := range tallies {
		w.entries = append(w.entries, indexblock.Entry{Unit: t.Unit, Classes: t.Counts.Unique, Solutions: t.Counts.Total})
		for _, l := range t.Symmetric {
			l.Class += int64(w.next.ClassesBefore)
			w.sym = append(w.sym, l)
		}
		w.next.Index++
		w.next.ClassesBefore += t.Counts.Unique
		w.next.SolutionsBefore += t.Counts.Total
	}
	w.units++
	if w.units == blockUnits {
		w.close()
	}
}

// close finishes the block being gathered, if it has a unit.
func (w *indexWriter) close() {
	if w.units == 0 {
		return
	}
	if len(w.entries) > 0 {
		h, data := indexblock.Encode(w.n, w.block, w.first.Index, w.first.ClassesBefore, w.first.SolutionsBefore, w.entries)
		w.done = append(w.done, blockRow{Block: h.Block, FirstEntry: h.FirstEntry, Entries: h.Entries,
			ClassesBefore: h.ClassesBefore, SolutionsBefore: h.SolutionsBefore, FirstPrefix: h.FirstPrefix, Checksum: h.Checksum, Data: data})
	}
	w.block++
	w.units = 0
	w.entries = w.entries[:0]
}

// pending returns the classes in the finished blocks not yet written.
func (w *indexWriter) pending() uint64 {
	if len(w.done) == 0 {
		return 0
	}
	return w.first.ClassesBefore - uint64(w.done[0].ClassesBefore)
}

// write inserts the finished blocks, and the symmetric classes in them,
// into tx, and forgets them.
func (w *indexWriter) write(ctx context.Context, tx *sqlx.Tx) error {
	for _, r := range w.done {
		_, err := tx.ExecContext(ctx, `INSERT INTO index_blocks (n, block, first_entry, entries, classes_before, solutions_before, first_prefix, checksum, data)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, w.n, r.Block, r.FirstEntry, r.Entries, r.ClassesBefore, r.SolutionsBefore, r.FirstPrefix, r.Checksum, r.Data)
		if err != nil {
			return fmt.Errorf("insert index block: %w", dbfile.Translate(err))
		}
	}
	end := w.next.ClassesBefore
	if w.units > 0 {
		end = w.first.ClassesBefore
	}
	kept := w.sym[:0]
	for _, l := range w.sym {
		if uint64(l.Class) > end {
			kept = append(kept, l)
			continue
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO index_symmetric (n, class, placement, orbit) VALUES (?, ?, ?, ?)`,
			w.n, l.Class, l.Placement.Key(), l.Symmetry.Orbit())
		if err != nil {
			return fmt.Errorf("insert symmetric class: %w", dbfile.Translate(err))
		}
	}
	w.sym = kept
	w.done = w.done[:0]
	return nil
}

// runIndex is Run for the index form: it builds the index of n, or of the
// shard whose work units are units, into the catalog.
func (db *DB) runIndex(ctx context.Context, n int, shard nqueens.Shard, units []enumerate.Unit, opts RunOptions) (Build, error) {
	h := &db.h
	if h.ReadOnly {
		return Build{}, fmt.Errorf("build n=%d: %w: %s was opened for reading only", n, dbfile.ErrReadOnly, h.Path)
	}
	unlock, err := dbfile.Lock(h.LockPath)
	if err != nil {
		return Build{}, fmt.Errorf("build n=%d: %w", n, err)
	}
	defer unlock()
	wctx := context.WithoutCancel(ctx) // writes finish
	st, err := db.startIndex(wctx, n, shard, len(units))
	if err != nil {
		return st, err
	}
	w := &indexWriter{n: n, block: int64(st.UnitsDone / blockUnits)}
	w.next.ClassesBefore, w.next.SolutionsBefore = st.Unique, st.Total
	// The prefixes to come follow the last block written, checked.
	c := db.blockCursor(st)
	switch err := c.seekLast(wctx); {
	case errors.Is(err, errNoBlock) && (st.Unique != 0 || st.Total != 0):
		return st, fmt.Errorf("build n=%d: %w", n, &IndexError{N: n, Block: -1,
			Problem: fmt.Sprintf("has no block, the build records %d classes and %d solutions", st.Unique, st.Total)})
	case errors.Is(err, errNoBlock):
	case err != nil:
		return st, fmt.Errorf("build n=%d: %w", n, err)
	default:
		entry, classes, solutions := c.Block().End()
		if classes != st.Unique || solutions != st.Total {
			return st, fmt.Errorf("build n=%d: %w", n, &IndexError{N: n, Block: c.Block().Block,
				Problem: fmt.Sprintf("ends after %d classes and %d solutions, the build records %d and %d", classes, solutions, st.Unique, st.Total)})
		}
		w.next.Index = entry
	}
	from := st.UnitsDone
	if opts.Start != nil {
		opts.Start(from, len(units), st.Unique)
	}
	runStart := time.Now()
	lastCommit := runStart
	// commit writes the finished blocks and records the work units they
	// cover, marking n complete if complete is set.
	commit := func(complete bool) error {
		done := st
		done.UnitsDone = int(w.block) * blockUnits
		if complete {
			done.UnitsDone = len(units)
		}
		done.Counts = nqueens.Counts{}
		done.Total, done.Unique = w.first.SolutionsBefore, w.first.ClassesBefore
		if complete || w.units == 0 {
			done.Total, done.Unique = w.next.SolutionsBefore, w.next.ClassesBefore
		}
		now := time.Now()
		done.Seconds += now.Sub(runStart).Seconds()
		if complete {
			done.Complete, done.FinishedAt = true, now.UTC()
		}
		tx, err := h.DB.BeginTxx(wctx, nil)
		if err != nil {
			return fmt.Errorf("build n=%d: %w", n, dbfile.Translate(err))
		}
		defer tx.Rollback()
		if err := w.write(wctx, tx); err != nil {
			return fmt.Errorf("build n=%d: %w", n, err)
		}
		// The orbits of the classes so far: the symmetric ones are listed.
		if err := tx.QueryRowContext(wctx, `SELECT count(*) FILTER (WHERE orbit = 4), count(*) FILTER (WHERE orbit = 2),
			count(*) FILTER (WHERE orbit = 1) FROM index_symmetric WHERE n = ?`, n).Scan(&done.Orbit4, &done.Orbit2, &done.Orbit1); err != nil {
			return fmt.Errorf("build n=%d: %w", n, dbfile.Translate(err))
		}
		done.Orbit8 = done.Unique - done.Orbit4 - done.Orbit2 - done.Orbit1
		if err := saveBuild(wctx, tx, done, complete); err != nil {
			return fmt.Errorf("build n=%d: record progress: %w", n, dbfile.Translate(err))
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("build n=%d: commit: %w", n, dbfile.Translate(err))
		}
		st, runStart, lastCommit = done, now, now
		return nil
	}
	for i, tallies := range canonical.Tallies(ctx, units, from, st.IndexDepth, opts.Workers) {
		w.add(tallies)
		if i+1 == len(units) {
			w.close()
		}
		if len(w.done) > 0 && w.units == 0 && (time.Since(lastCommit) >= commitEvery || (opts.CommitRows > 0 && w.pending() >= uint64(opts.CommitRows))) {
			if err := commit(false); err != nil {
				return st, err
			}
		}
		if opts.Progress != nil {
			opts.Progress(i+1, len(units))
		}
	}
	if ctx.Err() != nil {
		// The finished blocks are kept; the units of the block being
		// gathered are searched again when the build resumes.
		if err := commit(false); err != nil {
			return st, err
		}
		return st, fmt.Errorf("interrupted: n=%d stopped after %d of %d work units with %s indexed; run the same build again to resume",
			n, st.UnitsDone, st.UnitsTotal, phrase.Plural(st.Unique, "class"))
	}
	if err := commit(true); err != nil {
		return st, err
	}
	return st, nil
}

// startIndex reads or starts the builds row of the index of n, of shard,
// with unitsTotal work units, in one transaction, and returns it. It
// refuses as BeginShard does, and refuses a catalog that holds n as rows
// (ErrFormMismatch). An index begun with other work units or prefixes is
// dropped and begun again.
func (db *DB) startIndex(ctx context.Context, n int, shard nqueens.Shard, unitsTotal int) (Build, error) {
	h := &db.h
	depth := canonical.IndexDepth(n)
	tx, err := h.DB.BeginTxx(ctx, nil)
	if err != nil {
		return Build{}, fmt.Errorf("build n=%d: %w", n, dbfile.Translate(err))
	}
	defer tx.Rollback()
	fresh := Build{N: n, UnitsTotal: unitsTotal, StartedAt: time.Now().UTC(), Shard: shard, Form: FormIndex, IndexDepth: depth}
	st, err := getBuild(ctx, tx, h.Version, n)
	switch {
	case errors.Is(err, ErrNotBuilt):
		var orphans int64
		if err := tx.GetContext(ctx, &orphans, `SELECT count(*) FROM classes WHERE n = ?`, n); err != nil {
			return Build{}, fmt.Errorf("build n=%d: %w", n, dbfile.Translate(err))
		}
		if orphans > 0 {
			return Build{}, fmt.Errorf("build n=%d: %w: the catalog holds %d classes of n=%d but no record of their build (its builds row was deleted?); %s",
				n, ErrOrphans, orphans, n, orphanFix(h.Path, n))
		}
		st = fresh
		if err = dropIndex(ctx, tx, n); err == nil {
			err = startBuild(ctx, tx, st)
		}
	case err != nil:
		return st, err
	case st.Shard != shard:
		return st, fmt.Errorf("n=%d: %w: the catalog holds %s, not %s", n, ErrShardMismatch, st.Shard.Describe(), shard.Describe())
	case st.Form != FormIndex:
		return st, fmt.Errorf("n=%d: %w: the catalog holds %s of its rows, not an index", n, ErrFormMismatch, st.Describe())
	case st.Complete:
		return st, fmt.Errorf("n=%d: %w", n, ErrComplete)
	case st.UnitsTotal != unitsTotal || st.IndexDepth != depth || st.UnitsDone%blockUnits != 0:
		// Split otherwise than this build splits it: start again.
		fresh.StartedAt, fresh.Seconds = st.StartedAt, st.Seconds
		st = fresh
		if err = dropIndex(ctx, tx, n); err == nil {
			err = saveBuild(ctx, tx, st, false)
		}
		if err == nil {
			_, err = tx.ExecContext(ctx, `UPDATE builds SET index_depth = ? WHERE n = ?`, depth, n)
		}
	}
	if err != nil {
		return st, fmt.Errorf("build n=%d: %w", n, dbfile.Translate(err))
	}
	if err := tx.Commit(); err != nil {
		return st, fmt.Errorf("build n=%d: %w", n, dbfile.Translate(err))
	}
	return st, nil
}

// dropIndex deletes the index of n in tx.
func dropIndex(ctx context.Context, tx *sqlx.Tx, n int) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM index_blocks WHERE n = ?`, n); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM index_symmetric WHERE n = ?`, n)
	return err
}
