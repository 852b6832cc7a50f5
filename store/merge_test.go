package store_test

import (
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/store"
)

// buildShard builds shard i of k of n into a new catalog in dir and
// returns it open.
func buildShard(t *testing.T, dir string, n, i, k int) *store.DB {
	t.Helper()
	db := open(t, filepath.Join(dir, fmt.Sprintf("shard-%d-of-%d.db", i, k)))
	units, _, err := canonical.ShardUnits(n, i, k)
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.BeginShard(ctx, n, store.Shard{Index: i, Count: k}, len(units))
	if err != nil {
		t.Fatal(err)
	}
	build(t, b, units, 0, len(units))
	if _, err := b.Finish(); err != nil {
		t.Fatal(err)
	}
	return db
}

func classes(t *testing.T, db *store.DB, n int) []nqueens.Layout {
	t.Helper()
	var out []nqueens.Layout
	for l, err := range db.Classes(ctx, n) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
	return out
}

func TestMergeShardsEqualsWholeBuild(t *testing.T) {
	const n, k = 10, 3
	dir := t.TempDir()
	var parts []*store.DB
	for i := range k {
		parts = append(parts, buildShard(t, dir, n, i, k))
	}
	out := open(t, filepath.Join(dir, "out.db"))
	units := canonical.Units(n)
	got, err := out.Merge(ctx, n, len(units), []*store.DB{parts[2], parts[0], parts[1]})
	if err != nil {
		t.Fatal(err)
	}
	if !got.Complete || got.Total != 724 || got.Unique != 92 || !got.Shard.IsWhole() || got.UnitsDone != len(units) {
		t.Errorf("merged build %+v", got)
	}
	whole := open(t, filepath.Join(dir, "whole.db"))
	b, err := whole.Begin(ctx, n, len(units))
	if err != nil {
		t.Fatal(err)
	}
	build(t, b, units, 0, len(units))
	if _, err := b.Finish(); err != nil {
		t.Fatal(err)
	}
	if a, b := classes(t, out, n), classes(t, whole, n); !slices.Equal(a, b) {
		t.Errorf("merged catalog holds %d classes, whole build %d, or they differ", len(a), len(b))
	}
	if _, err := out.Merge(ctx, n, len(units), parts); !errors.Is(err, store.ErrComplete) {
		t.Errorf("second merge: %v, want ErrComplete", err)
	}
}

func TestMergeRefusesBadParts(t *testing.T) {
	const n = 9
	dir := t.TempDir()
	s0, s1, s2 := buildShard(t, dir, n, 0, 3), buildShard(t, dir, n, 1, 3), buildShard(t, dir, n, 2, 3)
	other := buildShard(t, dir, n, 1, 2)
	unfinished := open(t, filepath.Join(dir, "unfinished.db"))
	units, _, _ := canonical.ShardUnits(n, 2, 3)
	b, err := unfinished.BeginShard(ctx, n, store.Shard{Index: 2, Count: 3}, len(units))
	if err != nil {
		t.Fatal(err)
	}
	build(t, b, units, 0, 1)
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	whole := open(t, filepath.Join(dir, "whole.db"))
	all := canonical.Units(n)
	wb, _ := whole.Begin(ctx, n, len(all))
	build(t, wb, all, 0, len(all))
	wb.Finish()

	for _, tt := range []struct {
		name  string
		parts []*store.DB
		want  string
	}{
		{"missing", []*store.DB{s0, s2}, "shards 1 of 3 missing"},
		{"duplicate", []*store.DB{s0, s1, s1, s2}, "shard 1/3 given twice"},
		{"other k", []*store.DB{s0, s1, s2, other}, "one of 3 shards"},
		{"unfinished", []*store.DB{s0, s1, unfinished}, "unfinished"},
		{"whole", []*store.DB{whole}, "whole board, not a shard"},
		{"none", nil, "no shard catalogs"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := open(t, filepath.Join(t.TempDir(), "out.db"))
			_, err := out.Merge(ctx, n, len(all), tt.parts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Merge: %v, want an error saying %q", err, tt.want)
			}
			if _, err := out.Build(ctx, n); !errors.Is(err, store.ErrNotBuilt) {
				t.Errorf("after a failed merge the output holds n=%d: %v", n, err)
			}
		})
	}
}

func TestBeginShardRefusesAnotherShard(t *testing.T) {
	db := buildShard(t, t.TempDir(), 8, 0, 2)
	units, _, _ := canonical.ShardUnits(8, 1, 2)
	if _, err := db.BeginShard(ctx, 8, store.Shard{Index: 1, Count: 2}, len(units)); !errors.Is(err, store.ErrShardMismatch) {
		t.Errorf("BeginShard of shard 1/2 over 0/2: %v, want ErrShardMismatch", err)
	}
	if _, err := db.Begin(ctx, 8, len(canonical.Units(8))); !errors.Is(err, store.ErrShardMismatch) {
		t.Errorf("Begin of the whole board over shard 0/2: %v, want ErrShardMismatch", err)
	}
}

func TestMergeRefusesOverlappingShards(t *testing.T) {
	const n = 9
	dir := t.TempDir()
	s0, s1 := buildShard(t, dir, n, 0, 2), buildShard(t, dir, n, 1, 2)
	// Copy a class of shard 0 into shard 1, counts and all, as a buggy or
	// tampered shard build would.
	l := classes(t, s0, n)[0]
	raw, err := sql.Open("sqlite", filepath.Join(dir, "shard-1-of-2.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`INSERT INTO classes (n, placement, orbit) VALUES (?, ?, ?)`, n, l.Placement.Key(), l.Symmetry.Orbit()); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`UPDATE builds SET unique_count = unique_count + 1, total = total + ?, orbit8 = orbit8 + 1 WHERE n = ?`, l.Symmetry.Orbit(), n); err != nil {
		t.Fatal(err)
	}
	out := open(t, filepath.Join(dir, "out.db"))
	_, err = out.Merge(ctx, n, len(canonical.Units(n)), []*store.DB{s0, s1})
	if err == nil || !strings.Contains(err.Error(), "shards overlap") {
		t.Fatalf("Merge of overlapping shards: %v, want an overlap error", err)
	}
	if _, err := out.Build(ctx, n); !errors.Is(err, store.ErrNotBuilt) {
		t.Errorf("after a failed merge the output holds n=%d: %v", n, err)
	}
}
