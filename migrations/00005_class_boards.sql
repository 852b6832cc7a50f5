-- Boards in SQL, version 5.
--
-- class_boards: every class as the exports write it, for SQL clients
-- (the sqlite3 shell, datasette, sqlite-utils) that know no base 32. Its
-- columns are those of class_list, then board, the canonical placement as
-- the CSV and text exports write it (decimal columns separated by spaces:
-- '1 3 0 2'), then r0 .. r31, the column of the queen of each row, top row
-- first (NULL beyond row n-1). A class with a queen at row 0, column 3:
--
--   SELECT class, board FROM class_boards WHERE n = 12 AND r0 = 3
--
-- The rows are those of the classes table, in its order; a condition on
-- n and class is a seek, one on r0 .. r31 a scan of n's classes (it is
-- what nqueens export --square computes, on the class's canonical board:
-- the other images of a class may have a queen elsewhere).

-- +goose Up
CREATE VIEW class_boards AS
SELECT n, class, placement, orbit, symmetry,
       r0 ||
       coalesce(' ' || r1, '') ||
       coalesce(' ' || r2, '') ||
       coalesce(' ' || r3, '') ||
       coalesce(' ' || r4, '') ||
       coalesce(' ' || r5, '') ||
       coalesce(' ' || r6, '') ||
       coalesce(' ' || r7, '') ||
       coalesce(' ' || r8, '') ||
       coalesce(' ' || r9, '') ||
       coalesce(' ' || r10, '') ||
       coalesce(' ' || r11, '') ||
       coalesce(' ' || r12, '') ||
       coalesce(' ' || r13, '') ||
       coalesce(' ' || r14, '') ||
       coalesce(' ' || r15, '') ||
       coalesce(' ' || r16, '') ||
       coalesce(' ' || r17, '') ||
       coalesce(' ' || r18, '') ||
       coalesce(' ' || r19, '') ||
       coalesce(' ' || r20, '') ||
       coalesce(' ' || r21, '') ||
       coalesce(' ' || r22, '') ||
       coalesce(' ' || r23, '') ||
       coalesce(' ' || r24, '') ||
       coalesce(' ' || r25, '') ||
       coalesce(' ' || r26, '') ||
       coalesce(' ' || r27, '') ||
       coalesce(' ' || r28, '') ||
       coalesce(' ' || r29, '') ||
       coalesce(' ' || r30, '') ||
       coalesce(' ' || r31, '') AS board,
       r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15, r16, r17, r18, r19, r20, r21, r22, r23, r24, r25, r26, r27, r28, r29, r30, r31
FROM (
SELECT n, class, placement, orbit,
       CASE orbit WHEN 8 THEN 'none' WHEN 4 THEN 'rot180' WHEN 2 THEN 'rot90' ELSE 'full' END AS symmetry,
       CASE WHEN n > 0 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 1, 1)) - 1 END AS r0,
       CASE WHEN n > 1 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 2, 1)) - 1 END AS r1,
       CASE WHEN n > 2 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 3, 1)) - 1 END AS r2,
       CASE WHEN n > 3 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 4, 1)) - 1 END AS r3,
       CASE WHEN n > 4 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 5, 1)) - 1 END AS r4,
       CASE WHEN n > 5 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 6, 1)) - 1 END AS r5,
       CASE WHEN n > 6 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 7, 1)) - 1 END AS r6,
       CASE WHEN n > 7 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 8, 1)) - 1 END AS r7,
       CASE WHEN n > 8 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 9, 1)) - 1 END AS r8,
       CASE WHEN n > 9 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 10, 1)) - 1 END AS r9,
       CASE WHEN n > 10 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 11, 1)) - 1 END AS r10,
       CASE WHEN n > 11 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 12, 1)) - 1 END AS r11,
       CASE WHEN n > 12 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 13, 1)) - 1 END AS r12,
       CASE WHEN n > 13 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 14, 1)) - 1 END AS r13,
       CASE WHEN n > 14 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 15, 1)) - 1 END AS r14,
       CASE WHEN n > 15 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 16, 1)) - 1 END AS r15,
       CASE WHEN n > 16 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 17, 1)) - 1 END AS r16,
       CASE WHEN n > 17 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 18, 1)) - 1 END AS r17,
       CASE WHEN n > 18 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 19, 1)) - 1 END AS r18,
       CASE WHEN n > 19 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 20, 1)) - 1 END AS r19,
       CASE WHEN n > 20 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 21, 1)) - 1 END AS r20,
       CASE WHEN n > 21 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 22, 1)) - 1 END AS r21,
       CASE WHEN n > 22 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 23, 1)) - 1 END AS r22,
       CASE WHEN n > 23 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 24, 1)) - 1 END AS r23,
       CASE WHEN n > 24 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 25, 1)) - 1 END AS r24,
       CASE WHEN n > 25 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 26, 1)) - 1 END AS r25,
       CASE WHEN n > 26 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 27, 1)) - 1 END AS r26,
       CASE WHEN n > 27 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 28, 1)) - 1 END AS r27,
       CASE WHEN n > 28 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 29, 1)) - 1 END AS r28,
       CASE WHEN n > 29 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 30, 1)) - 1 END AS r29,
       CASE WHEN n > 30 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 31, 1)) - 1 END AS r30,
       CASE WHEN n > 31 THEN instr('0123456789abcdefghijklmnopqrstuv', substr(placement, 32, 1)) - 1 END AS r31
FROM classes);

-- +goose Down
DROP VIEW class_boards;
