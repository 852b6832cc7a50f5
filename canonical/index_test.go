package canonical

import (
	"context"
	"testing"

	"github.com/nqueens/nqueens"
)

// TestIndexSearches checks, for every unit of n = 1..11 split at its
// depth and one row deeper, that the prefixes Below yields list the
// unit's classes in order, that UnitClass finds each class by its rank
// and UnitRank each rank by its class, that neither finds what the unit
// lacks, and that Tallies adds up to the published counts.
func TestIndexSearches(t *testing.T) {
	ctx := context.Background()
	for n := 1; n <= 11; n++ {
		units := Units(n)
		var all []nqueens.Layout
		for _, batch := range UnitClasses(ctx, units, 0, 1) {
			all = append(all, batch...)
		}
		for _, depth := range []int{UnitDepth(n), min(UnitDepth(n)+1, n)} {
			var got []nqueens.Layout
			var sum nqueens.Counts
			var symmetric int
			for i, tallies := range Tallies(ctx, units, 0, depth, 2) {
				below := below(units[i], depth)
				if len(tallies) != len(below) {
					t.Fatalf("n=%d unit %d: %d tallies for %d prefixes", n, i, len(tallies), len(below))
				}
				for j, v := range below {
					tl := tallies[j]
					if tl.Unit != v {
						t.Fatalf("n=%d: tally of %v for prefix %v", n, tl.Unit.Prefix(), v.Prefix())
					}
					sum.Merge(tl.Counts)
					for k := int64(1); k <= int64(tl.Counts.Unique); k++ {
						l, ok := UnitClass(v, k)
						if !ok || l.Class != k {
							t.Fatalf("n=%d prefix %v: UnitClass(%d) = %v, %v", n, v.Prefix(), k, l, ok)
						}
						got = append(got, l)
						r, sym, ok := UnitRank(v, l.Placement)
						if !ok || r != k || sym != l.Symmetry {
							t.Fatalf("n=%d prefix %v: UnitRank(%s) = %d, %s, %v; want %d, %s", n, v.Prefix(), l.Placement, r, sym, ok, k, l.Symmetry)
						}
						if l.Symmetry != nqueens.SymNone {
							s := tl.Symmetric[symmetricIndex(tl.Symmetric, k)]
							if s.Placement != l.Placement || s.Symmetry != l.Symmetry {
								t.Fatalf("n=%d prefix %v: symmetric class %d is %v, want %v", n, v.Prefix(), k, s, l)
							}
							symmetric++
						}
					}
					if l, ok := UnitClass(v, int64(tl.Counts.Unique)+1); ok {
						t.Fatalf("n=%d prefix %v: UnitClass past its %d classes gives %v", n, v.Prefix(), tl.Counts.Unique, l)
					}
				}
			}
			if len(got) != len(all) {
				t.Fatalf("n=%d depth %d: %d classes by rank, %d searched", n, depth, len(got), len(all))
			}
			for i := range all {
				if got[i].Placement != all[i].Placement || got[i].Symmetry != all[i].Symmetry {
					t.Fatalf("n=%d depth %d: class %d is %v by rank, %v searched", n, depth, i+1, got[i], all[i])
				}
			}
			if k, _ := nqueens.KnownCounts(n); sum.Total != k.Total || sum.Unique != k.Unique {
				t.Fatalf("n=%d depth %d: tallies add up to %d, %d; OEIS %d, %d", n, depth, sum.Total, sum.Unique, k.Total, k.Unique)
			}
			if want := int(sum.Orbit4 + sum.Orbit2 + sum.Orbit1); symmetric != want {
				t.Fatalf("n=%d: %d symmetric classes listed, %d counted", n, symmetric, want)
			}
		}
	}
}

func symmetricIndex(ls []nqueens.Layout, k int64) int {
	for i, l := range ls {
		if l.Class == k {
			return i
		}
	}
	return -1
}

// BenchmarkTallies measures the index's search of n = 14 on one
// goroutine, beside BenchmarkCountByClasses, which counts alone.
func BenchmarkTallies(b *testing.B) {
	units := Units(14)
	for b.Loop() {
		for range Tallies(context.Background(), units, 0, IndexDepth(14), 1) {
		}
	}
}
