package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/store/internal/dbfile"
	"github.com/nqueens/nqueens/store/internal/indexblock"
)

// A blockCursor walks the blocks of the index of one build, as LevelDB's
// iterators walk its blocks: seek to the block that holds class K, to the
// block of a prefix, or to the last block, then Next. Every reader of an
// index (class K, the rank of a placement, ranges of classes, the
// prefixes verify and merge read, the end a resumed build begins from)
// walks through one, and every block it stops at is checked with the block
// after it: both blocks' checksums and data (indexblock.Decode, with no
// allocation their bytes do not justify), that the first block begins the
// index, that the block after follows it (indexblock.Block.Follows), and
// that the last block of a complete build ends where the build's counts
// say. A fault is an *IndexError. A cursor holds no connection between its
// calls, so a caller may search between them; it is not safe for
// concurrent use.
type blockCursor struct {
	db  *DB
	b   Build
	blk indexblock.Block // the block at the cursor, once started
	// started is set once the cursor is at a block: before, Next moves
	// to the first.
	started bool
	// after is the block after blk, read and checked; nil when blk is the
	// last.
	after *indexblock.Block
	// ahead holds the rows read after after, not yet decoded.
	ahead []blockRow
}

// blockCursor returns a cursor over the index of the build b, before its
// first block.
func (db *DB) blockCursor(b Build) *blockCursor {
	return &blockCursor{db: db, b: b}
}

// blockColumns are the columns a cursor reads of a block.
const blockColumns = `block, first_entry, entries, classes_before, solutions_before, orbit4_before, orbit2_before, orbit1_before, first_prefix, checksum, data`

// columns returns the columns of index_blocks the catalog has: a catalog
// of schema 4 or 5, read without migrating it, has no checksums and no
// counts of symmetric classes before a block (sealed reports which).
func (c *blockCursor) columns() string {
	if !c.sealed() {
		return `block, first_entry, entries, classes_before, solutions_before, first_prefix, data`
	}
	return blockColumns
}

// sealed reports whether the catalog's index is sealed: its blocks and
// symmetric classes have checksums, and its blocks the symmetric classes
// before them (schema 6).
func (c *blockCursor) sealed() bool { return c.db.sealed() }

// sealed reports whether the catalog's indexes are sealed (schema 6): a
// catalog of schema 4 or 5 read without migrating it is not.
func (db *DB) sealed() bool { return db.h.Version >= 6 }

// errNoBlock is seek's error when no block meets its condition.
var errNoBlock = errors.New("no such block")

// seekClass moves to the block that holds class k: the last whose classes
// before are below k.
func (c *blockCursor) seekClass(ctx context.Context, k int64) error {
	err := c.seek(ctx, `classes_before < ? ORDER BY classes_before DESC, block DESC`, k)
	if errors.Is(err, errNoBlock) {
		return &indexFault{N: c.b.N, Block: -1, Problem: fmt.Sprintf("has no block that holds class %d", k)}
	}
	return err
}

// seekPrefix moves to the block whose prefixes would hold the prefix key
// (indexblock.Key): the last whose first prefix is not after it. No such
// block is errNoBlock.
func (c *blockCursor) seekPrefix(ctx context.Context, key string) error {
	return c.seek(ctx, `first_prefix <= ? ORDER BY first_prefix DESC, block DESC`, key)
}

// seekLast moves to the last block. An index with no block is errNoBlock.
func (c *blockCursor) seekLast(ctx context.Context) error {
	return c.seek(ctx, `1 ORDER BY block DESC`)
}

// seek moves to the block the SQL condition cond (with its ORDER BY)
// picks first, and checks it with the block after it.
func (c *blockCursor) seek(ctx context.Context, cond string, args ...any) error {
	n := c.b.N
	var r blockRow
	err := c.db.h.DB.GetContext(ctx, &r, `SELECT `+c.columns()+` FROM index_blocks WHERE n = ? AND `+cond+` LIMIT 1`, append([]any{n}, args...)...)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("n=%d: %w", n, errNoBlock)
	} else if err != nil {
		return fmt.Errorf("read index n=%d: %w", n, dbfile.Translate(err))
	}
	blk, err := c.decode(r, nil)
	if err != nil {
		return err
	}
	c.blk, c.after, c.ahead, c.started = blk, nil, nil, true
	return c.readAfter(ctx, 1)
}

// readAfter reads the block after the one at the cursor into after,
// checked to follow it (reading rows rows a query), or, at the end, checks
// that the block at the cursor ends a complete build's index where its
// counts say. (A build under way may have committed more since b was
// read.)
func (c *blockCursor) readAfter(ctx context.Context, rows int) error {
	c.after = nil
	if len(c.ahead) == 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		// Before the first block, every row: one numbered below 0 is
		// read and refused, not skipped.
		after := "block > ?"
		if !c.started {
			after = "? IS NOT NULL"
		}
		err := c.db.h.DB.SelectContext(ctx, &c.ahead, `SELECT `+c.columns()+` FROM index_blocks WHERE n = ? AND `+after+` ORDER BY block LIMIT ?`,
			c.b.N, c.blk.Block, rows)
		if err != nil {
			return fmt.Errorf("read index n=%d: %w", c.b.N, dbfile.Translate(err))
		}
	}
	if len(c.ahead) == 0 {
		if c.b.Complete && c.started {
			return indexError(c.b.N, c.blk.Last(c.b.Counts, c.sealed()))
		}
		return nil
	}
	blk, err := c.decode(c.ahead[0], &c.blk)
	if err != nil {
		return err
	}
	c.after, c.ahead = &blk, c.ahead[1:]
	return nil
}

// decode decodes the row r, checked against the block before it (prev, or
// nil when the caller checks nothing before it), or, the first block,
// checked to begin the index.
func (c *blockCursor) decode(r blockRow, prev *indexblock.Block) (indexblock.Block, error) {
	n := c.b.N
	blk, err := indexblock.Decode(r.header(n), r.Data, c.b.IndexDepth, c.sealed())
	switch {
	case err != nil:
	case prev != nil && c.started:
		if err = prev.Follows(blk.Header); err == nil && c.sealed() {
			err = prev.Orbits(blk.Orbit4Before, blk.Orbit2Before, blk.Orbit1Before, fmt.Sprintf("block %d records", blk.Block))
		}
	case prev != nil || blk.Block == 0:
		if err = blk.First(); err == nil && blk.Block != 0 {
			err = &indexblock.Fault{Block: blk.Block, Problem: "is the first, not block 0"}
		}
	}
	return blk, indexError(n, err)
}

// aheadRows is how many blocks Next reads a query.
const aheadRows = 64

// Next moves to the block after the one at the cursor (the first, from
// before it), and reports whether there is one; the block it moves to is
// checked with the one after it, as a seek's is.
func (c *blockCursor) Next(ctx context.Context) (bool, error) {
	if !c.started && c.after == nil {
		if err := c.readAfter(ctx, aheadRows); err != nil || c.after == nil {
			return false, err
		}
	}
	if c.after == nil {
		return false, nil
	}
	c.blk, c.started = *c.after, true
	return true, c.readAfter(ctx, aheadRows)
}

// Block returns the block at the cursor.
func (c *blockCursor) Block() indexblock.Block { return c.blk }

// classAt returns the prefix of the block at the cursor under which class
// k lies, and k's rank among that prefix's classes (from 1): the one rule
// that numbers the classes of an index, the classes before a prefix and
// the rank under it. A block that ends before k is an *IndexError.
func (c *blockCursor) classAt(k int64) (indexblock.Entry, int64, error) {
	before := uint64(c.blk.ClassesBefore)
	for _, e := range c.blk.Prefixes {
		if uint64(k) <= before+e.Classes {
			return e, k - int64(before), nil
		}
		before += e.Classes
	}
	return indexblock.Entry{}, 0, &indexFault{N: c.b.N, Block: c.blk.Block, Problem: fmt.Sprintf("ends before class %d", k)}
}

// prefixAt returns the prefix key of the block at the cursor and the
// classes before it, or false if the block has no such prefix.
func (c *blockCursor) prefixAt(key string) (indexblock.Entry, uint64, bool) {
	before := uint64(c.blk.ClassesBefore)
	for _, e := range c.blk.Prefixes {
		if indexblock.Key(e.Unit) == key {
			return e, before, true
		}
		before += e.Classes
	}
	return indexblock.Entry{}, 0, false
}

// short is the error of a prefix of the block at the cursor whose subtree
// holds other classes than the index records.
func (c *blockCursor) short(e indexblock.Entry) error {
	return &indexFault{N: c.b.N, Block: c.blk.Block, Problem: fmt.Sprintf("records %s under prefix %s, which the search does not find", phrase.Plural(e.Classes, "class"), indexblock.Key(e.Unit))}
}
