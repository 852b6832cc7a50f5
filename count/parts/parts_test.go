package parts_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/count/parts"
)

// TestReadRefusesImpossibleShards reads parts whose n or shard numbers no
// split can have: each is refused as out of range before Combine would
// list its missing shards.
func TestReadRefusesImpossibleShards(t *testing.T) {
	for _, shards := range []string{"0", "1000001", "9223372036854775807"} {
		data := `{"n":12,"shards":` + shards + `,"shard":0,"units_total":730,"units":1,"units_digest":"sha256:x","total":1,"seconds":0,"search_seconds":0}`
		if _, err := parts.Read([]byte(data)); !errors.Is(err, parts.ErrOutOfRange) {
			t.Errorf("shards %s: Read error %v, want ErrOutOfRange", shards, err)
		}
	}
}

// TestMakeBy makes the parts of n = 12 by each Method: by constellations
// and by the join they combine into the published counts, each split into
// its own units; the class search, which counts whole boards only, is
// refused in one line.
func TestMakeBy(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		by         count.Method
		unitsTotal int
	}{
		{count.ByConstellations, len(count.Constellations(12))},
		{count.ByJoin, count.JoinUnitsOf(12).Total},
	} {
		var ps []parts.Part
		var names []string
		for i := range 3 {
			p, err := parts.Make(ctx, 12, nqueens.Shard{Index: i, Count: 3}, count.Options{Workers: 2, By: tt.by})
			if err != nil {
				t.Fatalf("by %d: shard %d: %v", tt.by, i, err)
			}
			if p.UnitsTotal != tt.unitsTotal {
				t.Errorf("by %d: shard %d has %d units in all, want %d", tt.by, i, p.UnitsTotal, tt.unitsTotal)
			}
			ps, names = append(ps, p), append(names, fmt.Sprintf("part-%d.json", i))
		}
		c, err := parts.Combine(ctx, ps, names, 2)
		if err != nil || c.Total != 14200 || c.Unique != 1787 {
			t.Errorf("by %d: combined %d solutions, %d classes, %v; want 14200, 1787", tt.by, c.Total, c.Unique, err)
		}
	}
	_, err := parts.Make(ctx, 12, nqueens.Shard{Index: 0, Count: 3}, count.Options{By: count.ByClasses})
	if want := "n=12 shard 0/3: the class search counts whole boards, not shards"; err == nil || err.Error() != want {
		t.Errorf("by classes: %v, want %q", err, want)
	}
}
