package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
)

// TestSymmetricQueriesReadTheIndex checks the plans of the queries that
// symmetry filters and counts run: they read classes_symmetric, not every
// class of n (which took seconds at n = 17 when SQLite chose the key).
func TestSymmetricQueriesReadTheIndex(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "c.db"), Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Run(ctx, 10, nqueens.Shard{}, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	rot := []nqueens.Symmetry{nqueens.SymRot180, nqueens.SymRot90}
	q, args := Filter{Symmetry: rot, From: 3, To: 90, Limit: 5}.query(10)
	for name, query := range map[string]struct {
		sql  string
		args []any
	}{"classes": {q, args}, "tally": {tallySQL(rowsRead{}), []any{10, 1, 92}}} {
		rows, err := db.h.DB.QueryContext(ctx, "EXPLAIN QUERY PLAN "+query.sql, query.args...)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, notused int
			var detail string
			if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		if !strings.Contains(strings.Join(plan, "; "), "classes_symmetric") {
			t.Errorf("%s: plan %q does not read classes_symmetric", name, plan)
		}
	}
}
