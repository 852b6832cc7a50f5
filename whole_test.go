package nqueens_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
)

func TestParseWhole(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
		err  error
	}{
		{"0", 0, nil},
		{"7", 7, nil},
		{"10", 10, nil},
		{"1000", 1000, nil},
		{"18446744073709551615", 1<<64 - 1, nil},
		{"18446744073709551616", 0, nqueens.ErrTooLarge},
		{"99999999999999999999999999", 0, nqueens.ErrTooLarge},
		{"", 0, nqueens.ErrEmpty},
		// Leading zeros: refused, never octal and never quietly decimal.
		{"00", 0, nqueens.ErrLeadingZero},
		{"08", 0, nqueens.ErrLeadingZero},
		{"010", 0, nqueens.ErrLeadingZero},
		{"0010", 0, nqueens.ErrLeadingZero},
		{"018446744073709551616", 0, nqueens.ErrLeadingZero},
		// Go's and YAML's other forms of integers.
		{"0x10", 0, nqueens.ErrNotDecimal},
		{"0X10", 0, nqueens.ErrNotDecimal},
		{"0o10", 0, nqueens.ErrNotDecimal},
		{"0b10", 0, nqueens.ErrNotDecimal},
		{"1_000", 0, nqueens.ErrNotDecimal},
		{"1e3", 0, nqueens.ErrNotDecimal},
		{"1.0", 0, nqueens.ErrNotDecimal},
		{"+5", 0, nqueens.ErrNotDecimal},
		{"-5", 0, nqueens.ErrNotDecimal},
		{"-0", 0, nqueens.ErrNotDecimal},
		{" 5", 0, nqueens.ErrNotDecimal},
		{"5 ", 0, nqueens.ErrNotDecimal},
		{"5\n", 0, nqueens.ErrNotDecimal},
		{"٥", 0, nqueens.ErrNotDecimal},
		{"５", 0, nqueens.ErrNotDecimal},
		{"1,000", 0, nqueens.ErrNotDecimal},
		{"99999999999999999999x", 0, nqueens.ErrNotDecimal},
	}
	for _, tt := range tests {
		got, err := nqueens.ParseWhole(tt.in)
		if got != tt.want || !errors.Is(err, tt.err) || (err == nil) != (tt.err == nil) {
			t.Errorf("ParseWhole(%q) = %d, %v; want %d, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

// TestWholeEverywhere checks that the root's readers of numbers written by
// people (n, lists of n, class ranges, shards, squares, columns) refuse
// what ParseWhole refuses.
func TestWholeEverywhere(t *testing.T) {
	getenv := func(string) string { return "" }
	for _, bad := range []string{"010", "08", "0x10", "1_000", "+5", "-0", " 5"} {
		if _, err := nqueens.ParseN(bad); err == nil {
			t.Errorf("ParseN(%q) accepted", bad)
		}
		if _, err := nqueens.ParseConstructN(bad); err == nil {
			t.Errorf("ParseConstructN(%q) accepted", bad)
		}
		if _, err := nqueens.ParseNList("4-" + bad); err == nil {
			t.Errorf("ParseNList(%q) accepted", "4-"+bad)
		}
		if _, _, err := nqueens.ParseClassRange(bad + "-12"); err == nil {
			t.Errorf("ParseClassRange(%q) accepted", bad+"-12")
		}
		if _, err := nqueens.ParseShard("1/"+bad, getenv); err == nil {
			t.Errorf("ParseShard(%q) accepted", "1/"+bad)
		}
		if _, err := nqueens.ParseShard(bad+"/20", getenv); err == nil {
			t.Errorf("ParseShard(%q) accepted", bad+"/20")
		}
		if _, err := nqueens.ParseShard("auto/20", func(string) string { return bad }); err == nil {
			t.Errorf("ParseShard(auto/20) with the index %q accepted", bad)
		}
		if bad == " 5" {
			continue // spaces separate a square's numbers and a placement's columns
		}
		if _, err := nqueens.ParseSquare("1," + bad); err == nil {
			t.Errorf("ParseSquare(%q) accepted", "1,"+bad)
		}
		// 16 columns: 010 is a column on the board whether read as 8 or 10.
		cols := "0 1 2 3 4 5 6 7 9 11 12 13 14 15 15 " + bad
		if _, err := nqueens.Parse(cols); err == nil {
			t.Errorf("Parse(%q) accepted", cols)
		}
	}
	if from, to, err := nqueens.ParseClassRange("10-12"); from != 10 || to != 12 || err != nil {
		t.Errorf(`ParseClassRange("10-12") = %d, %d, %v`, from, to, err)
	}
	if _, _, err := nqueens.ParseClassRange("010-012"); err == nil || !strings.Contains(err.Error(), "leading zeros are refused") {
		t.Errorf(`ParseClassRange("010-012") error = %v, want one saying leading zeros are refused`, err)
	}
	if s, err := nqueens.ParseShard("10/20", getenv); err != nil || s.Index != 10 || s.Count != 20 {
		t.Errorf(`ParseShard("10/20") = %v, %v`, s, err)
	}
}

func ExampleParseWhole() {
	for _, s := range []string{"10", "010", "0x10", "+5"} {
		fmt.Println(nqueens.ParseWhole(s))
	}
	// Output:
	// 10 <nil>
	// 0 leading zeros are refused
	// 0 write decimal digits 0-9 only
	// 0 write decimal digits 0-9 only
}
