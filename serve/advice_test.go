package serve

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nqueens/nqueens/store"
)

// testAdvice is advice in words no page holds without it.
var testAdvice = Advice{
	Open: func(err error) error {
		if errors.Is(err, store.ErrNoCatalog) {
			return fmt.Errorf("%w (make one with mk)", err)
		}
		return err
	},
	Build: func(n int) string { return fmt.Sprintf("mk %d", n) },
	Start: func() string { return "mk 1-3" },
	Lex:   func(n int) string { return fmt.Sprintf("mk --lex %d", n) },
}

// TestAdvice requests each page and error that advice adds to, from a
// server with no advice, which says what is missing and no more, and from
// one with testAdvice, which adds its words where they belong.
func TestAdvice(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.db")
	createCatalog(t, empty)
	big := filepath.Join(dir, "big.db")
	createCatalog(t, big)
	// A builds row of n = 17 complete, with its published counts and no
	// classes, is enough for an export to refuse lexicographic order.
	markComplete(t, big, 17, 95815104, 11977939)

	tests := []struct {
		name    string
		cat     func(t *testing.T) Catalog
		target  string
		status  int
		bare    string // the end of what the page or error says without advice
		advised string // what it says with testAdvice
	}{
		{
			name:    "empty catalog",
			cat:     func(t *testing.T) Catalog { return openDB(t, empty) },
			target:  "/",
			status:  200,
			bare:    "<p>The catalog is empty.</p>",
			advised: "<p>The catalog is empty: build some n with <code>mk 1-3</code>.</p>",
		},
		{
			name: "catalog removed",
			cat: func(t *testing.T) Catalog {
				path := filepath.Join(t.TempDir(), "c.db")
				createCatalog(t, path)
				f, err := store.Follow(ctx, path, store.FollowOptions{})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { f.Close() })
				if err := os.Remove(path); err != nil {
					t.Fatal(err)
				}
				return f
			},
			target:  "/api/v1/counts",
			status:  503,
			bare:    `: no catalog"}`,
			advised: `: no catalog (make one with mk)"}`,
		},
		{
			name: "n built during a lookup",
			cat: func(t *testing.T) Catalog {
				return &builtBetween{before: openDB(t, empty), after: openDB(t, catalogPath(t))}
			},
			target:  "/lookup?placement=0+4+7+5+2+6+1+3",
			status:  404,
			bare:    "but n=8 is not in this catalog.",
			advised: "but n=8 is not in this catalog: build it with mk 8.",
		},
		{
			name:    "lexicographic order above MaxLexN",
			cat:     func(t *testing.T) Catalog { return openDB(t, big) },
			target:  "/export/17.csv?all=1&order=lex",
			status:  400,
			bare:    fmt.Sprintf("lexicographic order is served up to n = %d</p>", maxLexN),
			advised: fmt.Sprintf("lexicographic order is served up to n = %d (mk --lex 17 gives it)</p>", maxLexN),
		},
	}
	for _, tc := range tests {
		for _, advised := range []bool{false, true} {
			opts, want, unwanted := Options{}, tc.bare, "mk"
			if advised {
				opts, want, unwanted = Options{Advice: testAdvice}, tc.advised, ""
			}
			w := get(t, New(tc.cat(t), opts), "GET", tc.target)
			body := html.UnescapeString(w.Body.String())
			switch {
			case w.Code != tc.status || !strings.Contains(body, want):
				t.Errorf("%s, advised %t: %s: %d, want %d saying %q:\n%s", tc.name, advised, tc.target, w.Code, tc.status, want, body)
			case unwanted != "" && strings.Contains(body, unwanted):
				t.Errorf("%s, advised %t: %s says %q:\n%s", tc.name, advised, tc.target, unwanted, body)
			}
		}
	}
}

// createCatalog creates an empty catalog at path.
func createCatalog(t *testing.T, path string) {
	t.Helper()
	db, err := store.Open(context.Background(), path, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
}

// openDB opens the catalog at path read-only until the test ends.
func openDB(t *testing.T, path string) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// markComplete writes into the catalog at path a builds row of n,
// complete, with the given counts and none of its classes.
func markComplete(t *testing.T, path string, n int, total, unique uint64) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const at = "2025-01-01T00:00:00Z"
	if _, err := db.Exec(`INSERT INTO builds (n, total, unique_count, orbit8, complete, units_done, units_total, started_at, finished_at)
		VALUES (?, ?, ?, ?, 1, 1, 1, ?, ?)`, n, total, unique, unique, at, at); err != nil {
		t.Fatal(err)
	}
}

// builtBetween is a catalog that lacks every n on its first read and
// holds the catalog after on every read from then on: it stands for a
// build of n that completes between a lookup's reads.
type builtBetween struct {
	before, after *store.DB
	mu            sync.Mutex
	reads         int
}

func (c *builtBetween) Read(ctx context.Context, read func(*store.DB) error) error {
	c.mu.Lock()
	db := c.after
	if c.reads == 0 {
		db = c.before
	}
	c.reads++
	c.mu.Unlock()
	return read(db)
}
