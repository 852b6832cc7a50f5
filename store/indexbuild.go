package store

import (
	"context"
	"errors"
	"fmt"
	"iter"

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
	next    indexPrefix // the counts before the prefix to come; Index numbers it
	block   int64       // the number of the block being gathered
	units   int         // work units added to it
	entries []indexblock.Entry
	first   indexPrefix // the counts before the block being gathered
	// orbits counts the symmetric classes before the prefix to come,
	// firstOrbits those before the block being gathered.
	orbits, firstOrbits nqueens.Counts
	// done holds the finished blocks not yet written, sym their symmetric
	// classes.
	done []blockRow
	sym  []nqueens.Layout
}

// add adds the tallies of the prefixes of the next work unit, in order.
func (w *indexWriter) add(tallies []canonical.Tally) {
	if w.units == 0 {
		w.first, w.firstOrbits = w.next, w.orbits
	}
	for _, t := range tallies {
		w.entries = append(w.entries, indexblock.Entry{Unit: t.Unit, Classes: t.Counts.Unique, Solutions: t.Counts.Total})
		for _, l := range t.Symmetric {
			l.Class += int64(w.next.ClassesBefore)
			w.sym = append(w.sym, l)
			w.orbits.Add(l.Symmetry)
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
		h, data := indexblock.Encode(indexblock.Header{N: w.n, Block: w.block, FirstEntry: w.first.Index,
			ClassesBefore: int64(w.first.ClassesBefore), SolutionsBefore: int64(w.first.SolutionsBefore),
			Orbit4Before: int64(w.firstOrbits.Orbit4), Orbit2Before: int64(w.firstOrbits.Orbit2), Orbit1Before: int64(w.firstOrbits.Orbit1)}, w.entries)
		w.done = append(w.done, rowOf(h, data))
	}
	w.block++
	w.units = 0
	w.entries = w.entries[:0]
}

// write inserts the finished blocks, and the symmetric classes in them,
// into tx, and forgets them.
func (w *indexWriter) write(ctx context.Context, tx *sqlx.Tx) error {
	for _, r := range w.done {
		_, err := tx.ExecContext(ctx, `INSERT INTO index_blocks (n, block, first_entry, entries, classes_before, solutions_before,
			orbit4_before, orbit2_before, orbit1_before, first_prefix, checksum, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			w.n, r.Block, r.FirstEntry, r.Entries, r.ClassesBefore, r.SolutionsBefore, r.Orbit4Before, r.Orbit2Before, r.Orbit1Before, r.FirstPrefix, r.Checksum, r.Data)
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
		key := l.Placement.Key()
		_, err := tx.ExecContext(ctx, `INSERT INTO index_symmetric (n, class, placement, orbit, checksum) VALUES (?, ?, ?, ?, ?)`,
			w.n, l.Class, key, l.Symmetry.Orbit(), indexblock.SymmetricSum(w.n, l.Class, key, int64(l.Symmetry.Orbit())))
		if err != nil {
			return fmt.Errorf("insert symmetric class: %w", dbfile.Translate(err))
		}
	}
	w.sym = kept
	w.done = w.done[:0]
	return nil
}

// indexForm is the index form of a build (FormIndex), for the build
// loop (buildRun): it gathers each work unit's tallies into blocks
// (indexWriter) and writes the finished ones when the loop commits, which
// it lets the loop do at the end of a block only.
type indexForm struct {
	w     indexWriter
	depth int // the rows its prefixes fix
	total int // the work units of the build: the last closes its block
}

// newIndexForm returns the index form of the build of n, or of a shard of
// it, whose search has unitsTotal work units, with prefixes of
// canonical.IndexDepth(n) rows.
func newIndexForm(n, unitsTotal int) *indexForm {
	return &indexForm{w: indexWriter{n: n}, depth: canonical.IndexDepth(n), total: unitsTotal}
}

func (f *indexForm) fresh(b Build) Build { b.Form, b.IndexDepth = FormIndex, f.depth; return b }

// resumable reports whether st stopped at the end of a block (or of its
// units): the blocks are written whole.
func (f *indexForm) resumable(st Build) bool {
	return st.UnitsDone%blockUnits == 0 || st.UnitsDone == st.UnitsTotal
}

func (f *indexForm) drop(ctx context.Context, tx *sqlx.Tx, n int) error { return dropIndex(ctx, tx, n) }

// resume makes the prefixes to come follow the last block written,
// checked: it must end where the build's counts say, or the index is
// refused with an *IndexError.
func (f *indexForm) resume(ctx context.Context, db *DB, st Build) error {
	w := &f.w
	w.block = int64(st.UnitsDone / blockUnits)
	w.next = indexPrefix{ClassesBefore: st.Unique, SolutionsBefore: st.Total}
	w.orbits = nqueens.Counts{Orbit4: st.Orbit4, Orbit2: st.Orbit2, Orbit1: st.Orbit1}
	c := db.blockCursor(st)
	switch err := c.seekLast(ctx); {
	case errors.Is(err, errNoBlock) && (st.Unique != 0 || st.Total != 0):
		return &indexFault{N: w.n, Block: -1,
			Problem: fmt.Sprintf("has no block, the build records %s and %s", phrase.Plural(st.Unique, "class"), phrase.Plural(st.Total, "solution"))}
	case errors.Is(err, errNoBlock):
		return nil
	case err != nil:
		return err
	}
	entry, classes, solutions := c.Block().End()
	if classes != st.Unique || solutions != st.Total {
		return &indexFault{N: w.n, Block: c.Block().Block,
			Problem: fmt.Sprintf("ends after %s and %s, the build records %s and %s", phrase.Plural(classes, "class"), phrase.Plural(solutions, "solution"), phrase.Count(st.Unique), phrase.Count(st.Total))}
	}
	// And its symmetric classes those the build counts.
	if err := c.Block().Last(st.Counts, c.sealed()); err != nil {
		return indexError(w.n, err)
	}
	w.next.Index = entry
	return nil
}

func (f *indexForm) search(ctx context.Context, units []enumerate.Unit, from, workers int) iter.Seq2[int, []canonical.Tally] {
	return canonical.Tallies(ctx, units, from, f.depth, workers)
}

// add gathers the tallies of work unit i, closing the block at the last
// unit, and returns their counts.
func (f *indexForm) add(i int, tallies []canonical.Tally) (nqueens.Counts, error) {
	var c nqueens.Counts
	for _, t := range tallies {
		c.Merge(t.Counts)
	}
	f.w.add(tallies)
	if i+1 == f.total {
		f.w.close()
	}
	return c, nil
}

// ready reports whether no block is being gathered.
func (f *indexForm) ready() bool { return f.w.units == 0 }

func (f *indexForm) begin(*sqlx.Tx, Build) {}

// flush writes the finished blocks and their symmetric classes into tx,
// and counts the orbits of the classes so far from the symmetric ones
// listed.
func (f *indexForm) flush(ctx context.Context, tx *sqlx.Tx, st Build) (Build, error) {
	if err := f.w.write(ctx, tx); err != nil {
		return st, err
	}
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FILTER (WHERE orbit = 4), count(*) FILTER (WHERE orbit = 2),
		count(*) FILTER (WHERE orbit = 1) FROM index_symmetric WHERE n = ?`, f.w.n).Scan(&st.Orbit4, &st.Orbit2, &st.Orbit1); err != nil {
		return st, dbfile.Translate(err)
	}
	st.Orbit8 = st.Unique - st.Orbit4 - st.Orbit2 - st.Orbit1
	return st, nil
}

func (f *indexForm) committed() {}

// abandon does nothing: after a failed write the build loop writes no
// more, and the next run resumes from the last block committed.
func (f *indexForm) abandon() {}

// dropIndex deletes the index of n in tx.
func dropIndex(ctx context.Context, tx *sqlx.Tx, n int) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM index_blocks WHERE n = ?`, n); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM index_symmetric WHERE n = ?`, n)
	return err
}
