-- The nqueens catalog, version 1.
--
-- builds: one row per board size n that a build has started. A row with
-- complete = 0 is a build in progress or interrupted: its classes are those
-- of the first units_done work units and its counts cover only them.
-- classes: one row per class of solutions (up to rotation and reflection),
-- holding its canonical representative, the lexicographically smallest of
-- the 8 images.

-- +goose Up
-- application_id marks the file as an nqueens catalog ('NQcT').
PRAGMA application_id = 1313956692;

CREATE TABLE builds (
    n            INTEGER PRIMARY KEY CHECK (n BETWEEN 1 AND 32),
    total        INTEGER NOT NULL DEFAULT 0,  -- solutions: sum of the orbits
    unique_count INTEGER NOT NULL DEFAULT 0,  -- classes
    orbit8       INTEGER NOT NULL DEFAULT 0,  -- classes of 8 solutions (no symmetry)
    orbit4       INTEGER NOT NULL DEFAULT 0,  -- classes of 4 (half-turn symmetry)
    orbit2       INTEGER NOT NULL DEFAULT 0,  -- classes of 2 (quarter-turn symmetry)
    orbit1       INTEGER NOT NULL DEFAULT 0,  -- classes of 1 (n = 1 only)
    complete     INTEGER NOT NULL DEFAULT 0 CHECK (complete IN (0, 1)),
    units_done   INTEGER NOT NULL DEFAULT 0,  -- work units whose classes are stored
    units_total  INTEGER NOT NULL,            -- work units of the search for n
    started_at   TEXT    NOT NULL,            -- RFC 3339, UTC, when the build first started
    finished_at  TEXT,                        -- RFC 3339, UTC, when it completed
    seconds      REAL    NOT NULL DEFAULT 0   -- time spent building, summed over runs
);

-- placement: the canonical placement as n base-32 digits (0-9 then a-v),
-- the column of the queen in each row, top row first: '1302' for n = 4.
-- Text order is lexicographic order of the column sequences.
-- orbit: 8, 4, 2 or 1. The table has no CHECK constraints: they halve the
-- speed of bulk inserts, and `nqueens verify` checks every row instead.
CREATE TABLE classes (
    n         INTEGER NOT NULL,
    placement TEXT    NOT NULL,
    orbit     INTEGER NOT NULL,
    PRIMARY KEY (n, placement)
) WITHOUT ROWID;

-- class_list: the classes numbered 1.. per n in lexicographic order, the
-- numbering the exports and `nqueens show --class` use, with the symmetry
-- spelled out.
CREATE VIEW class_list AS
SELECT n,
       row_number() OVER (PARTITION BY n ORDER BY placement) AS class,
       placement,
       orbit,
       CASE orbit WHEN 8 THEN 'none' WHEN 4 THEN 'rot180' WHEN 2 THEN 'rot90' ELSE 'full' END AS symmetry
FROM classes;

-- +goose Down
DROP VIEW class_list;
DROP TABLE classes;
DROP TABLE builds;
PRAGMA application_id = 0;
