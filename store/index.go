package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/enumerate"
	"github.com/nqueens/nqueens/store/internal/dbfile"
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

// indexEntry is one prefix of an index and the counts under it.
type indexEntry struct {
	unit      enumerate.Unit
	classes   uint64
	solutions uint64
}

// indexBlock is a row of index_blocks, decoded.
type indexBlock struct {
	block           int64
	firstEntry      int64
	classesBefore   uint64
	solutionsBefore uint64
	firstPrefix     string
	entries         []indexEntry
}

// blockRow is the scan target for a row of index_blocks.
type blockRow struct {
	Block           int64  `db:"block"`
	FirstEntry      int64  `db:"first_entry"`
	Entries         int64  `db:"entries"`
	ClassesBefore   int64  `db:"classes_before"`
	SolutionsBefore int64  `db:"solutions_before"`
	FirstPrefix     string `db:"first_prefix"`
	Data            []byte `db:"data"`
}

const blockColumns = `block, first_entry, entries, classes_before, solutions_before, first_prefix, data`

// IndexError is the error of an index whose blocks are not what the
// catalog promises: a block that does not decode, prefixes out of order,
// counts that do not add up from block to block or to the build's, or a
// prefix whose subtree holds other classes than its count. It matches
// ErrBadRow.
type IndexError struct {
	N     int
	Block int64 // the block at fault, -1 for the index as a whole
	// Problem says what is wrong: "records 120 classes before it, the
	// blocks before hold 118".
	Problem string
}

// Error names n, the block and the fault: "n=18 index block 12 records
// ...: the catalog is damaged".
func (e *IndexError) Error() string {
	if e.Block < 0 {
		return fmt.Sprintf("n=%d index %s: the catalog is damaged", e.N, e.Problem)
	}
	return fmt.Sprintf("n=%d index block %d %s: the catalog is damaged", e.N, e.Block, e.Problem)
}

// Is reports whether target is ErrBadRow.
func (e *IndexError) Is(target error) bool { return target == ErrBadRow }

// prefixKey writes the prefix of u as base-32 digits, as a placement's
// key writes its columns: text order is the order of the prefixes.
func prefixKey(u enumerate.Unit) string {
	var b strings.Builder
	for r := range u.Depth() {
		b.WriteString(nqueens.Square{Row: r, Col: u.Queen(r)}.KeyDigit())
	}
	return b.String()
}

// minEntryBytes is the fewest bytes an entry takes in a block's data: the
// count of rows it shares with the entry before, and two uvarints.
const minEntryBytes = 3

// appendEntries appends the encoding of entries to buf (see the
// migration's description of index_blocks.data).
func appendEntries(buf []byte, entries []indexEntry) []byte {
	var prev enumerate.Unit
	for i, e := range entries {
		shared := 0
		if i > 0 {
			for shared < e.unit.Depth() && e.unit.Queen(shared) == prev.Queen(shared) {
				shared++
			}
		}
		buf = append(buf, byte(shared))
		for r := shared; r < e.unit.Depth(); r++ {
			buf = append(buf, byte(e.unit.Queen(r)))
		}
		buf = binary.AppendUvarint(buf, e.classes)
		buf = binary.AppendUvarint(buf, 8*e.classes-e.solutions)
		prev = e.unit
	}
	return buf
}

// decode turns the row into a block of an index of n whose prefixes fix
// depth rows, checking what one row tells: its data holds its entries,
// prefixes of the board increasing from its first_prefix, each with
// solutions that its classes can hold. A fault is an *IndexError.
func (r blockRow) decode(n, depth int) (indexBlock, error) {
	b := indexBlock{block: r.Block, firstEntry: r.FirstEntry, classesBefore: uint64(r.ClassesBefore),
		solutionsBefore: uint64(r.SolutionsBefore), firstPrefix: r.FirstPrefix}
	fail := func(format string, args ...any) (indexBlock, error) {
		return b, &IndexError{N: n, Block: r.Block, Problem: fmt.Sprintf(format, args...)}
	}
	if r.FirstEntry < 0 || r.Entries < 1 || r.ClassesBefore < 0 || r.SolutionsBefore < 0 {
		return fail("records %d prefixes from prefix %d, after %d classes and %d solutions, which cannot be", r.Entries, r.FirstEntry, r.ClassesBefore, r.SolutionsBefore)
	}
	// A prefix takes 3 bytes of data at least (the rows it shares with the
	// one before, and two numbers): a block that records more than its
	// data can hold is refused before anything is allocated for them.
	if r.Entries > int64(len(r.Data)/minEntryBytes) {
		return fail("records %d prefixes, more than its %d bytes of data can hold", r.Entries, len(r.Data))
	}
	b.entries = make([]indexEntry, 0, r.Entries)
	data := r.Data
	var cols [canonical.MaxIndexDepth]uint8
	for len(data) > 0 {
		shared := int(data[0])
		if shared > depth || (len(b.entries) == 0 && shared != 0) || len(data) < 1+depth-shared {
			return fail("does not decode: prefix %d", len(b.entries))
		}
		for r := shared; r < depth; r++ {
			c := data[1+r-shared]
			if int(c) >= n {
				return fail("does not decode: prefix %d has a column %d", len(b.entries), c)
			}
			cols[r] = c
		}
		data = data[1+depth-shared:]
		classes, k := binary.Uvarint(data)
		if k <= 0 {
			return fail("does not decode: prefix %d", len(b.entries))
		}
		data = data[k:]
		missing, k := binary.Uvarint(data)
		if k <= 0 {
			return fail("does not decode: prefix %d", len(b.entries))
		}
		data = data[k:]
		e := indexEntry{unit: enumerate.NewUnit(n, cols[:depth]), classes: classes, solutions: 8*classes - missing}
		if missing > 7*classes || classes > 1<<50 {
			return fail("prefix %d (%s) records %d classes of %d solutions, which cannot be", len(b.entries), prefixKey(e.unit), classes, 8*classes-missing)
		}
		if len(b.entries) > 0 && shared == depth {
			return fail("prefix %d (%s) repeats the one before", len(b.entries), prefixKey(e.unit))
		}
		if len(b.entries) > 0 && e.unit.Queen(shared) < b.entries[len(b.entries)-1].unit.Queen(shared) {
			return fail("prefix %d (%s) is out of order", len(b.entries), prefixKey(e.unit))
		}
		b.entries = append(b.entries, e)
	}
	if int64(len(b.entries)) != r.Entries {
		return fail("records %d prefixes and holds %d", r.Entries, len(b.entries))
	}
	if first := prefixKey(b.entries[0].unit); first != r.FirstPrefix {
		return fail("records first prefix %s and begins with %s", r.FirstPrefix, first)
	}
	return b, nil
}

// sums returns the classes and solutions under the block's prefixes.
func (b indexBlock) sums() (classes, solutions uint64) {
	for _, e := range b.entries {
		classes += e.classes
		solutions += e.solutions
	}
	return classes, solutions
}

// readBlock reads the block of the index of the build b that the SQL
// condition cond (with its ORDER BY) picks first, and checks it against
// the block after it, or, if it is the last of a complete build, against
// the build's counts: the counts before the next block are this block's
// plus its own. A block that is not there is ErrNoClass.
func (db *DB) readBlock(ctx context.Context, b Build, cond string, args ...any) (indexBlock, error) {
	var r blockRow
	err := db.h.DB.GetContext(ctx, &r, `SELECT `+blockColumns+` FROM index_blocks WHERE n = ? AND `+cond+` LIMIT 1`, append([]any{b.N}, args...)...)
	if errors.Is(err, sql.ErrNoRows) {
		return indexBlock{}, fmt.Errorf("n=%d: %w", b.N, ErrNoClass)
	} else if err != nil {
		return indexBlock{}, fmt.Errorf("read index n=%d: %w", b.N, dbfile.Translate(err))
	}
	blk, err := r.decode(b.N, b.IndexDepth)
	if err != nil {
		return blk, err
	}
	var next blockRow
	err = db.h.DB.GetContext(ctx, &next, `SELECT first_entry, classes_before, solutions_before, first_prefix FROM index_blocks
		WHERE n = ? AND block > ? ORDER BY block LIMIT 1`, b.N, blk.block)
	classes, solutions := blk.sums()
	switch {
	case errors.Is(err, sql.ErrNoRows) && !b.Complete:
		// A build under way may have committed more since b was read.
		return blk, nil
	case errors.Is(err, sql.ErrNoRows):
		next = blockRow{Block: -1, FirstEntry: blk.firstEntry + int64(len(blk.entries)), ClassesBefore: int64(b.Unique), SolutionsBefore: int64(b.Total)}
	case err != nil:
		return blk, fmt.Errorf("read index n=%d: %w", b.N, dbfile.Translate(err))
	}
	return blk, blk.follows(b.N, next, classes, solutions)
}

// follows checks that next, the block after blk (or, with Block -1, the
// build's counts after the last), begins where blk ends.
func (blk indexBlock) follows(n int, next blockRow, classes, solutions uint64) error {
	end, endS := blk.classesBefore+classes, blk.solutionsBefore+solutions
	var problem string
	switch {
	case uint64(next.ClassesBefore) != end && next.Block < 0:
		problem = fmt.Sprintf("ends the index after %d classes, the build records %d", end, next.ClassesBefore)
	case uint64(next.ClassesBefore) != end:
		problem = fmt.Sprintf("ends after %d classes, block %d records %d before it: the counts are not increasing in turn", end, next.Block, next.ClassesBefore)
	case uint64(next.SolutionsBefore) != endS && next.Block < 0:
		problem = fmt.Sprintf("ends the index after %d solutions, the build records %d", endS, next.SolutionsBefore)
	case uint64(next.SolutionsBefore) != endS:
		problem = fmt.Sprintf("ends after %d solutions, block %d records %d before it: the counts are not increasing in turn", endS, next.Block, next.SolutionsBefore)
	case next.FirstEntry != blk.firstEntry+int64(len(blk.entries)):
		problem = fmt.Sprintf("ends at prefix %d, block %d begins at prefix %d", blk.firstEntry+int64(len(blk.entries)), next.Block, next.FirstEntry)
	case next.Block >= 0 && next.FirstPrefix <= prefixKey(blk.entries[len(blk.entries)-1].unit):
		problem = fmt.Sprintf("ends with prefix %s, block %d begins with %s: out of order", prefixKey(blk.entries[len(blk.entries)-1].unit), next.Block, next.FirstPrefix)
	default:
		return nil
	}
	return &IndexError{N: n, Block: blk.block, Problem: problem}
}

// indexClass is Class of an index: class k of the build b.
func (db *DB) indexClass(ctx context.Context, b Build, k int64) (nqueens.Layout, error) {
	if k < 1 || uint64(k) > b.Unique {
		return nqueens.Layout{}, fmt.Errorf("n=%d class %d: %w: n=%d has classes 1 to %d", b.N, k, ErrNoClass, b.N, b.Unique)
	}
	blk, err := db.readBlock(ctx, b, `classes_before < ? ORDER BY classes_before DESC, block DESC`, k)
	if errors.Is(err, ErrNoClass) {
		return nqueens.Layout{}, &IndexError{N: b.N, Block: -1, Problem: fmt.Sprintf("has no block that holds class %d", k)}
	} else if err != nil {
		return nqueens.Layout{}, err
	}
	before := blk.classesBefore
	for _, e := range blk.entries {
		if uint64(k) <= before+e.classes {
			l, ok := canonical.UnitClass(e.unit, k-int64(before))
			if !ok {
				return l, blk.short(b.N, e)
			}
			l.Class = k
			return l, nil
		}
		before += e.classes
	}
	return nqueens.Layout{}, &IndexError{N: b.N, Block: blk.block, Problem: fmt.Sprintf("ends before class %d", k)}
}

// short is the error of a prefix of blk whose subtree holds other classes
// than the index records.
func (blk indexBlock) short(n int, e indexEntry) error {
	return &IndexError{N: n, Block: blk.block, Problem: fmt.Sprintf("records %d classes under prefix %s, which the search does not find", e.classes, prefixKey(e.unit))}
}

// indexRank is Finder.Find of an index: the number of the class of the
// build b whose canonical placement is c, or an error wrapping ErrNoClass.
func (db *DB) indexRank(ctx context.Context, b Build, c nqueens.Placement) (int64, error) {
	notFound := fmt.Errorf("n=%d: %s: %w", b.N, c, ErrNoClass)
	if c.N() != b.N || b.IndexDepth > c.N() {
		return 0, notFound
	}
	key := c.Key()[:b.IndexDepth]
	blk, err := db.readBlock(ctx, b, `first_prefix <= ? ORDER BY first_prefix DESC`, key)
	if errors.Is(err, ErrNoClass) {
		return 0, notFound
	} else if err != nil {
		return 0, err
	}
	before := blk.classesBefore
	for _, e := range blk.entries {
		if prefixKey(e.unit) == key {
			r, _, ok := canonical.UnitRank(e.unit, c)
			if !ok {
				return 0, notFound
			}
			return int64(before) + r, nil
		}
		before += e.classes
	}
	return 0, notFound
}

// blocksFrom returns an iterator over the blocks of the index of b from
// the one that holds class k on, each checked against the one after it
// (readBlock), reading one block a query so that no connection is held
// while the caller searches. A read error or a fault is yielded once and
// ends it.
func (db *DB) blocksFrom(ctx context.Context, b Build, k int64) iter.Seq2[indexBlock, error] {
	return func(yield func(indexBlock, error) bool) {
		blk, err := db.readBlock(ctx, b, `classes_before < ? ORDER BY classes_before DESC, block DESC`, k)
		if errors.Is(err, ErrNoClass) {
			err = &IndexError{N: b.N, Block: -1, Problem: fmt.Sprintf("has no block that holds class %d", k)}
		}
		for {
			if err != nil {
				yield(blk, err)
				return
			}
			if !yield(blk, nil) {
				return
			}
			blk, err = db.readBlock(ctx, b, `block > ? ORDER BY block`, blk.block)
			if errors.Is(err, ErrNoClass) {
				return
			}
		}
	}
}

// searchFrom returns an iterator over the classes of the index of b from
// class from to class to, in order, numbered, found by the class search
// below each prefix in turn (on all cores). A prefix whose subtree holds
// another number of classes than the index records is yielded as an
// *IndexError and ends it, as does a read error.
func (db *DB) searchFrom(ctx context.Context, b Build, from, to int64) iter.Seq2[nqueens.Layout, error] {
	return func(yield func(nqueens.Layout, error) bool) {
		if from > to {
			return
		}
		for blk, err := range db.blocksFrom(ctx, b, from) {
			if err != nil {
				yield(nqueens.Layout{}, err)
				return
			}
			// The prefixes from the one that holds class from.
			k := int64(blk.classesBefore)
			first := 0
			for first < len(blk.entries) && k+int64(blk.entries[first].classes) < from {
				k += int64(blk.entries[first].classes)
				first++
			}
			units := make([]enumerate.Unit, 0, len(blk.entries)-first)
			for _, e := range blk.entries[first:] {
				units = append(units, e.unit)
			}
			for i, batch := range canonical.UnitClasses(ctx, units, 0, 0) {
				e := blk.entries[first+i]
				if uint64(len(batch)) != e.classes {
					yield(nqueens.Layout{}, blk.short(b.N, e))
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
// out the classes of none; the others are searched (searchFrom).
func (db *DB) indexClasses(ctx context.Context, b Build, f Filter) iter.Seq2[nqueens.Layout, error] {
	if len(f.Symmetry) > 0 && !f.hasOrbit(8) {
		return db.symmetricClasses(ctx, b, f)
	}
	from, to := max(f.From, 1), int64(b.Unique)
	if f.To > 0 {
		to = min(f.To, to)
	}
	offset, limit := f.Offset, f.Limit
	if len(f.Symmetry) == 0 {
		from += offset
		if limit > 0 {
			to = min(to, from+limit-1)
		}
		offset, limit = 0, 0
	}
	return func(yield func(nqueens.Layout, error) bool) {
		var matched, yielded int64
		for l, err := range db.searchFrom(ctx, b, from, to) {
			if err != nil {
				yield(l, err)
				return
			}
			if !f.hasOrbit(l.Symmetry.Orbit()) {
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

// symmetricClasses reads the symmetric classes of the index of b that f
// selects, checking each row as Classes checks the rows of classes.
func (db *DB) symmetricClasses(ctx context.Context, b Build, f Filter) iter.Seq2[nqueens.Layout, error] {
	where, args := f.where(b.N)
	q := `SELECT class, placement, orbit FROM index_symmetric WHERE ` + where + ` ORDER BY class`
	if f.Limit > 0 || f.Offset > 0 {
		limit := f.Limit
		if limit == 0 {
			limit = -1
		}
		q += ` LIMIT ? OFFSET ?`
		args = append(args, limit, f.Offset)
	}
	return func(yield func(nqueens.Layout, error) bool) {
		rows, err := db.h.DB.QueryContext(ctx, q, args...)
		if err != nil {
			yield(nqueens.Layout{}, fmt.Errorf("read classes n=%d: %w", b.N, dbfile.Translate(err)))
			return
		}
		defer rows.Close()
		seq := sequence{N: b.N}
		var k int64
		var key string
		var orbit int
		for rows.Next() {
			if err := rows.Scan(&k, &key, &orbit); err != nil {
				yield(nqueens.Layout{}, fmt.Errorf("read classes n=%d: %w", b.N, dbfile.Translate(err)))
				return
			}
			l, err := decodeClass(b.N, k, key, orbit)
			err = seq.Check(l, key, err)
			if err == nil && (k < 1 || uint64(k) > b.Unique || l.Symmetry == nqueens.SymNone) {
				err = &RowError{N: b.N, Layout: l, Key: key, Problems: []string{fmt.Sprintf("is listed as a symmetric class of the index, numbered 1 to %d", b.Unique)}}
			}
			if !yield(l, err) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(nqueens.Layout{}, fmt.Errorf("read classes n=%d: %w", b.N, dbfile.Translate(err)))
		}
	}
}

// IndexPrefix is one prefix of an index and the counts under it: what the
// index records, for a reader that checks it (verify.Catalog).
type IndexPrefix struct {
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

// IndexSize returns how many prefixes the index of the build b holds, and
// the bytes of its blocks' data.
func (db *DB) IndexSize(ctx context.Context, b Build) (prefixes, bytes int64, err error) {
	var r struct {
		Prefixes sql.NullInt64 `db:"prefixes"`
		Bytes    sql.NullInt64 `db:"bytes"`
	}
	err = db.h.DB.GetContext(ctx, &r, `SELECT max(first_entry + entries) AS prefixes, sum(length(data)) AS bytes FROM index_blocks WHERE n = ?`, b.N)
	if err != nil {
		return 0, 0, fmt.Errorf("read index n=%d: %w", b.N, dbfile.Translate(err))
	}
	return r.Prefixes.Int64, r.Bytes.Int64, nil
}

// Prefixes returns an iterator over the prefixes of the index of the build
// b, in order, with the counts it records: every block decoded and checked
// against the one before it (the counts before it are those of the
// prefixes before, its prefixes come after theirs). It reads a few hundred
// blocks a query, holding no connection while the caller works. A fault
// is yielded as an *IndexError and ends it, as does a read error; a build
// of rows yields nothing. It does not compare the sums with the build's
// counts: the caller does.
func (db *DB) Prefixes(ctx context.Context, b Build) iter.Seq2[IndexPrefix, error] {
	return func(yield func(IndexPrefix, error) bool) {
		if b.Form != FormIndex {
			return
		}
		next := IndexPrefix{}
		var prevKey string
		last := int64(-1)
		for {
			var rows []blockRow
			err := db.h.DB.SelectContext(ctx, &rows, `SELECT `+blockColumns+` FROM index_blocks WHERE n = ? AND block > ? ORDER BY block LIMIT 256`, b.N, last)
			if err != nil {
				yield(IndexPrefix{}, fmt.Errorf("read index n=%d: %w", b.N, dbfile.Translate(err)))
				return
			}
			if len(rows) == 0 {
				return
			}
			for _, r := range rows {
				last = r.Block
				blk, err := r.decode(b.N, b.IndexDepth)
				switch {
				case err != nil:
				case uint64(r.ClassesBefore) != next.ClassesBefore || uint64(r.SolutionsBefore) != next.SolutionsBefore || r.FirstEntry != next.Index:
					err = &IndexError{N: b.N, Block: r.Block, Problem: fmt.Sprintf("records prefix %d, %d classes and %d solutions before it; the blocks before end at prefix %d, %d classes and %d solutions: the counts are not increasing in turn",
						r.FirstEntry, r.ClassesBefore, r.SolutionsBefore, next.Index, next.ClassesBefore, next.SolutionsBefore)}
				case prevKey != "" && r.FirstPrefix <= prevKey:
					err = &IndexError{N: b.N, Block: r.Block, Problem: fmt.Sprintf("begins with prefix %s, after %s: out of order", r.FirstPrefix, prevKey)}
				}
				if err != nil {
					yield(IndexPrefix{}, err)
					return
				}
				for _, e := range blk.entries {
					next.Unit, next.Classes, next.Solutions = e.unit, e.classes, e.solutions
					if !yield(next, nil) {
						return
					}
					next.Index++
					next.ClassesBefore += e.classes
					next.SolutionsBefore += e.solutions
				}
				prevKey = prefixKey(blk.entries[len(blk.entries)-1].unit)
			}
			if ctx.Err() != nil {
				yield(IndexPrefix{}, ctx.Err())
				return
			}
		}
	}
}
