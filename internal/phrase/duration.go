package phrase

import (
	"math"
	"strconv"
	"time"
)

// A unit of time as nqueens words it: a symbol below a day ("ms", "s",
// "min", "h"), a word from a day up ("day", "month", "year"), which alone
// takes a plural.
type unit struct {
	one, many string
	secs      float64
	// step is what the unit is rounded to in an estimate (About) when it
	// comes second: "about 1 min 30 s", not "about 1 min 31 s".
	step float64
}

// units are the units of Duration and About, largest first; a month is a
// twelfth of a year.
var units = []unit{
	{"year", "years", 365.25 * 86400, 1},
	{"month", "months", 365.25 * 86400 / 12, 1},
	{"day", "days", 86400, 1},
	{"h", "h", 3600, 1},
	{"min", "min", 60, 5},
	{"s", "s", 1, 10},
}

// of returns "k u", in the unit's plural unless k is "1".
func (u unit) of(k string) string {
	if k == "1" {
		return k + " " + u.one
	}
	return k + " " + u.many
}

// Duration returns a measured duration, such as a command's run time, in
// the words of every message of nqueens: "0 s", "48 µs" below a
// millisecond, "8 ms" below a second, "3.2 s" (tenths) below a minute,
// then the largest unit it reaches and the next smaller one, rounded to
// the smaller and left out when it rounds to 0: "1 min 4 s", "3 h", "1 h
// 2 min", "2 days 3 h", "1 year 2 months". About words an estimate in the
// same units.
func Duration(d time.Duration) string {
	switch {
	case d <= 0:
		return "0 s"
	case d < time.Microsecond/2:
		return "under 1 µs"
	case d < time.Millisecond-time.Microsecond/2:
		return strconv.FormatInt(int64(d.Round(time.Microsecond)/time.Microsecond), 10) + " µs"
	case d < time.Second-time.Millisecond/2:
		return strconv.FormatInt(int64(d.Round(time.Millisecond)/time.Millisecond), 10) + " ms"
	case d < time.Minute-50*time.Millisecond:
		return strconv.FormatFloat(d.Round(100*time.Millisecond).Seconds(), 'f', 1, 64) + " s"
	}
	secs := d.Seconds()
	i := largest(secs)
	// Rounding to the smaller unit may reach the next larger one: 59 min
	// 59.6 s is 1 h.
	if r := roundTo(secs, units[i+1].secs); largest(r) != i {
		i, secs = largest(r), r
	}
	u, v := units[i], units[i+1]
	secs = roundTo(secs, v.secs)
	whole := math.Floor(secs/u.secs + 1e-9)
	rest := math.Round((secs - whole*u.secs) / v.secs)
	s := u.of(strconv.FormatFloat(whole, 'f', 0, 64))
	if rest > 0 {
		s += " " + v.of(strconv.FormatFloat(rest, 'f', 0, 64))
	}
	return s
}

// largest returns the index in units of the largest unit secs reaches, a
// minute at least.
func largest(secs float64) int {
	i := 0
	for i < len(units)-2 && secs < units[i].secs {
		i++
	}
	return i
}

// roundTo rounds secs to a whole number of step seconds.
func roundTo(secs, step float64) float64 { return math.Round(secs/step) * step }

// About returns an estimated duration, in seconds, in words, in the units
// of Duration: "about 3 h", "about 1 h 20 min", "about 9 months", "about
// 40 years", "about 270 million years". It speaks in the largest unit the
// duration reaches, adding the next smaller one when there are fewer than
// 3 of the first; it rounds to whole units below 10 of them and to two
// significant digits above, and gives tenths of a second below 10
// seconds: "about 4.3 s", "under 0.1 s"; a number of four digits or more
// is grouped as Count groups it ("about 3,200 years"). An infinite or NaN duration is
// "an unknown time".
func About(secs float64) string {
	switch {
	case math.IsInf(secs, 1) || math.IsNaN(secs):
		return "an unknown time"
	case secs < 0.05:
		return "under 0.1 s"
	case secs < 9.95:
		return "about " + strconv.FormatFloat(secs, 'f', 1, 64) + " s"
	}
	i := 0
	for secs < units[i].secs {
		i++
	}
	u := units[i]
	q := secs / u.secs
	if q < 3 && i+1 < len(units) {
		v := units[i+1]
		whole := math.Floor(q)
		rest := math.Round((secs-whole*u.secs)/v.secs/v.step) * v.step
		if rest >= math.Round(u.secs/v.secs) {
			whole, rest = whole+1, 0
		}
		s := "about " + u.of(strconv.FormatFloat(whole, 'f', 0, 64))
		if rest > 0 {
			s += " " + v.of(strconv.FormatFloat(rest, 'f', 0, 64))
		}
		return s
	}
	switch {
	case q >= 1e9:
		return "about " + sig2(q/1e9) + " billion " + u.many
	case q >= 1e6:
		return "about " + sig2(q/1e6) + " million " + u.many
	}
	if q < 10 {
		return "about " + u.of(strconv.FormatFloat(q, 'f', 0, 64))
	}
	r, _ := strconv.ParseFloat(sig2(q), 64)
	if i > 0 && r*u.secs >= units[i-1].secs {
		return About(r * u.secs) // 59.9 s is about 1 min, not about 60 s
	}
	return "about " + u.of(group(sig2(q)))
}

// sig2 returns x rounded to two significant digits, in full: 3, 47, 1200.
func sig2(x float64) string {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 2, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64)
}
