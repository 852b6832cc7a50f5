-- Class numbers stored, version 3.
--
-- classes gains the column class: the class's 1-based number among the
-- classes of its n in lexicographic order of their placements, the number
-- the exports, `nqueens show --class` and class_list use. The table is
-- keyed by (n, class), so class K of n is one seek. Class order is
-- placement order, so the class of a placement is found by binary search
-- on the class numbers (store.DB.Lookup); the placement has no index of
-- its own, which would double the file.
--
-- A build numbers its classes as it stores them (the search yields them in
-- order); a shard catalog numbers its own classes 1.. and `nqueens merge`
-- numbers the merged ones afresh. This migration numbers the classes of an
-- existing catalog, in one pass, and class_list becomes a plain view of
-- the table (it used a window function over every row).
--
-- classes_symmetric indexes the few classes with a symmetry (orbit 4, 2
-- or 1: about 1 in 6,000 at n = 17), so listing them is a short index scan.

-- +goose Up
CREATE TABLE classes_numbered (
    n         INTEGER NOT NULL,  -- board size
    class     INTEGER NOT NULL,  -- 1, 2, ... per n, in lexicographic order of placement
    placement TEXT    NOT NULL,  -- the class's canonical placement (the smallest of its 8 images):
                                 -- n base-32 digits (0-9 then a-v), the column of the queen in each
                                 -- row, top row first: '1302' is .Q.. / ...Q / Q... / ..Q.
    orbit     INTEGER NOT NULL,  -- distinct solutions in the class: 8 (no symmetry), 4 (half turn),
                                 -- 2 (quarter turn), 1 (n = 1)
    PRIMARY KEY (n, class)
) WITHOUT ROWID;

INSERT INTO classes_numbered (n, class, placement, orbit)
SELECT n, row_number() OVER (PARTITION BY n ORDER BY placement), placement, orbit
FROM classes
ORDER BY n, placement;

DROP VIEW class_list;
DROP TABLE classes;
ALTER TABLE classes_numbered RENAME TO classes;

-- The few classes with a symmetry, so that listing them reads a small index.
CREATE INDEX classes_symmetric ON classes (n, orbit, class) WHERE orbit <> 8;

CREATE VIEW class_list AS
-- The classes with their symmetry spelled out: none (orbit 8), rot180 (4),
-- rot90 (2), full (1). WHERE n = ? AND class = ? is one seek; WHERE
-- placement = ? scans n's classes (nqueens lookup bisects instead).
SELECT n,
       class,
       placement,
       orbit,
       CASE orbit WHEN 8 THEN 'none' WHEN 4 THEN 'rot180' WHEN 2 THEN 'rot90' ELSE 'full' END AS symmetry
FROM classes;

-- +goose Down
DROP VIEW class_list;
DROP INDEX classes_symmetric;

CREATE TABLE classes_by_placement (
    n         INTEGER NOT NULL,
    placement TEXT    NOT NULL,
    orbit     INTEGER NOT NULL,
    PRIMARY KEY (n, placement)
) WITHOUT ROWID;

INSERT INTO classes_by_placement (n, placement, orbit)
SELECT n, placement, orbit FROM classes ORDER BY n, placement;

DROP TABLE classes;
ALTER TABLE classes_by_placement RENAME TO classes;

CREATE VIEW class_list AS
SELECT n,
       row_number() OVER (PARTITION BY n ORDER BY placement) AS class,
       placement,
       orbit,
       CASE orbit WHEN 8 THEN 'none' WHEN 4 THEN 'rot180' WHEN 2 THEN 'rot90' ELSE 'full' END AS symmetry
FROM classes;
