package store

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/internal/balance"
	"github.com/nqueens/nqueens/internal/testutil"
)

func TestMergeShardsEqualsWholeBuild(t *testing.T) {
	const n, k = 10, 3
	dir := t.TempDir()
	var parts []*DB
	for i := range k {
		parts = append(parts, buildShard(t, dir, n, i, k))
	}
	outPath := filepath.Join(dir, "out.db")
	units := canonical.Units(n)
	merged, err := merge(ctx, outPath, []*DB{parts[2], parts[0], parts[1]})
	if err != nil {
		t.Fatal(err)
	}
	out := open(t, outPath)
	got := merged[0]
	if len(merged) != 1 || !got.Complete || got.Total != 724 || got.Unique != 92 || !got.Shard.IsWhole() || got.UnitsDone != len(units) {
		t.Errorf("merged build %+v", got)
	}
	buildWhole(t, filepath.Join(dir, "whole.db"), n)
	whole := open(t, filepath.Join(dir, "whole.db"))
	if a, b := classes(t, out, n), classes(t, whole, n); !slices.Equal(a, b) {
		t.Errorf("merged catalog holds %d classes, whole build %d, or they differ", len(a), len(b))
	}
	if _, err := merge(ctx, outPath, parts); !errors.Is(err, ErrComplete) {
		t.Errorf("second merge: %v, want ErrComplete", err)
	}
}

func TestMergeRefusesBadParts(t *testing.T) {
	const n = 9
	dir := t.TempDir()
	s0, s1, s2 := buildShard(t, dir, n, 0, 3), buildShard(t, dir, n, 1, 3), buildShard(t, dir, n, 2, 3)
	other := buildShard(t, dir, n, 1, 2)
	unfinished := open(t, filepath.Join(dir, "unfinished.db"))
	units, _, _ := balance.Shard(canonical.Units(n), nqueens.Shard{Index: 2, Count: 3}, canonical.Cost)
	b, err := unfinished.beginShard(ctx, n, nqueens.Shard{Index: 2, Count: 3}, len(units))
	if err != nil {
		t.Fatal(err)
	}
	build(t, b, units, 0, 1)
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	whole := open(t, filepath.Join(dir, "whole.db"))
	all := canonical.Units(n)
	wb, _ := whole.begin(ctx, n, len(all))
	build(t, wb, all, 0, len(all))
	wb.Finish()
	n8 := buildShard(t, t.TempDir(), 8, 1, 3)
	forged := buildShard(t, t.TempDir(), n, 1, 3)
	raw, err := sql.Open("sqlite", forged.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`UPDATE builds SET units_total = units_total + 1, units_done = units_done + 1`); err != nil {
		t.Fatal(err)
	}

	for _, tt := range []struct {
		name  string
		parts []*DB
		want  string
	}{
		{"missing", []*DB{s0, s2}, "shards 1 of 3 missing"},
		{"duplicate", []*DB{s0, s1, s1, s2}, "shard 1/3 given twice"},
		{"other k", []*DB{s0, s1, s2, other}, "one of 3 shards"},
		{"unfinished", []*DB{s0, s1, unfinished}, "unfinished"},
		{"whole", []*DB{whole}, "whole, not a shard"},
		{"none", nil, "no shard catalogs"},
		{"other n", []*DB{s0, n8, s2}, "holds n=8, " + s0.Path() + " holds n=9: shards of different boards"},
		{"other version", []*DB{s0, forged, s2}, "made by another version?"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "out.db")
			_, err := merge(ctx, path, tt.parts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Merge: %v, want an error saying %q", err, tt.want)
			}
			if names := testutil.ReadDir(t, filepath.Dir(path)); len(names) > 1 || len(names) == 1 && names[0] != "out.db.lock" {
				t.Errorf("a failed merge left %v", names)
			}
		})
	}
}

func TestBeginShardRefusesAnotherShard(t *testing.T) {
	db := buildShard(t, t.TempDir(), 8, 0, 2)
	units, _, _ := balance.Shard(canonical.Units(8), nqueens.Shard{Index: 1, Count: 2}, canonical.Cost)
	if _, err := db.beginShard(ctx, 8, nqueens.Shard{Index: 1, Count: 2}, len(units)); !errors.Is(err, ErrShardMismatch) {
		t.Errorf("BeginShard of shard 1/2 over 0/2: %v, want ErrShardMismatch", err)
	}
	if _, err := db.begin(ctx, 8, len(canonical.Units(8))); !errors.Is(err, ErrShardMismatch) {
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
	// The copy takes its place in shard 1's order, and the classes after it
	// are numbered one more.
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`UPDATE classes SET class = -class WHERE n = ?`, []any{n}},
		{`INSERT INTO classes (n, class, placement, orbit) VALUES (?, 0, ?, ?)`, []any{n, l.Placement.Key(), l.Symmetry.Orbit()}},
		{`UPDATE classes SET class = (SELECT count(*) FROM classes c WHERE c.n = classes.n AND c.placement <= classes.placement) WHERE n = ?`, []any{n}},
	} {
		if _, err := raw.Exec(q.sql, q.args...); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := raw.Exec(`UPDATE builds SET unique_count = unique_count + 1, total = total + ?, orbit8 = orbit8 + 1 WHERE n = ?`, l.Symmetry.Orbit(), n); err != nil {
		t.Fatal(err)
	}
	// Into a new file, which must not appear, and into an existing one,
	// which must keep every byte.
	fresh := filepath.Join(t.TempDir(), "out.db")
	existing := filepath.Join(t.TempDir(), "out.db")
	open(t, existing).Close()
	before, _ := os.ReadFile(existing)
	for _, path := range []string{fresh, existing} {
		_, err = merge(ctx, path, []*DB{s0, s1})
		if err == nil || !strings.Contains(err.Error(), "shards overlap") {
			t.Fatalf("Merge of overlapping shards: %v, want an overlap error", err)
		}
	}
	if _, err := os.Stat(fresh); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed merge created its output: %v", err)
	}
	if after, _ := os.ReadFile(existing); !bytes.Equal(before, after) {
		for i := range min(len(before), len(after)) {
			if before[i] != after[i] {
				t.Logf("offset %d: %x -> %x", i, before[i], after[i])
			}
		}
		t.Log(len(before), len(after))
		t.Errorf("a failed merge changed the existing output")
	}
}

// TestMergeIsAllOrNothing merges shards of two boards, one of them with a
// shard unfinished: nothing is written, not even the complete board, and
// the same merge succeeds once the shard is finished.
func TestMergeIsAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	var parts []*DB
	var pending *builder // shard 1 of n = 10, one unit done
	for i := range 2 {
		db := open(t, filepath.Join(dir, fmt.Sprintf("s%d.db", i)))
		for _, n := range []int{8, 10} {
			units, _, _ := balance.Shard(canonical.Units(n), nqueens.Shard{Index: i, Count: 2}, canonical.Cost)
			b, err := db.beginShard(ctx, n, nqueens.Shard{Index: i, Count: 2}, len(units))
			if err != nil {
				t.Fatal(err)
			}
			if n == 10 && i == 1 {
				build(t, b, units, 0, 1)
				pending = b
				continue
			}
			build(t, b, units, 0, len(units))
			if _, err := b.Finish(); err != nil {
				t.Fatal(err)
			}
		}
		parts = append(parts, db)
	}
	out := filepath.Join(dir, "out.db")
	if _, err := merge(ctx, out, parts); err == nil || !strings.Contains(err.Error(), "unfinished") {
		t.Fatalf("merge with a shard unfinished: %v", err)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a refused merge created %s: %v", out, err)
	}
	units, _, _ := balance.Shard(canonical.Units(10), nqueens.Shard{Index: 1, Count: 2}, canonical.Cost)
	build(t, pending, units, 1, len(units))
	if _, err := pending.Finish(); err != nil {
		t.Fatal(err)
	}
	merged, err := merge(ctx, out, parts)
	if err != nil {
		t.Fatalf("merge once the shard is finished: %v", err)
	}
	if len(merged) != 2 || merged[0].Unique != 12 || merged[1].Unique != 92 {
		t.Errorf("merged %+v", merged)
	}
}

// TestMergeFiles merges shard catalogs by their paths, and checks what it
// refuses before it merges: a path named twice, a file that does not open,
// parts that are not mergeable.
func TestMergeFiles(t *testing.T) {
	dir := t.TempDir()
	s0, s1 := buildShard(t, dir, 9, 0, 2).Path(), buildShard(t, dir, 9, 1, 2).Path()
	missing := filepath.Join(dir, "missing.db")
	whole := filepath.Join(dir, "whole.db")
	run(t, open(t, whole), 9)
	for _, tt := range []struct {
		name   string
		parts  []string
		out    string // the output, or out.db in a directory of its own
		err    error  // errors.Is, with text
		text   string // in the error
		starts bool   // start was called with n = 9
	}{
		{"two shards", []string{s0, s1}, "", nil, "", true},
		{"named twice", []string{s0, s1, s0}, "", ErrNamedTwice, "merge: " + s0 + " is named twice", false},
		{"does not open", []string{s0, missing}, "", ErrNoCatalog, missing, false},
		{"not mergeable", []string{s0, whole}, "", nil, "whole, not a shard", false},
		{"a shard missing", []string{s0}, "", nil, "shards 1 of 2 missing", true},
		{"into a part", []string{s0, s1}, s1, ErrPartFile, "output " + s1 + ": is a file of the shard catalog " + s1, false},
		{"into a part's log", []string{s0, s1}, s0 + "-wal", ErrPartFile, "output " + s0 + "-wal: is a file of the shard catalog " + s0, false},
		{"into a part's lock", []string{s0, s1}, s1 + ".lock", ErrPartFile, "output " + s1 + ".lock: is a file", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := tt.out
			if out == "" {
				out = filepath.Join(t.TempDir(), "out.db")
			}
			var started []int
			builds, err := MergeFiles(ctx, out, tt.parts, func(ns []int) { started = ns })
			switch {
			case tt.text == "" && (err != nil || len(builds) != 1 || builds[0].Unique != 46 || !builds[0].Complete):
				t.Errorf("MergeFiles = %+v, %v; want n=9 complete with 46 classes", builds, err)
			case tt.text != "" && (err == nil || !strings.Contains(err.Error(), tt.text) || tt.err != nil && !errors.Is(err, tt.err)):
				t.Errorf("MergeFiles: %v, want an error saying %q", err, tt.text)
			}
			if (len(started) == 1 && started[0] == 9) != tt.starts {
				t.Errorf("start called with %v", started)
			}
		})
	}
}
