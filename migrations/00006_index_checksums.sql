-- Sealed index blocks, version 6.
--
-- index_blocks.checksum: the CRC-32C of the block's row (n, block,
-- first_entry, entries, classes_before, solutions_before, first_prefix and
-- data; see nqueens's store/internal/indexblock for the exact bytes), so
-- that a reader refuses a block changed since it was written: a flipped
-- bit, a count moved between prefixes, a row renumbered. The blocks of a
-- catalog written before this version are sealed as they are when it is
-- migrated (nqueens_block_checksum is a function nqueens gives SQLite);
-- nqueens verify checks what they hold.
--
-- The index on solutions_before goes: no reader seeks a block by its
-- solutions.

-- +goose Up
ALTER TABLE index_blocks ADD COLUMN checksum INTEGER NOT NULL DEFAULT 0;
UPDATE index_blocks SET checksum = nqueens_block_checksum(n, block, first_entry, entries, classes_before, solutions_before, first_prefix, data);
DROP INDEX index_blocks_solutions;

-- +goose Down
CREATE INDEX index_blocks_solutions ON index_blocks (n, solutions_before, block);
ALTER TABLE index_blocks DROP COLUMN checksum;
