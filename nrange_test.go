package nqueens_test

import (
	"fmt"
	"testing"

	"github.com/nqueens/nqueens"
)

// TestParseNAndConstructN checks that the two readers of a board size
// accept and refuse the same forms, each up to its own largest n.
func TestParseNAndConstructN(t *testing.T) {
	tests := []struct {
		in           string
		n, construct int // 0: refused
	}{
		{"8", 8, 8},
		{"08", 8, 8},
		{"32", 32, 32},
		{"33", 0, 33},
		{"10000000", 0, 10_000_000},
		{"10000001", 0, 0},
		{"000000001", 0, 1},
		{"0", 0, 0},
		{"", 0, 0},
		{"+8", 0, 0},
		{"-8", 0, 0},
		{" 8", 0, 0},
		{"8e1", 0, 0},
		{"٨", 0, 0},
		{"99999999999999999999", 0, 0},
	}
	for _, tt := range tests {
		n, err := nqueens.ParseN(tt.in)
		if (err == nil) != (tt.n != 0) || n != tt.n {
			t.Errorf("ParseN(%q) = %d, %v; want %d", tt.in, n, err, tt.n)
		}
		c, err := nqueens.ParseConstructN(tt.in)
		if (err == nil) != (tt.construct != 0) || c != tt.construct {
			t.Errorf("ParseConstructN(%q) = %d, %v; want %d", tt.in, c, err, tt.construct)
		}
	}
}

func ExampleParseConstructN() {
	fmt.Println(nqueens.ParseConstructN("1000000"))
	fmt.Println(nqueens.ParseConstructN("1e6"))
	// Output:
	// 1000000 <nil>
	// 0 n must be a whole number from 1 to 10000000, got "1e6"
}
