-- Shard builds, version 2.
--
-- `nqueens build --shard I/K` builds only the I-th of K disjoint slices of
-- the work units of n into a shard catalog; `nqueens merge` joins the K
-- shard catalogs of n into one. A builds row of a shard has shard_count K
-- (> 0) and shard_index I (0 <= I < K), and its units_done and units_total
-- count the shard's units; complete = 1 then means the shard is complete,
-- not the board. A whole build has shard_count = 0 and shard_index = 0.

-- +goose Up
ALTER TABLE builds ADD COLUMN shard_index INTEGER NOT NULL DEFAULT 0;
ALTER TABLE builds ADD COLUMN shard_count INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE builds DROP COLUMN shard_count;
ALTER TABLE builds DROP COLUMN shard_index;
