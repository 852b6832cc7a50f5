package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
)

// TestNumbers asks one Numbers of boards of n the catalog holds complete,
// in part, as a shard and not at all, and checks the number or the error
// and its words for each.
func TestNumbers(t *testing.T) {
	dir := t.TempDir()
	db := open(t, filepath.Join(dir, "c.db"))
	run(t, db, 8)
	units := canonical.Units(10)
	b, err := db.begin(ctx, 10, len(units))
	if err != nil {
		t.Fatal(err)
	}
	build(t, b, units, 0, 3)
	b.Close()
	shard := buildShard(t, dir, 10, 1, 2)

	tests := []struct {
		name  string
		db    *DB
		canon nqueens.Placement
		class int64
		is    error
		text  string
		ready bool // Ready(canon.N()) is nil
	}{
		{"class 1 of 8", db, nqueens.MustNew(0, 4, 7, 5, 2, 6, 1, 3), 1, nil, "", true},
		{"class 10 of 8", db, nqueens.MustNew(2, 4, 1, 7, 0, 6, 3, 5), 10, nil, "", true},
		{"not canonical", db, nqueens.MustNew(0, 1, 2, 3, 4, 5, 6, 7), 0, ErrNoClass,
			"the catalog " + db.Path() + " lacks the class of 0 1 2 3 4 5 6 7", true},
		{"not built", db, nqueens.MustNew(0, 2, 4, 1, 3), 0, ErrNotBuilt,
			"n=5 is not in the catalog " + db.Path(), false},
		{"partly built", db, canonical.Fold(nqueens.MustNew(0, 2, 5, 7, 9, 4, 8, 1, 3, 6)), 0, ErrIncomplete,
			fmt.Sprintf("n=10 is only partly built in %s (3 of %d work units)", db.Path(), len(units)), false},
		{"a shard", shard, canonical.Fold(nqueens.MustNew(0, 2, 5, 7, 9, 4, 8, 1, 3, 6)), 0, ErrIncomplete,
			"n=10 in " + shard.Path() + " is shard 1/2 of a sharded build, not the whole board", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nums := tt.db.Numbers()
			for range 2 { // the second time from what it remembers
				k, err := nums.Find(ctx, tt.canon)
				if k != tt.class || !errors.Is(err, tt.is) || (err != nil && err.Error() != tt.text) {
					t.Errorf("Find(%s) = %d, %v; want %d, %q", tt.canon, k, err, tt.class, tt.text)
				}
				if err := nums.Ready(ctx, tt.canon.N()); (err == nil) != tt.ready {
					t.Errorf("Ready(%d) = %v", tt.canon.N(), err)
				}
			}
			var ie *IncompleteError
			if errors.As(nums.Ready(ctx, tt.canon.N()), &ie) && ie.Sharded() != (tt.db == shard) {
				t.Errorf("Sharded() = %v", ie.Sharded())
			}
		})
	}
}
