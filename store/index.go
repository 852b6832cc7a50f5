package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/enumerate"
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/store/internal/dbfile"
	"github.com/nqueens/nqueens/store/internal/indexblock"
)

// The index form of a build (FormIndex).
//
// The class search lists the classes of n prefix by prefix (the prefixes
// of Build.IndexDepth rows its pruning leaves, canonical.Below of each work
// unit, in lexicographic order), each prefix's classes in lexicographic
// order. The index keeps, for each prefix, the classes and solutions under
// it, in blocks (index_blocks) that also hold the counts before them: so
// class K is a seek for the last block whose classes before are below K,
// a walk along its prefixes, and the search of one prefix's subtree
// (canonical.UnitClass); a canonical placement's number is a seek for its
// prefix's block and the search of that subtree up to it
// (canonical.UnitRank). The few classes with a symmetry are listed
// (index_symmetric), so that a filter by symmetry reads them.

// blockUnits is the number of work units whose prefixes a block holds:
// the last block of a build may hold fewer.
const blockUnits = 64

// blockRow is the scan target for a row of index_blocks.
type blockRow struct {
	Block           int64  `db:"block"`
	FirstEntry      int64  `db:"first_entry"`
	Entries         int64  `db:"entries"`
	ClassesBefore   int64  `db:"classes_before"`
	SolutionsBefore int64  `db:"solutions_before"`
	Orbit4Before    int64  `db:"orbit4_before"`
	Orbit2Before    int64  `db:"orbit2_before"`
	Orbit1Before    int64  `db:"orbit1_before"`
	FirstPrefix     string `db:"first_prefix"`
	Checksum        int64  `db:"checksum"`
	Data            []byte `db:"data"`
}

// header returns the row's header, of a block of n.
func (r blockRow) header(n int) indexblock.Header {
	return indexblock.Header{N: n, Block: r.Block, FirstEntry: r.FirstEntry, Entries: r.Entries,
		ClassesBefore: r.ClassesBefore, SolutionsBefore: r.SolutionsBefore,
		Orbit4Before: r.Orbit4Before, Orbit2Before: r.Orbit2Before, Orbit1Before: r.Orbit1Before,
		FirstPrefix: r.FirstPrefix, Checksum: r.Checksum}
}

// rowOf returns the row of the block whose header is h and data data.
func rowOf(h indexblock.Header, data []byte) blockRow {
	return blockRow{Block: h.Block, FirstEntry: h.FirstEntry, Entries: h.Entries, ClassesBefore: h.ClassesBefore, SolutionsBefore: h.SolutionsBefore,
		Orbit4Before: h.Orbit4Before, Orbit2Before: h.Orbit2Before, Orbit1Before: h.Orbit1Before,
		FirstPrefix: h.FirstPrefix, Checksum: h.Checksum, Data: data}
}

// indexFault is the error of an index whose blocks are not what the
// catalog promises: a block that does not match its checksum or does not
// decode, prefixes out of order, counts that do not add up from block to
// block or to the build's, a prefix whose subtree holds other classes than
// its count, or a symmetric class listed where the prefixes have none. It
// matches ErrBadRow.
type indexFault struct {
	N     int
	Block int64 // the block at fault, -1 for the index as a whole
	// Problem says what is wrong: "records 120 classes before it, the
	// blocks before hold 118".
	Problem string
}

// Error names n, the block and the fault: "n=18 index block 12 records
// ...: the catalog is damaged".
func (e *indexFault) Error() string {
	if e.Block < 0 {
		return fmt.Sprintf("n=%d index %s: the catalog is damaged", e.N, e.Problem)
	}
	return fmt.Sprintf("n=%d index block %d %s: the catalog is damaged", e.N, e.Block, e.Problem)
}

// Is reports whether target is ErrBadRow.
func (e *indexFault) Is(target error) bool { return target == ErrBadRow }

// indexError turns the codec's fault into the *IndexError of n; other
// errors are returned as they are.
func indexError(n int, err error) error {
	var f *indexblock.Fault
	if errors.As(err, &f) {
		return &indexFault{N: n, Block: f.Block, Problem: f.Problem}
	}
	return err
}

// indexClass is Class of an index: class k of the build b.
func (db *DB) indexClass(ctx context.Context, b Build, k int64) (nqueens.Layout, error) {
	if k < 1 || uint64(k) > b.Unique {
		return nqueens.Layout{}, fmt.Errorf("n=%d class %d: %w: n=%d has classes 1 to %d", b.N, k, ErrNoClass, b.N, b.Unique)
	}
	c := db.blockCursor(b)
	if err := c.seekClass(ctx, k); err != nil {
		return nqueens.Layout{}, err
	}
	e, rank, err := c.classAt(k)
	if err != nil {
		return nqueens.Layout{}, err
	}
	l, ok := canonical.UnitClass(e.Unit, rank)
	if !ok {
		return l, c.short(e)
	}
	l.Class = k
	return l, nil
}

// indexRank is Finder.Find of an index: the number of the class of the
// build b whose canonical placement is c, or an error wrapping ErrNoClass.
func (db *DB) indexRank(ctx context.Context, b Build, p nqueens.Placement) (int64, error) {
	notFound := fmt.Errorf("n=%d: %s: %w", b.N, p, ErrNoClass)
	if p.N() != b.N || b.IndexDepth > p.N() {
		return 0, notFound
	}
	key := p.Key()[:b.IndexDepth]
	c := db.blockCursor(b)
	if err := c.seekPrefix(ctx, key); errors.Is(err, errNoBlock) {
		return 0, notFound
	} else if err != nil {
		return 0, err
	}
	e, before, ok := c.prefixAt(key)
	if !ok {
		return 0, notFound
	}
	r, _, ok := canonical.UnitRank(e.Unit, p)
	if !ok {
		return 0, notFound
	}
	return int64(before) + r, nil
}

// searchFrom returns an iterator over the classes of the index of b from
// class from to class to, in order, numbered, found by the class search
// below each prefix in turn (on all cores), but for the prefixes that skip
// (if not nil) reports hold none of the classes the caller wants, which
// are not searched; searched, if not nil, is told the classes of each
// block's prefixes as they are passed. A prefix whose subtree holds another number of classes
// than the index records is yielded as an *IndexError and ends it, as does
// a read error.
func (db *DB) searchFrom(ctx context.Context, b Build, from, to int64, skip func(indexblock.Entry) bool, searched func(uint64)) iter.Seq2[nqueens.Layout, error] {
	return func(yield func(nqueens.Layout, error) bool) {
		if from > to {
			return
		}
		c := db.blockCursor(b)
		err := c.seekClass(ctx, from)
		for more := true; more; more, err = c.Next(ctx) {
			if err != nil {
				yield(nqueens.Layout{}, err)
				return
			}
			blk := c.Block()
			if blk.ClassesBefore >= to {
				return // the range ended with the block before
			}
			// The prefixes from the one that holds class from.
			k := blk.ClassesBefore
			first := 0
			for first < len(blk.Prefixes) && k+int64(blk.Prefixes[first].Classes) < from {
				k += int64(blk.Prefixes[first].Classes)
				first++
			}
			// The prefixes to the one that holds class to, and which of
			// them to search.
			type pick struct {
				e      indexblock.Entry
				search bool
			}
			var picks []pick
			var units []enumerate.Unit
			for end, i := k, first; i < len(blk.Prefixes) && end < to; i++ {
				e := blk.Prefixes[i]
				p := pick{e: e, search: skip == nil || !skip(e)}
				if p.search {
					units = append(units, e.Unit)
				}
				picks = append(picks, p)
				end += int64(e.Classes)
			}
			if searched != nil {
				var passed uint64
				for _, p := range picks {
					passed += p.e.Classes
				}
				searched(passed)
			}
			j := 0 // the pick of the next batch
			for _, batch := range canonical.UnitClasses(ctx, units, 0, 0) {
				for ; !picks[j].search; j++ {
					k += int64(picks[j].e.Classes)
				}
				e := picks[j].e
				j++
				if uint64(len(batch)) != e.Classes {
					yield(nqueens.Layout{}, c.short(e))
					return
				}
				for _, l := range batch {
					k++
					if k < from {
						continue
					} else if k > to {
						return
					}
					l.Class = k
					if !yield(l, nil) {
						return
					}
				}
			}
			if ctx.Err() != nil {
				yield(nqueens.Layout{}, ctx.Err())
				return
			}
		}
	}
}

// indexClasses is Classes of an index: the classes of the build b that f
// selects. Those of a symmetry are read from index_symmetric when f leaves
// out the classes of none (symmetricClasses); the others are searched
// (searchFrom). An offset among the classes of a symmetry has become a
// class number (Classes, nth).
func (db *DB) indexClasses(ctx context.Context, b Build, f Filter) iter.Seq2[nqueens.Layout, error] {
	if len(f.Symmetry) > 0 && !f.hasOrbit(8) {
		return db.symmetricClasses(ctx, b, f)
	}
	from, to := max(f.From, 1), int64(b.Unique)
	if f.To > 0 {
		to = min(f.To, to)
	}
	offset, limit := f.Offset, f.Limit
	// A square on a row the prefixes fix is decided by the prefix: the
	// others' classes are not searched.
	var skip func(indexblock.Entry) bool
	if sq := f.Square; sq != nil && sq.Row < b.IndexDepth {
		skip = func(e indexblock.Entry) bool { return e.Unit.Queen(sq.Row) != sq.Col }
	}
	return func(yield func(nqueens.Layout, error) bool) {
		if from == to && !f.sparse() {
			// One class: the search of its prefix stops at it (indexClass).
			l, err := db.indexClass(ctx, b, from)
			yield(l, err)
			return
		}
		var matched, yielded int64
		for l, err := range db.searchFrom(ctx, b, from, to, skip, f.Searched) {
			if err != nil {
				yield(l, err)
				return
			}
			if !f.hasOrbit(l.Symmetry.Orbit()) || (f.Square != nil && !f.Square.Holds(l.Placement)) {
				continue
			}
			if matched++; matched <= offset {
				continue
			}
			if !yield(l, nil) {
				return
			}
			if yielded++; limit > 0 && yielded == limit {
				return
			}
		}
	}
}

// maxSymmetric returns the most symmetric classes the build b can have: a
// symmetric class lacks 4 solutions at least of the 8 a class of no
// symmetry has, so there are (8 x classes - solutions) / 4 of them at most
// (n = 1's one class lacks 7). A reader of the list reads no more rows.
func maxSymmetric(b Build) int64 {
	if 8*b.Unique < b.Total {
		return 0
	}
	return int64((8*b.Unique - b.Total) / 4)
}

// symmetricClasses reads the symmetric classes of the index of b that f
// selects, checking each row as Classes checks the rows of classes, and
// against the prefixes of the index (checkSymmetric). The rows are read
// first, at most maxSymmetric of them, and checked once they are closed.
func (db *DB) symmetricClasses(ctx context.Context, b Build, f Filter) iter.Seq2[nqueens.Layout, error] {
	where, args := f.where(b.N)
	sum := "checksum"
	if !db.sealed() {
		sum = "0 AS checksum" // a catalog read without migrating it has none
	}
	q := `SELECT class, placement, orbit, ` + sum + ` FROM index_symmetric WHERE ` + where + ` ORDER BY class LIMIT ? OFFSET ?`
	// A read of every class of the orbits f selects must find as many as
	// the build counts.
	whole := f.From <= 1 && (f.To == 0 || uint64(f.To) >= b.Unique) && f.Offset == 0 && f.Limit == 0 && f.Square == nil
	most := maxSymmetric(b)
	limit := most + 1 // one more than there can be, to tell a list too long
	if f.Limit > 0 {
		limit = min(limit, f.Limit)
	}
	args = append(args, limit, f.Offset)
	return func(yield func(nqueens.Layout, error) bool) {
		type row struct {
			k     int64
			key   string
			orbit int
			sum   int64
		}
		var list []row
		rows, err := db.h.DB.QueryContext(ctx, q, args...)
		if err != nil {
			yield(nqueens.Layout{}, fmt.Errorf("read classes n=%d: %w", b.N, dbfile.Translate(err)))
			return
		}
		for rows.Next() {
			var r row
			if err := rows.Scan(&r.k, &r.key, &r.orbit, &r.sum); err != nil {
				rows.Close()
				yield(nqueens.Layout{}, fmt.Errorf("read classes n=%d: %w", b.N, dbfile.Translate(err)))
				return
			}
			list = append(list, r)
		}
		if err := rows.Close(); err != nil {
			yield(nqueens.Layout{}, fmt.Errorf("read classes n=%d: %w", b.N, dbfile.Translate(err)))
			return
		}
		if int64(len(list)) > most {
			yield(nqueens.Layout{}, &indexFault{N: b.N, Block: -1, Problem: fmt.Sprintf("lists more symmetric classes than the %d its counts allow", most)})
			return
		}
		seq := sequence{N: b.N}
		check := db.symmetricChecker(b)
		for _, r := range list {
			l, err := decodeClass(b.N, r.k, r.key, r.orbit)
			if err == nil && db.sealed() && r.sum != indexblock.SymmetricSum(b.N, r.k, r.key, int64(r.orbit)) {
				err = &rowError{N: b.N, Layout: l, Key: r.key, Problems: []string{"does not match its checksum in the index's list of symmetric classes"}}
			}
			err = seq.Check(l, r.key, err)
			if err == nil && (r.k < 1 || uint64(r.k) > b.Unique || l.Symmetry == nqueens.SymNone) {
				err = &rowError{N: b.N, Layout: l, Key: r.key, Problems: []string{fmt.Sprintf("is listed as a symmetric class of the index, numbered 1 to %d", b.Unique)}}
			}
			if err == nil {
				err = check(ctx, l)
			}
			if !yield(l, err) {
				return
			}
		}
		// The list between the classes asked for, checked against the
		// blocks' counts of it: after the rows, so that a reader that goes
		// on after a bad row (verify) sees each.
		to := f.To
		if to == 0 {
			to = int64(b.Unique)
		}
		if err := db.checkSymmetric(ctx, b, max(f.From, 1), to); err != nil {
			yield(nqueens.Layout{}, err)
			return
		}
		if whole {
			var got nqueens.Counts
			for _, r := range list {
				if s, err := nqueens.SymmetryOfOrbit(r.orbit); err == nil {
					got.Add(s)
				}
			}
			for _, s := range f.Symmetry {
				if g, w := got.Of(s), b.Counts.Of(s); g != w {
					yield(nqueens.Layout{}, &indexFault{N: b.N, Block: -1, Problem: fmt.Sprintf("lists %d symmetric classes of symmetry %s, the build counts %d", g, s, w)})
					return
				}
			}
		}
	}
}

// checkSymmetric checks the index's list of symmetric classes between the
// blocks that hold classes from and to: the classes it lists from the
// first of them to the end of the last, by orbit, must be those the blocks
// count before them (sealed in each block's row; the build's counts after
// the last block), so that a class dropped from the list, or added to it,
// is refused by every read that counts or pages by the list (nth, tally,
// symmetricClasses). A catalog read without migrating it to schema 6 has
// no such counts: nothing is checked. A fault is an *IndexError.
func (db *DB) checkSymmetric(ctx context.Context, b Build, from, to int64) error {
	c := db.blockCursor(b)
	if !c.sealed() || from > to || b.Unique == 0 {
		return nil
	}
	from, to = max(from, 1), min(to, int64(b.Unique))
	if err := c.seekClass(ctx, from); err != nil {
		return err
	}
	first := c.Block()
	if err := c.seekClass(ctx, to); err != nil {
		return err
	}
	end, want := int64(b.Unique), [3]int64{int64(b.Orbit4), int64(b.Orbit2), int64(b.Orbit1)}
	if a := c.after; a != nil {
		end, want = a.ClassesBefore, [3]int64{a.Orbit4Before, a.Orbit2Before, a.Orbit1Before}
	}
	want[0] -= first.Orbit4Before
	want[1] -= first.Orbit2Before
	want[2] -= first.Orbit1Before
	var got [3]int64
	var other int64
	rows, err := db.h.DB.QueryContext(ctx, `SELECT orbit, count(*) FROM index_symmetric WHERE n = ? AND class > ? AND class <= ? GROUP BY orbit`, b.N, first.ClassesBefore, end)
	if err != nil {
		return fmt.Errorf("read classes n=%d: %w", b.N, dbfile.Translate(err))
	}
	defer rows.Close()
	for rows.Next() {
		var orbit, k int64
		if err := rows.Scan(&orbit, &k); err != nil {
			return fmt.Errorf("read classes n=%d: %w", b.N, dbfile.Translate(err))
		}
		switch orbit {
		case 4:
			got[0] = k
		case 2:
			got[1] = k
		case 1:
			got[2] = k
		default:
			other += k
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read classes n=%d: %w", b.N, dbfile.Translate(err))
	}
	if got != want || other != 0 {
		return &indexFault{N: b.N, Block: -1, Problem: fmt.Sprintf("lists %d, %d and %d symmetric classes of orbit 4, 2 and 1 (and %d of no such orbit) among classes %d to %d, its blocks count %d, %d and %d",
			got[0], got[1], got[2], other, first.ClassesBefore+1, end, want[0], want[1], want[2])}
	}
	return nil
}

// symmetricChecker returns a check of the symmetric classes of the index
// of b, read from its list, against the prefixes of the index they lie
// under: the class must be numbered among that prefix's classes, and the
// symmetric classes listed under a prefix must lack the solutions the
// prefix records them lacking (8 x classes - solutions, the sum of 8 -
// orbit over them). A class moved or added under a prefix read fails one
// of them (a class renumbered fails its row's checksum first, and one
// dropped under a prefix no row read lies under, checkSymmetric); a fault
// is an *IndexError. The check walks one cursor
// (classes in order mostly share blocks) and reads each prefix's list once.
func (db *DB) symmetricChecker(b Build) func(context.Context, nqueens.Layout) error {
	c := db.blockCursor(b)
	checked := map[string]bool{}
	return func(ctx context.Context, l nqueens.Layout) error {
		if b.IndexDepth < 1 || b.IndexDepth > l.Placement.N() {
			return &indexFault{N: b.N, Block: -1, Problem: fmt.Sprintf("has prefixes of %d rows", b.IndexDepth)}
		}
		key := l.Placement.Key()[:b.IndexDepth]
		blk := c.Block()
		if !c.started || key < blk.FirstPrefix || (c.after != nil && key >= c.after.FirstPrefix) {
			if err := c.seekPrefix(ctx, key); errors.Is(err, errNoBlock) {
				return &indexFault{N: b.N, Block: -1, Problem: fmt.Sprintf("lists symmetric class %d (%s) under prefix %s, before the first block", l.Class, l.Placement, key)}
			} else if err != nil {
				return err
			}
		}
		e, before, ok := c.prefixAt(key)
		switch {
		case !ok:
			return &indexFault{N: b.N, Block: c.Block().Block, Problem: fmt.Sprintf("lists symmetric class %d (%s) under prefix %s, which the index does not hold", l.Class, l.Placement, key)}
		case uint64(l.Class) <= before || uint64(l.Class) > before+e.Classes:
			return &indexFault{N: b.N, Block: c.Block().Block, Problem: fmt.Sprintf("lists symmetric class %d (%s) under prefix %s, whose classes are %d to %d", l.Class, l.Placement, key, before+1, before+e.Classes)}
		case checked[key]:
			return nil
		}
		var lacking sql.NullInt64
		err := db.h.DB.GetContext(ctx, &lacking, `SELECT sum(8 - orbit) FROM index_symmetric WHERE n = ? AND class > ? AND class <= ?`, b.N, before, before+e.Classes)
		if err != nil {
			return fmt.Errorf("read classes n=%d: %w", b.N, dbfile.Translate(err))
		}
		if uint64(lacking.Int64) != 8*e.Classes-e.Solutions {
			return &indexFault{N: b.N, Block: c.Block().Block, Problem: fmt.Sprintf("lists symmetric classes lacking %s under prefix %s, which records %s of %s",
				phrase.Plural(lacking.Int64, "solution"), key, phrase.Plural(e.Classes, "class"), phrase.Plural(e.Solutions, "solution"))}
		}
		checked[key] = true
		return nil
	}
}

// indexPrefix is one prefix of an index and the counts under it: what the
// index records, for a reader that checks it (verify.Catalog).
type indexPrefix struct {
	// Index numbers the prefix among the index's, from 0, in order.
	Index int64
	// Unit is the prefix: its classes are those canonical.TallyUnit finds.
	Unit enumerate.Unit
	// ClassesBefore and SolutionsBefore are the classes and solutions
	// under the prefixes before it.
	ClassesBefore, SolutionsBefore uint64
	// Classes and Solutions are those under it.
	Classes, Solutions uint64
}

// indexSize returns how many prefixes the index of the build b holds, and
// the bytes of its blocks' data. Its last block is read and checked
// (see cursor).
func (db *DB) indexSize(ctx context.Context, b Build) (prefixes, bytes int64, err error) {
	c := db.blockCursor(b)
	if err := c.seekLast(ctx); errors.Is(err, errNoBlock) {
		return 0, 0, nil
	} else if err != nil {
		return 0, 0, err
	}
	prefixes, _, _ = c.Block().End()
	var size sql.NullInt64
	if err := db.h.DB.GetContext(ctx, &size, `SELECT sum(length(data)) FROM index_blocks WHERE n = ?`, b.N); err != nil {
		return 0, 0, fmt.Errorf("read index n=%d: %w", b.N, dbfile.Translate(err))
	}
	return prefixes, size.Int64, nil
}

// prefixes returns an iterator over the prefixes of the index of the build
// b, in order, with the counts it records: every block walked by a cursor,
// so checked as every reader checks it (its checksum and data, each block
// following the one before, the last ending at a complete build's counts).
// It reads a few dozen blocks a query, holding no connection while the
// caller works. A fault is yielded as an *IndexError and ends it, as does a
// read error; a build of rows yields nothing.
func (db *DB) prefixes(ctx context.Context, b Build) iter.Seq2[indexPrefix, error] {
	return func(yield func(indexPrefix, error) bool) {
		if b.Form != FormIndex {
			return
		}
		c := db.blockCursor(b)
		for {
			more, err := c.Next(ctx)
			if err != nil {
				yield(indexPrefix{}, err)
				return
			} else if !more {
				return
			}
			blk := c.Block()
			p := indexPrefix{Index: blk.FirstEntry, ClassesBefore: uint64(blk.ClassesBefore), SolutionsBefore: uint64(blk.SolutionsBefore)}
			for _, e := range blk.Prefixes {
				p.Unit, p.Classes, p.Solutions = e.Unit, e.Classes, e.Solutions
				if !yield(p, nil) {
					return
				}
				p.Index++
				p.ClassesBefore += e.Classes
				p.SolutionsBefore += e.Solutions
			}
		}
	}
}
