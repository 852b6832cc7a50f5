package phrase

import (
	"math"
	"strconv"
)

// durationUnits are the units About speaks in, largest first; a month is
// a twelfth of a year. step is what the unit is rounded to when it comes
// second: "1 minute 30 seconds", not "1 minute 31 seconds".
var durationUnits = []struct {
	name       string
	secs, step float64
}{
	{"year", 365.25 * 86400, 1},
	{"month", 365.25 * 86400 / 12, 1},
	{"day", 86400, 1},
	{"hour", 3600, 1},
	{"minute", 60, 5},
	{"second", 1, 10},
}

// About returns an estimated duration, in seconds, in words: "about 3 hours", "about 1
// hour 20 minutes", "about 9 months", "about 40 years", "about 270 million
// years". It speaks in the largest unit the duration reaches, adding the
// next smaller one when there are fewer than 3 of the first; it rounds to
// whole units below 10 of them and to two significant digits above, and
// gives tenths of a second below 10 seconds.
func About(secs float64) string {
	switch {
	case math.IsInf(secs, 1) || math.IsNaN(secs):
		return "an unknown time"
	case secs < 0.05:
		return "under 0.1 seconds"
	case secs < 10:
		return "about " + countWords(strconv.FormatFloat(secs, 'f', 1, 64), "second")
	}
	i := 0
	for secs < durationUnits[i].secs {
		i++
	}
	u := durationUnits[i]
	q := secs / u.secs
	if q < 3 && i+1 < len(durationUnits) {
		v := durationUnits[i+1]
		whole := math.Floor(q)
		rest := math.Round((secs-whole*u.secs)/v.secs/v.step) * v.step
		if rest >= math.Round(u.secs/v.secs) {
			whole, rest = whole+1, 0
		}
		s := "about " + countWords(strconv.FormatFloat(whole, 'f', 0, 64), u.name)
		if rest > 0 {
			s += " " + countWords(strconv.FormatFloat(rest, 'f', 0, 64), v.name)
		}
		return s
	}
	switch {
	case q >= 1e9:
		return "about " + sig2(q/1e9) + " billion " + u.name + "s"
	case q >= 1e6:
		return "about " + sig2(q/1e6) + " million " + u.name + "s"
	}
	if q < 10 {
		return "about " + countWords(strconv.FormatFloat(q, 'f', 0, 64), u.name)
	}
	return "about " + countWords(sig2(q), u.name)
}

// sig2 returns x rounded to two significant digits, in full: 3, 47, 1200.
func sig2(x float64) string {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 2, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// countWords returns "count name", adding an s unless count is "1".
func countWords(count, name string) string {
	if count == "1" {
		return count + " " + name
	}
	return count + " " + name + "s"
}
