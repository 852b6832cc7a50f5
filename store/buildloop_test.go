package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/store/internal/indexblock"
)

// stopBuild builds n whole into db with opts, committing at every chance
// (CommitRows 1), and cancels the build once stop work units are added:
// an event of the build, not a time. It returns the build as committed.
func stopBuild(t *testing.T, db *DB, n, stop int, opts RunOptions) Build {
	t.Helper()
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	opts.CommitRows = 1
	opts.Progress = func(done, _ int) {
		if done == stop {
			cancel()
		}
	}
	st, err := db.Run(cctx, n, nqueens.Shard{}, opts)
	if err == nil || !strings.Contains(err.Error(), "interrupted: n=") {
		t.Fatalf("n=%d stopped after %d units: %v, want an interruption", n, stop, err)
	}
	return st
}

// raise is the hand edit that adds a class of orbit 8 to the builds row of
// n, as one with sqlite3 could.
const raise = `UPDATE builds SET total = total + 8, unique_count = unique_count + 1, orbit8 = orbit8 + 1 WHERE n = ?`

// rawExec runs the statement q on the catalog at path, outside the store.
func rawExec(t *testing.T, path, q string, args ...any) {
	t.Helper()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(q, args...); err != nil {
		t.Fatal(err)
	}
}

// TestIndexResumeRefusesRaisedBuild stops an index build of n = 12, raises
// its builds row by hand, and runs it again: the resumed build refuses the
// index, whose last block (or lack of one) does not end at the counts the
// build records, with an error wrapping ErrBadRow, and records nothing.
func TestIndexResumeRefusesRaisedBuild(t *testing.T) {
	const n = 12
	for _, tt := range []struct {
		name string
		stop int // work units added before the cancel
		says string
	}{
		{"blocks written", 150, "index block 1 ends after"},
		{"no block written", 10, "index has no block"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "index.db")
			db := open(t, path)
			stopBuild(t, db, n, tt.stop, RunOptions{Index: true})
			rawExec(t, path, raise, n)
			before, err := db.Build(ctx, n)
			if err != nil {
				t.Fatal(err)
			}
			st, err := db.Run(ctx, n, nqueens.Shard{}, RunOptions{Index: true})
			if !errors.Is(err, ErrBadRow) || !strings.Contains(err.Error(), tt.says) {
				t.Fatalf("resumed over a raised builds row: %+v, %v; want ErrBadRow saying %q", st, err, tt.says)
			}
			if after, err := db.Build(ctx, n); err != nil || after != before {
				t.Errorf("the refused build recorded %+v (%v), want %+v as it was", after, err, before)
			}
		})
	}
}

// forgeLastBlock adds a class of 8 solutions to the last prefix of the
// last block of the index of n at path, resealed, and to the builds row:
// the index and its build agree with each other, and not with the search.
func forgeLastBlock(t *testing.T, path string, n int) {
	t.Helper()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	h := indexblock.Header{N: n}
	var data []byte
	var depth int
	err = raw.QueryRow(`SELECT b.block, b.first_entry, b.entries, b.classes_before, b.solutions_before, b.orbit4_before, b.orbit2_before, b.orbit1_before,
		b.first_prefix, b.checksum, b.data, builds.index_depth FROM index_blocks b JOIN builds USING (n) WHERE n = ? ORDER BY b.block DESC LIMIT 1`, n).
		Scan(&h.Block, &h.FirstEntry, &h.Entries, &h.ClassesBefore, &h.SolutionsBefore, &h.Orbit4Before, &h.Orbit2Before, &h.Orbit1Before, &h.FirstPrefix, &h.Checksum, &data, &depth)
	if err != nil {
		t.Fatal(err)
	}
	blk, err := indexblock.Decode(h, data, depth, true)
	if err != nil {
		t.Fatal(err)
	}
	last := &blk.Prefixes[len(blk.Prefixes)-1]
	last.Classes++
	last.Solutions += 8
	h, data = indexblock.Encode(h, blk.Prefixes)
	if _, err := raw.Exec(`UPDATE index_blocks SET checksum = ?, data = ? WHERE n = ? AND block = ?`, h.Checksum, data, n, h.Block); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(raise, n); err != nil {
		t.Fatal(err)
	}
}

// TestFinishChecksKnownCounts stops a build of n = 12 in each form, adds
// a class to what it committed by hand, so that what a resumed build
// reads agrees with itself (for the index, its last block resealed with
// its builds row), and runs it again: the one finish of both forms marks
// the build complete and returns nqueens.CheckKnown's
// *nqueens.KnownError, never success with counts that are not n's.
func TestFinishChecksKnownCounts(t *testing.T) {
	const n = 12
	known, _ := nqueens.KnownCounts(n)
	for _, tt := range []struct {
		name  string
		index bool
		forge func(t *testing.T, path string)
	}{
		{"rows", false, func(t *testing.T, path string) { rawExec(t, path, raise, n) }},
		{"index", true, func(t *testing.T, path string) { forgeLastBlock(t, path, n) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "c.db")
			db := open(t, path)
			if st := stopBuild(t, db, n, 150, RunOptions{Index: tt.index}); st.UnitsDone == 0 {
				t.Fatalf("stopped build committed nothing: %+v", st)
			}
			tt.forge(t, path)
			st, err := db.Run(ctx, n, nqueens.Shard{}, RunOptions{Index: tt.index})
			var ke *nqueens.KnownError
			if !errors.As(err, &ke) || !strings.HasPrefix(err.Error(), "build n=12: finished with ") {
				t.Fatalf("finished with forged counts: %+v, %v; want a *nqueens.KnownError", st, err)
			}
			if !st.Complete || st.Total != known.Total+8 || st.Unique != known.Unique+1 {
				t.Errorf("build %+v, want complete with the forged counts %d+8 and %d+1", st, known.Total, known.Unique)
			}
		})
	}
}
