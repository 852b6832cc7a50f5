package serve

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/store"
)

// TestDamagedIndexServed serves a catalog whose index of n = 12 is
// damaged (a bit of its first block flipped; its last block recording
// 2^63-1 prefixes, resealed) beside an intact n = 10: every request that
// reads a damaged block is answered with the error page (or JSON error)
// naming n = 12 and the damage, never a board or number of n = 12, never
// a crash; and the server answers the requests of n = 10 as before, after
// each of them.
func TestDamagedIndexServed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tt := range []struct {
		name, sql string
	}{
		{"a bit flipped", ""}, // below
		{"entries 2^63-1, resealed", `UPDATE index_blocks SET entries = 9223372036854775807 WHERE n = 12 AND block = 0;
			UPDATE index_blocks SET checksum = nqueens_block_checksum(n, block, first_entry, entries, classes_before, solutions_before, orbit4_before, orbit2_before, orbit1_before, first_prefix, data) WHERE n = 12`},
		{"a count moved", `UPDATE index_blocks SET classes_before = classes_before + 1 WHERE n = 12 AND block = 1`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "c.db")
			db, err := store.Open(ctx, path, store.Options{Create: true})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Run(ctx, 10, nqueens.Shard{}, store.RunOptions{}); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Run(ctx, 12, nqueens.Shard{}, store.RunOptions{Index: true}); err != nil {
				t.Fatal(err)
			}
			db.Close()
			raw, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			q := tt.sql
			if q == "" {
				// Flip the low bit of block 0's second byte, a column.
				var data []byte
				if err := raw.QueryRow(`SELECT data FROM index_blocks WHERE n = 12 AND block = 0`).Scan(&data); err != nil {
					t.Fatal(err)
				}
				data[1] ^= 1
				_, err = raw.Exec(`UPDATE index_blocks SET data = ? WHERE n = 12 AND block = 0`, data)
			}
			if q != "" {
				_, err = raw.Exec(q)
			}
			raw.Close()
			if err != nil {
				t.Fatal(err)
			}
			ro, err := store.Open(ctx, path, store.Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer ro.Close()
			s := New(ro, Options{})
			for _, target := range []string{"/n/12/1", "/n/12", "/api/v1/classes/12/1", "/api/v1/classes?n=12&limit=5",
				"/export/12.csv", "/api/v1/lookup?placement=0,2,4,7,9,11,5,10,1,6,8,3", "/lookup?placement=0,2,4,7,9,11,5,10,1,6,8,3"} {
				w := get(t, s, http.MethodGet, target)
				body := w.Body.String()
				if w.Code != http.StatusInternalServerError || !strings.Contains(body, "n=12 index") || !strings.Contains(body, "damaged") {
					t.Errorf("GET %s: %d, want %d naming the damage of n=12's index:\n%.300s", target, w.Code, http.StatusInternalServerError, body)
				}
				if strings.Contains(body, "0 2 4 7 9 11 5 10 1 6 8 3") || strings.Contains(body, `"class":1,`) {
					t.Errorf("GET %s answered a class of the damaged index:\n%.300s", target, body)
				}
				if w := get(t, s, http.MethodGet, "/api/v1/classes/10/1"); w.Code != http.StatusOK {
					t.Errorf("after GET %s, GET /api/v1/classes/10/1: %d:\n%.300s", target, w.Code, w.Body)
				}
			}
		})
	}
}

// TestIndexSquare serves n = 12 as an index and as rows: a square on a row
// the index's prefixes fix is answered from the index at any size; one
// below them is searched up to Options.MaxSquareSearch classes, the same
// classes as the rows give, and above it is answered 422 naming the
// command that gives it.
func TestIndexSquare(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	paths := map[bool]string{false: filepath.Join(dir, "rows.db"), true: filepath.Join(dir, "index.db")}
	for index, path := range paths {
		db, err := store.Open(ctx, path, store.Options{Create: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Run(ctx, 12, nqueens.Shard{}, store.RunOptions{Index: index}); err != nil {
			t.Fatal(err)
		}
		db.Close()
	}
	server := func(path string, opts Options) http.Handler {
		db, err := store.Open(ctx, path, store.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return New(db, opts)
	}
	advice := Advice{Square: func(n int, sq nqueens.Square) string { return fmt.Sprintf("mk %d %d,%d", n, sq.Row, sq.Col) }}
	rows := server(paths[false], Options{})
	index := server(paths[true], Options{})
	small := server(paths[true], Options{MaxSquareSearch: 1000, Advice: advice})
	for _, target := range []string{"/api/v1/classes?n=12&square=0,3&limit=50", "/api/v1/classes?n=12&square=1,5&offset=7&limit=5",
		"/api/v1/classes?n=12&square=7,2&limit=50", "/api/v1/classes?n=12&square=11,0&symmetry=rot180", "/export/12.csv?square=9,4", "/n/12?square=6,6"} {
		want := get(t, rows, http.MethodGet, target)
		got := get(t, index, http.MethodGet, target)
		if want.Code != http.StatusOK || got.Code != want.Code || got.Body.String() != want.Body.String() {
			t.Errorf("GET %s: the index answers %d, the rows %d:\n%.300s\n%.300s", target, got.Code, want.Code, got.Body, want.Body)
		}
		deep := !strings.Contains(target, "square=0,") && !strings.Contains(target, "square=1,")
		w := get(t, small, http.MethodGet, target)
		switch {
		case deep && (w.Code != http.StatusUnprocessableEntity || !strings.Contains(w.Body.String(), "searching all 1,787 classes") || !strings.Contains(w.Body.String(), "mk 12 ")):
			t.Errorf("GET %s of a server that searches 1,000 classes: %d, want %d naming the search and the command:\n%.300s", target, w.Code, http.StatusUnprocessableEntity, w.Body)
		case !deep && w.Body.String() != want.Body.String():
			t.Errorf("GET %s of a server that searches 1,000 classes: %d, unlike the rows':\n%.300s", target, w.Code, w.Body)
		}
	}
}
