-- Sealed indexes, version 6.
--
-- index_blocks.checksum: the CRC-32C of the block's row (n, block,
-- first_entry, entries, classes_before, solutions_before, first_prefix and
-- data; see nqueens's store/internal/indexblock for the exact bytes), so
-- that a reader refuses a block changed since it was written: a flipped
-- bit, a count moved between prefixes, a row renumbered.
-- index_blocks.orbit4_before, orbit2_before, orbit1_before: the symmetric
-- classes (listed in index_symmetric) before the block, by orbit, sealed
-- with it: a reader checks the list between two blocks against them, so
-- that a class dropped from the list or added to it is refused.
-- index_symmetric.checksum: the same of a symmetric class's row (n, class,
-- orbit, placement): a class renumbered or edited is refused.
-- The rows of a catalog written before this version are sealed as they
-- are when it is migrated (nqueens_block_checksum and
-- nqueens_symmetric_checksum are functions nqueens gives SQLite); nqueens
-- verify checks what they hold.
--
-- The index on solutions_before goes: no reader seeks a block by its
-- solutions.

-- +goose Up
ALTER TABLE index_blocks ADD COLUMN orbit4_before INTEGER NOT NULL DEFAULT 0;
ALTER TABLE index_blocks ADD COLUMN orbit2_before INTEGER NOT NULL DEFAULT 0;
ALTER TABLE index_blocks ADD COLUMN orbit1_before INTEGER NOT NULL DEFAULT 0;
UPDATE index_blocks SET
    orbit4_before = (SELECT count(*) FROM index_symmetric s WHERE s.n = index_blocks.n AND s.class <= index_blocks.classes_before AND s.orbit = 4),
    orbit2_before = (SELECT count(*) FROM index_symmetric s WHERE s.n = index_blocks.n AND s.class <= index_blocks.classes_before AND s.orbit = 2),
    orbit1_before = (SELECT count(*) FROM index_symmetric s WHERE s.n = index_blocks.n AND s.class <= index_blocks.classes_before AND s.orbit = 1);
ALTER TABLE index_blocks ADD COLUMN checksum INTEGER NOT NULL DEFAULT 0;
UPDATE index_blocks SET checksum = nqueens_block_checksum(n, block, first_entry, entries, classes_before, solutions_before,
    orbit4_before, orbit2_before, orbit1_before, first_prefix, data);
DROP INDEX index_blocks_solutions;
ALTER TABLE index_symmetric ADD COLUMN checksum INTEGER NOT NULL DEFAULT 0;
UPDATE index_symmetric SET checksum = nqueens_symmetric_checksum(n, class, placement, orbit);

-- +goose Down
ALTER TABLE index_symmetric DROP COLUMN checksum;
CREATE INDEX index_blocks_solutions ON index_blocks (n, solutions_before, block);
ALTER TABLE index_blocks DROP COLUMN checksum;
ALTER TABLE index_blocks DROP COLUMN orbit1_before;
ALTER TABLE index_blocks DROP COLUMN orbit2_before;
ALTER TABLE index_blocks DROP COLUMN orbit4_before;
