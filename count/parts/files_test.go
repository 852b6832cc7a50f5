package parts_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/count/parts"
	"github.com/nqueens/nqueens/internal/balance"
)

// writeParts writes the k parts count --shard would print for n into dir,
// with alter applied to each, and returns their file names.
func writeParts(t *testing.T, dir string, n, k int, alter func(p *parts.Part)) []string {
	t.Helper()
	var files []string
	for i := range k {
		cs, idx, err := balance.Shard(count.Constellations(n), nqueens.Shard{Index: i, Count: k}, count.Constellation.Cost)
		if err != nil {
			t.Fatal(err)
		}
		total, err := count.Solutions(context.Background(), cs, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		p := parts.Part{N: n, Shards: k, Shard: i, UnitsTotal: len(count.Constellations(n)),
			Units: len(idx), UnitsDigest: count.Digest(cs), Total: total}
		alter(&p)
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, "part-"+string(rune('0'+i))+".json")
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

func TestCombineFiles(t *testing.T) {
	ctx := context.Background()
	files := writeParts(t, t.TempDir(), 12, 3, func(*parts.Part) {})
	c, k, err := parts.CombineFiles(ctx, files, 2)
	if err != nil || k != 3 || c.Total != 14200 || c.Unique != 1787 || c.Orbit8 != 1765 || c.Orbit4 != 18 || c.Orbit2 != 4 {
		t.Fatalf("combine = %+v, %d, %v; want 14200 solutions in 1787 classes (1765, 18, 4) from 3 shards", c, k, err)
	}

	// A part whose total was changed so that the classes cannot be whole
	// is a mismatch (exit 3), not a broken program.
	files = writeParts(t, t.TempDir(), 12, 3, func(p *parts.Part) {
		if p.Shard == 1 {
			p.Total++
		}
	})
	_, _, err = parts.CombineFiles(ctx, files, 2)
	if !errors.Is(err, parts.ErrAltered) || !strings.Contains(err.Error(), "14,201 solutions, which cannot form whole classes") {
		t.Errorf("combine with an altered part: err = %v, want a mismatch naming 14201 solutions", err)
	}

	// A part whose total is more than the whole board's is refused, naming
	// that part and not an honest one added after it: also when the totals
	// wrap past 2^64 round to the right sum, which would otherwise match
	// OEIS.
	for name, add := range map[string]uint64{"wraps to the right sum": 1 << 63, "overflows": math.MaxUint64 - 14200} {
		files = writeParts(t, t.TempDir(), 12, 3, func(p *parts.Part) {
			if p.Shard == 0 || name == "wraps to the right sum" && p.Shard == 1 {
				p.Total += add
			}
		})
		_, _, err = parts.CombineFiles(ctx, files, 2)
		if !errors.Is(err, parts.ErrAltered) || !strings.Contains(err.Error(), filepath.Base(files[0])+`: "total" `) || !strings.Contains(err.Error(), "more than the 14,200 solutions of the whole board") {
			t.Errorf("combine with totals that %s: err = %v, want a mismatch naming %s and its total", name, err, files[0])
		}
	}

	// A total changed by 8 still forms whole classes, but not the
	// published counts: refused as altered, naming OEIS.
	files = writeParts(t, t.TempDir(), 12, 3, func(p *parts.Part) {
		if p.Shard == 2 {
			p.Total += 8
		}
	})
	if _, _, err = parts.CombineFiles(ctx, files, 2); !errors.Is(err, parts.ErrAltered) || !strings.Contains(err.Error(), "OEIS A000170/A002562 say 14200, 1787") {
		t.Errorf("combine with a total 8 too high: err = %v, want a mismatch with OEIS", err)
	}

	// A part over 1 MB is refused before it is decoded.
	files = writeParts(t, t.TempDir(), 12, 3, func(*parts.Part) {})
	data, _ := os.ReadFile(files[2])
	os.WriteFile(files[2], append(data, bytes.Repeat([]byte{' '}, 1<<20)...), 0o644)
	if _, _, err := parts.CombineFiles(ctx, files, 2); err == nil || err.Error() != "combine: "+files[2]+": larger than 1 MB (1048576 bytes)" {
		t.Errorf("combine with a part over 1 MB: err = %v", err)
	}

	// n = 2 and 3 have no constellations: one empty shard each.
	for _, n := range []int{2, 3} {
		files = writeParts(t, t.TempDir(), n, 1, func(*parts.Part) {})
		c, _, err := parts.CombineFiles(ctx, files, 2)
		if err != nil || c.Total != 0 || c.Unique != 0 {
			t.Errorf("combine n=%d = %+v, %v; want no solutions", n, c, err)
		}
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	files = writeParts(t, t.TempDir(), 14, 2, func(*parts.Part) {})
	if _, _, err := parts.CombineFiles(cancelled, files, 2); err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("combine with a cancelled context: err = %v, want interrupted", err)
	}
}

// TestCombineBlamesTheLargestOnOverflow combines parts of n = 28, whose
// total OEIS does not know, where the first part's total was altered to
// nearly 2^64: the sum overflows when an honest part is added, and the
// error names the altered one, the largest. The totals are checked before
// the work units, so the parts need none.
func TestCombineBlamesTheLargestOnOverflow(t *testing.T) {
	const n, k = 28, 3
	var ps []parts.Part
	var names []string
	for i := range k {
		total := uint64(1_000_000 + i)
		if i == 0 {
			total = math.MaxUint64 - 10
		}
		ps = append(ps, parts.Part{N: n, Shards: k, Shard: i, Total: total})
		names = append(names, "part-"+string(rune('0'+i))+".json")
	}
	_, err := parts.Combine(context.Background(), ps, names, 1)
	if !errors.Is(err, parts.ErrAltered) || !strings.Contains(err.Error(), `part-0.json: "total" 18446744073709551605, the largest of the parts`) {
		t.Errorf("combine: %v, want a mismatch naming part-0.json, the largest", err)
	}
}
