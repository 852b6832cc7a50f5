package phrase_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/internal/phrase"
)

// TestQuoteCutsWholeCharacters checks that Quote cuts a long value at a
// character boundary.
func TestQuoteCutsWholeCharacters(t *testing.T) {
	long := strings.Repeat("€", 20) // 60 bytes, 3 a character
	got := phrase.Quote(long)
	if want := strconv.Quote(strings.Repeat("€", 13)) + "... (60 bytes)"; got != want {
		t.Errorf("Quote(20 euro signs) = %s, want %s", got, want)
	}
	if got := phrase.Quote("33"); got != `"33"` {
		t.Errorf(`Quote("33") = %s`, got)
	}
}

func TestMissingShards(t *testing.T) {
	have := func(set ...int) func(int) bool {
		return func(i int) bool {
			for _, s := range set {
				if s == i {
					return true
				}
			}
			return false
		}
	}
	tests := []struct {
		k       int
		present func(int) bool
		want    string
	}{
		{3, have(0, 1, 2), ""},
		{3, have(0, 2), "1"},
		{5, have(2), "0, 1, 3, 4"},
		{1_000_000, have(), "0, 1, 2, 3, 4, 5, 6, 7, 8, 9 and 999990 more"},
	}
	for _, tt := range tests {
		if got := phrase.MissingShards(tt.k, tt.present); got != tt.want {
			t.Errorf("MissingShards(%d) = %q, want %q", tt.k, got, tt.want)
		}
	}
}

func ExamplePlural() {
	fmt.Println(phrase.Plural(1, "class"), phrase.Plural(12, "class"), phrase.Plural(0, "solution"))
	// Output: 1 class 12 classes 0 solutions
}

func TestPlural(t *testing.T) {
	for _, tt := range []struct {
		k    uint64
		noun string
		want string
	}{
		{0, "solution", "0 solutions"},
		{1, "class", "1 class"},
		{2, "class", "2 classes"},
		{1000, "board", "1,000 boards"},
		{2_279_184, "solution", "2,279,184 solutions"},
	} {
		if got := phrase.Plural(tt.k, tt.noun); got != tt.want {
			t.Errorf("Plural(%d, %q) = %q, want %q", tt.k, tt.noun, got, tt.want)
		}
	}
}
