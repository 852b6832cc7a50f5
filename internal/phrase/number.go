package phrase

import (
	"math"
	"strconv"
	"strings"
)

// Count writes an exact count of things for a message, with a comma
// between each group of three digits: "0", "999", "10,000",
// "2,279,184". Every quantity that nqueens words for a reader (solutions,
// classes, rows, work units, nodes) is written by it, through Plural
// where a noun follows; a number the reader may type back (a limit, a
// class number, a seed) and every column of a table or field of JSON or
// CSV is written in plain digits.
func Count[T ~int | ~int64 | ~uint64](k T) string {
	if k < 0 {
		return "-" + group(strconv.FormatUint(uint64(-int64(k)), 10))
	}
	return group(strconv.FormatUint(uint64(k), 10))
}

// group puts a comma between each group of three of the digits s.
func group(s string) string {
	if len(s) <= 3 {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Approx writes an estimated count of things and their noun, as Plural
// does: the count rounded to a whole number, as Count writes it, below a
// million ("1 node", "35,000 nodes"), and with two significant digits and
// a power of ten above ("6.1e9 nodes", "3.0e14 nodes"), the one style of
// every estimate of nqueens.
func Approx(x float64, noun string) string {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0) || x < 0:
		return "an unknown number of " + plural(noun)
	case math.Round(x) < 1e6:
		return Plural(uint64(math.Round(x)), noun)
	}
	mant, exp, _ := strings.Cut(strconv.FormatFloat(x, 'e', 1, 64), "e") // 6.1e+09
	return mant + "e" + strings.TrimLeft(exp, "+0") + " " + plural(noun)
}
