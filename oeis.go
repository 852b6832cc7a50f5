package nqueens

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
