package phrase

import (
	"math"
	"testing"
	"time"
)

// TestDuration checks the words of measured durations at the boundaries
// of each unit: where the rounding moves a duration into the next unit,
// and where the second unit rounds to nothing.
func TestDuration(t *testing.T) {
	const day, year = 24 * time.Hour, time.Duration(365.25 * 24 * float64(time.Hour))
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0 s"},
		{-time.Second, "0 s"},
		{400 * time.Nanosecond, "under 1 µs"},
		{time.Microsecond, "1 µs"},
		{48 * time.Microsecond, "48 µs"},
		{999 * time.Microsecond, "999 µs"},
		{999*time.Microsecond + 600*time.Nanosecond, "1 ms"},
		{8 * time.Millisecond, "8 ms"},
		{8*time.Millisecond + 400*time.Microsecond, "8 ms"},
		{999 * time.Millisecond, "999 ms"},
		{999*time.Millisecond + 600*time.Microsecond, "1.0 s"},
		{time.Second, "1.0 s"},
		{3240 * time.Millisecond, "3.2 s"},
		{59900 * time.Millisecond, "59.9 s"},
		{59960 * time.Millisecond, "1 min"},
		{time.Minute, "1 min"},
		{64 * time.Second, "1 min 4 s"},
		{3*time.Minute + 8278*time.Millisecond, "3 min 8 s"},
		{59*time.Minute + 59*time.Second + 600*time.Millisecond, "1 h"},
		{time.Hour, "1 h"},
		{time.Hour + 2*time.Minute + 20*time.Second, "1 h 2 min"},
		{23*time.Hour + 59*time.Minute + 40*time.Second, "1 day"},
		{day, "1 day"},
		{2*day + 3*time.Hour, "2 days 3 h"},
		{year, "1 year"},
		{13*year + 2*year/12, "13 years 2 months"},
		{math.MaxInt64, "292 years 3 months"},
	}
	for _, tt := range tests {
		if got := Duration(tt.d); got != tt.want {
			t.Errorf("Duration(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

// TestAbout checks the words of estimated durations, from tenths of a
// second to billions of years.
func TestAbout(t *testing.T) {
	const minute, hour, day, year = 60, 3600, 86400, 365.25 * 86400
	tests := []struct {
		secs float64
		want string
	}{
		{0, "under 0.1 s"},
		{0.04, "under 0.1 s"},
		{0.13, "about 0.1 s"},
		{0.999, "about 1.0 s"},
		{1, "about 1.0 s"},
		{4.3, "about 4.3 s"},
		{9.94, "about 9.9 s"},
		{9.96, "about 10 s"},
		{29, "about 29 s"},
		{59.9, "about 1 min"},
		{61, "about 1 min"},
		{95, "about 1 min 40 s"},
		{119, "about 2 min"},
		{3.7 * minute, "about 4 min"},
		{28 * minute, "about 28 min"},
		{59.7 * minute, "about 1 h"},
		{hour, "about 1 h"},
		{80 * minute, "about 1 h 20 min"},
		{3 * hour, "about 3 h"},
		{23.7 * hour, "about 1 day"},
		{day, "about 1 day"},
		{32 * hour, "about 1 day 8 h"},
		{12 * day, "about 12 days"},
		{9 * year / 12, "about 9 months"},
		{35 * year / 12, "about 2 years 11 months"},
		{11.8 * year / 12, "about 1 year"},
		{13 * year, "about 13 years"},
		{40 * year, "about 40 years"},
		{3214 * year, "about 3,200 years"},
		{2.7e8 * year, "about 270 million years"},
		{4.5e9 * year, "about 4.5 billion years"},
		{math.Inf(1), "an unknown time"},
		{math.NaN(), "an unknown time"},
	}
	for _, tt := range tests {
		if got := About(tt.secs); got != tt.want {
			t.Errorf("About(%g) = %q, want %q", tt.secs, got, tt.want)
		}
	}
}
