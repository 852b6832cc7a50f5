package store

import (
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/internal/testutil"
)

// TestIndexBitFlips flips one random bit of one random index block of n =
// 12 (its data or a number of its row), 60 times (300 with NQUEENS_LONG),
// each in a fresh copy of the catalog, and reads the
// copy as every reader does: every class in order, class K and the
// lookup of a board, for K in each block. A flip is
// refused as damage (ErrBadRow) by every read that meets its block, and
// no read gives another answer than the intact catalog's with no error.
// Half of the flips are then resealed (the block's checksum made for the
// flipped row, as one who knows the format would): the reads may answer
// only what the intact catalog does, or refuse; none may panic.
func TestIndexBitFlips(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig.db")
	db := open(t, orig)
	b := runIndex(t, db, 12)
	want := classes(t, db, 12)
	db.Close()
	data, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(12, 41))
	columns := []string{"first_entry", "entries", "classes_before", "solutions_before", "checksum"}
	flips := 60
	if testutil.Long() {
		flips = 300
	}
	for i := range flips {
		path := filepath.Join(dir, "flip.db")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		raw, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		var blocks int64
		if err := raw.QueryRow(`SELECT count(*) FROM index_blocks WHERE n = 12`).Scan(&blocks); err != nil {
			t.Fatal(err)
		}
		block := r.Int64N(blocks)
		var what string
		if r.IntN(3) > 0 {
			var d []byte
			if err := raw.QueryRow(`SELECT data FROM index_blocks WHERE n = 12 AND block = ?`, block).Scan(&d); err != nil {
				t.Fatal(err)
			}
			at := r.IntN(len(d))
			d[at] ^= 1 << r.IntN(8)
			what = "data byte"
			_, err = raw.Exec(`UPDATE index_blocks SET data = ? WHERE n = 12 AND block = ?`, d, block)
		} else {
			col := columns[r.IntN(len(columns))]
			// A bit flipped: (a | bit) - (a & bit), as SQLite has no XOR.
			bit := int64(1) << r.IntN(63)
			_, err = raw.Exec(`UPDATE index_blocks SET `+col+` = (`+col+` | ?) - (`+col+` & ?) WHERE n = 12 AND block = ?`, bit, bit, block)
		}
		if err != nil {
			t.Fatal(err)
		}
		resealed := i%2 == 1
		if resealed {
			_, err := raw.Exec(`UPDATE index_blocks SET checksum = nqueens_block_checksum(n, block, first_entry, entries, classes_before, solutions_before, orbit4_before, orbit2_before, orbit1_before, first_prefix, data) WHERE n = 12 AND block = ?`, block)
			if err != nil {
				t.Fatal(err)
			}
		}
		raw.Close()
		name := func() string {
			if resealed {
				return "resealed flip"
			}
			return "flip"
		}()
		checkFlipped(t, path, b, want, fmt.Sprintf("%s of block %d's %s", name, block, what), !resealed)
	}
}

// checkFlipped reads the catalog at path as every reader does and checks
// each answer against want, the intact catalog's classes of the build b:
// an answer that differs must come with an error, and with refuse, every
// read that meets the flipped block must be refused as damage.
func checkFlipped(t *testing.T, path string, b Build, want []nqueens.Layout, what string, refuse bool) {
	t.Helper()
	db, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("%s: open: %v", what, err)
	}
	defer db.Close()
	var got []nqueens.Layout
	var walkErr error
	for l, err := range db.Classes(ctx, 12, Filter{}) {
		if err != nil {
			walkErr = err
			break
		}
		got = append(got, l)
	}
	switch {
	case walkErr != nil && !errors.Is(walkErr, ErrBadRow):
		t.Errorf("%s: every class: %v, not a damaged catalog", what, walkErr)
	case walkErr == nil && !slices.Equal(got, want):
		t.Errorf("%s: every class read with no error, and they differ from the intact catalog's", what)
	case walkErr == nil && refuse:
		t.Errorf("%s: every class read with no error", what)
	}
	for _, k := range []int64{1, 250, 900, 1500, int64(b.Unique)} {
		l, err := db.Class(ctx, 12, k)
		if err == nil && l != want[k-1] {
			t.Errorf("%s: class %d is %v with no error, the intact catalog's is %v", what, k, l, want[k-1])
		} else if err != nil && !errors.Is(err, ErrBadRow) && !errors.Is(err, ErrNoClass) {
			t.Errorf("%s: class %d: %v", what, k, err)
		}
		board := canonical.Orbit(want[k-1].Placement)
		found, err := db.Lookup(ctx, b, board[len(board)-1])
		if err == nil && found.Class != k {
			t.Errorf("%s: the lookup of an image of class %d gives class %d with no error", what, k, found.Class)
		} else if err != nil && !errors.Is(err, ErrBadRow) && !errors.Is(err, ErrNoClass) {
			t.Errorf("%s: lookup of class %d: %v", what, k, err)
		}
	}
}
