package phrase

import (
	"math"
	"testing"
)

// TestAbout checks the words of estimated durations, from tenths of a
// second to billions of years.
func TestAbout(t *testing.T) {
	const minute, hour, day, year = 60, 3600, 86400, 365.25 * 86400
	tests := []struct {
		secs float64
		want string
	}{
		{0, "under 0.1 seconds"},
		{0.04, "under 0.1 seconds"},
		{0.13, "about 0.1 seconds"},
		{1, "about 1.0 seconds"},
		{4.3, "about 4.3 seconds"},
		{29, "about 29 seconds"},
		{61, "about 1 minute"},
		{95, "about 1 minute 40 seconds"},
		{119, "about 2 minutes"},
		{3.7 * minute, "about 4 minutes"},
		{28 * minute, "about 28 minutes"},
		{80 * minute, "about 1 hour 20 minutes"},
		{3 * hour, "about 3 hours"},
		{32 * hour, "about 1 day 8 hours"},
		{12 * day, "about 12 days"},
		{9 * year / 12, "about 9 months"},
		{35 * year / 12, "about 2 years 11 months"},
		{40 * year, "about 40 years"},
		{3214 * year, "about 3200 years"},
		{2.7e8 * year, "about 270 million years"},
		{4.5e9 * year, "about 4.5 billion years"},
		{math.Inf(1), "an unknown time"},
	}
	for _, tt := range tests {
		if got := About(tt.secs); got != tt.want {
			t.Errorf("About(%g) = %q, want %q", tt.secs, got, tt.want)
		}
	}
}
