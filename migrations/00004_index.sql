-- The index form of a build, version 4.
--
-- A catalog holds the classes of an n in one of two forms, which the new
-- column builds.form names:
--   'rows'  a row per class in classes (every build before this version);
--   'index' the index of the class search: classes holds no row of n, and
--           nqueens computes any class of it from the index below.
-- The class search lists the classes of n prefix by prefix: the prefixes of
-- builds.index_depth rows that its pruning leaves, in lexicographic order,
-- and below each prefix its classes in lexicographic order. So the counts
-- of classes under each prefix, cumulated, say which prefix holds class K;
-- nqueens searches that prefix's subtree (milliseconds) for the class. The
-- rows of an indexed n therefore come from the program (nqueens show,
-- export, lookup, or the library), not from SQL.
--
-- index_blocks: the prefixes in blocks of the prefixes of 64 consecutive
-- work units (builds.units_total counts the work units), block 0, 1, ...
--   first_entry       the number (from 0) of the block's first prefix
--   entries           its prefixes
--   classes_before    classes under all prefixes before the block
--   solutions_before  solutions (the sum of the classes' orbits) under them
--   first_prefix      the first prefix as base-32 digits, as classes.placement
--                     writes a placement: the block of a board's prefix is the
--                     last whose first_prefix is not after it
--   data              each prefix in turn: a byte saying how many leading
--                     columns it shares with the one before (0 for the first),
--                     a byte for each other column, then two unsigned LEB128
--                     varints: its classes, and 8 x classes - solutions (the
--                     solutions its symmetric classes lack, mostly 0)
-- index_symmetric: the few classes of an indexed n with a symmetry (orbit 4,
-- 2 or 1), listed as in classes, so that a filter by symmetry reads them.

-- +goose Up
ALTER TABLE builds ADD COLUMN form TEXT NOT NULL DEFAULT 'rows';
ALTER TABLE builds ADD COLUMN index_depth INTEGER NOT NULL DEFAULT 0;

CREATE TABLE index_blocks (
    n                INTEGER NOT NULL,
    block            INTEGER NOT NULL,
    first_entry      INTEGER NOT NULL,
    entries          INTEGER NOT NULL,
    classes_before   INTEGER NOT NULL,
    solutions_before INTEGER NOT NULL,
    first_prefix     TEXT    NOT NULL,
    data             BLOB    NOT NULL,
    PRIMARY KEY (n, block)
) WITHOUT ROWID;

-- The block of class K, of the S-th solution, and of a prefix: one seek each.
CREATE INDEX index_blocks_classes ON index_blocks (n, classes_before, block);
CREATE INDEX index_blocks_solutions ON index_blocks (n, solutions_before, block);
CREATE INDEX index_blocks_prefix ON index_blocks (n, first_prefix);

CREATE TABLE index_symmetric (
    n         INTEGER NOT NULL,
    class     INTEGER NOT NULL,  -- the class's number among all classes of n
    placement TEXT    NOT NULL,  -- as classes.placement
    orbit     INTEGER NOT NULL,  -- 4 (half turn), 2 (quarter turn) or 1 (n = 1)
    PRIMARY KEY (n, class)
) WITHOUT ROWID;

-- +goose Down
DROP TABLE index_symmetric;
DROP INDEX index_blocks_prefix;
DROP INDEX index_blocks_solutions;
DROP INDEX index_blocks_classes;
DROP TABLE index_blocks;
ALTER TABLE builds DROP COLUMN index_depth;
ALTER TABLE builds DROP COLUMN form;
