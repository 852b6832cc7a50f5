package nqueens_test

import (
	"errors"
	"fmt"
	"slices"
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
		{"08", 0, 0},
		{"010", 0, 0},
		{"0x10", 0, 0},
		{"1_0", 0, 0},
		{"32", 32, 32},
		{"33", 0, 33},
		{"10000000", 0, 10_000_000},
		{"10000001", 0, 0},
		{"000000001", 0, 0},
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

func TestParseNArgs(t *testing.T) {
	tests := []struct {
		args []string
		want []int  // nil: refused
		err  string // the error of a refused list
	}{
		{[]string{"8"}, []int{8}, ""},
		{[]string{"12", "8-9", "9"}, []int{12, 8, 9}, ""},
		{[]string{"4,1-2", "2,3"}, []int{1, 2, 4, 3}, ""},
		{[]string{"8", "33"}, nil, `in "33": n must be between 1 and 32, got 33`},
		{[]string{"8", ""}, nil, "list of n is empty: give a number, a range like 4-12, or a list like 1,5,9"},
	}
	for _, tt := range tests {
		got, err := nqueens.ParseNArgs(tt.args)
		if !slices.Equal(got, tt.want) || (tt.want == nil) != (err != nil) || err != nil && err.Error() != tt.err {
			t.Errorf("ParseNArgs(%q) = %v, %v; want %v, %q", tt.args, got, err, tt.want, tt.err)
		}
	}
}

func TestParseOneN(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		list []int // the n of a *ListError
		err  string
	}{
		{"8", 8, nil, ""},
		{"8-10", 0, []int{8, 9, 10}, `one n is wanted, got the list "8-10"`},
		{"3,1", 0, []int{1, 3}, `one n is wanted, got the list "3,1"`},
		{"8-8", 0, nil, `n must be a number between 1 and 32, got "8-8"`},
		{"x", 0, nil, `n must be a number between 1 and 32, got "x"`},
	}
	for _, tt := range tests {
		n, err := nqueens.ParseOneN(tt.in)
		var le *nqueens.ListError
		if n != tt.n || (err == nil) != (tt.err == "") || err != nil && err.Error() != tt.err {
			t.Errorf("ParseOneN(%q) = %d, %v; want %d, %q", tt.in, n, err, tt.n, tt.err)
		}
		if errors.As(err, &le) != (tt.list != nil) || le != nil && !slices.Equal(le.N, tt.list) {
			t.Errorf("ParseOneN(%q): %#v, want a ListError of %v", tt.in, err, tt.list)
		}
	}
}

func ExampleParseNArgs() {
	fmt.Println(nqueens.ParseNArgs([]string{"12", "8-9", "9"}))
	// Output: [12 8 9] <nil>
}

func ExampleParseOneN() {
	fmt.Println(nqueens.ParseOneN("8"))
	_, err := nqueens.ParseOneN("8-10")
	var le *nqueens.ListError
	fmt.Println(errors.As(err, &le), le.N, err)
	// Output:
	// 8 <nil>
	// true [8 9 10] one n is wanted, got the list "8-10"
}

// TestFormatNList checks that FormatNList writes runs as ranges and that
// ParseNList reads back what it writes.
func TestFormatNList(t *testing.T) {
	for _, tc := range []struct {
		ns   []int
		want string
	}{
		{nil, ""},
		{[]int{8}, "8"},
		{[]int{1, 2}, "1-2"},
		{[]int{1, 2, 3, 5, 7, 8}, "1-3,5,7-8"},
		{[]int{1, 3, 5}, "1,3,5"},
		{[]int{4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}, "4-14"},
	} {
		got := nqueens.FormatNList(tc.ns)
		if got != tc.want {
			t.Errorf("FormatNList(%v) = %q, want %q", tc.ns, got, tc.want)
		}
		if len(tc.ns) > 0 {
			if back, err := nqueens.ParseNList(got); err != nil || !slices.Equal(back, tc.ns) {
				t.Errorf("ParseNList(%q) = %v, %v; want %v", got, back, err, tc.ns)
			}
		}
	}
}
