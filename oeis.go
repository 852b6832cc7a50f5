package nqueens

import "fmt"

// Known holds the published solution counts: Total is OEIS A000170 (all
// solutions) and Unique is OEIS A002562 (classes under the 8 symmetries of
// the square).
type Known struct {
	Total  uint64
	Unique uint64
}

// known is indexed by n; entry 0 is unused. Source: OEIS A000170 and
// A002562, n = 1..27, the largest n for which both are known.
var known = [...]Known{
	{},
	{1, 1},
	{0, 0},
	{0, 0},
	{2, 1},
	{10, 2},
	{4, 1},
	{40, 6},
	{92, 12},
	{352, 46},
	{724, 92},
	{2680, 341},
	{14200, 1787},
	{73712, 9233},
	{365596, 45752},
	{2279184, 285053},
	{14772512, 1846955},
	{95815104, 11977939},
	{666090624, 83263591},
	{4968057848, 621012754},
	{39029188884, 4878666808},
	{314666222712, 39333324973},
	{2691008701644, 336376244042},
	{24233937684440, 3029242658210},
	{227514171973736, 28439272956934},
	{2207893435808352, 275986683743434},
	{22317699616364044, 2789712466510289},
	{234907967154122528, 29363495934315694},
}

// KnownCounts returns the published counts for n and true, or false when
// n is outside 1..27, the range OEIS knows.
func KnownCounts(n int) (Known, bool) {
	if n < 1 || n >= len(known) {
		return Known{}, false
	}
	return known[n], true
}

// KnownError is CheckKnown's error: the counts of a board of n that are
// not the published ones.
type KnownError struct {
	N int
	// Total and Unique are the counts found; Unique is 0 where a total
	// formed no whole classes.
	Total, Unique uint64
	// Known is what OEIS publishes for n.
	Known Known
}

// Error names both pairs of numbers: "total 14766504, unique 1846204;
// OEIS A000170/A002562 say 14772512, 1846955", or the total alone where
// it formed no classes.
func (e *KnownError) Error() string {
	got := fmt.Sprintf("total %d, unique %d", e.Total, e.Unique)
	if e.Unique == 0 && e.Total != 0 {
		got = fmt.Sprintf("total %d", e.Total)
	}
	return fmt.Sprintf("%s; OEIS A000170/A002562 say %d, %d", got, e.Known.Total, e.Known.Unique)
}

// CheckKnown returns nil if c holds the published total and classes of a
// board of n (KnownCounts), or if OEIS does not know n; otherwise a
// *KnownError. It is the one check every count, combined count, build and
// verification makes before its numbers are taken as right. Pass the
// total alone (Unique 0) for a total that formed no whole classes.
func CheckKnown(n int, c Counts) error {
	k, ok := KnownCounts(n)
	if !ok || c.Total == k.Total && c.Unique == k.Unique {
		return nil
	}
	return &KnownError{N: n, Total: c.Total, Unique: c.Unique, Known: k}
}
