package store

import (
	"database/sql"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nqueens/nqueens"
)

// TestMigrationSealsIndex turns a catalog holding n = 11 as an index back
// into one of schema 5 (no checksums), reads it read-only as such, then
// opens it to write, which migrates it: its blocks and symmetric classes
// are sealed, every reader answers as before, verify passes, and a row
// changed afterwards is refused.
func TestMigrationSealsIndex(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "c.db")
	db := open(t, path)
	runIndex(t, db, 11)
	want := classes(t, db, 11)
	db.Close()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = raw.Exec(`ALTER TABLE index_symmetric DROP COLUMN checksum;
		ALTER TABLE index_blocks DROP COLUMN checksum;
		ALTER TABLE index_blocks DROP COLUMN orbit1_before;
		ALTER TABLE index_blocks DROP COLUMN orbit2_before;
		ALTER TABLE index_blocks DROP COLUMN orbit4_before;
		CREATE INDEX index_blocks_solutions ON index_blocks (n, solutions_before, block);
		DELETE FROM goose_db_version WHERE version_id = 6`)
	raw.Close()
	if err != nil {
		t.Fatal(err)
	}
	ro, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := classes(t, ro, 11); !slices.Equal(got, want) {
		t.Errorf("schema 5, read-only: %d classes unlike the built ones", len(got))
	}
	ro.Close()
	if v := schemaVersion(t, path); v != 5 {
		t.Fatalf("schema version %d after a read-only open, want 5", v)
	}
	db = open(t, path)
	if v := schemaVersion(t, path); v != latestSchema {
		t.Fatalf("schema version %d after Open, want %d", v, latestSchema)
	}
	if got := classes(t, db, 11); !slices.Equal(got, want) {
		t.Errorf("migrated: %d classes unlike the built ones", len(got))
	}
	syms := []nqueens.Symmetry{nqueens.SymRot180, nqueens.SymRot90}
	for l, err := range db.Classes(ctx, 11, Filter{Symmetry: syms}) {
		if err != nil || l != want[l.Class-1] {
			t.Errorf("migrated: symmetric class %v, %v", l, err)
		}
	}
	recountAll(t, db)
	db.Close()
	raw, err = sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = raw.Exec(`UPDATE index_symmetric SET class = class + 1 WHERE n = 11 AND class = (SELECT min(class) FROM index_symmetric WHERE n = 11)`)
	raw.Close()
	if err != nil {
		t.Fatal(err)
	}
	db = open(t, path)
	defer db.Close()
	for _, err := range db.Classes(ctx, 11, Filter{Symmetry: syms}) {
		if err != nil {
			return
		}
	}
	t.Error("a symmetric class renumbered after the migration was read with no error")
}
