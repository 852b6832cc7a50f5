package nqueens_test

import (
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
)

func TestParseSquare(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want nqueens.Square
	}{{"0,3", nqueens.Square{Row: 0, Col: 3}}, {"11, 0", nqueens.Square{Row: 11, Col: 0}}, {" 31,31 ", nqueens.Square{Row: 31, Col: 31}}} {
		got, err := nqueens.ParseSquare(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseSquare(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"", "3", "0,", ",3", "-1,2", "1,2,3", "01,2", "32,0", "0,100", "a,b", "1.5,2"} {
		if got, err := nqueens.ParseSquare(in); err == nil || !strings.Contains(err.Error(), "want r,c") {
			t.Errorf("ParseSquare(%q) = %v, %v; want an error saying r,c", in, got, err)
		}
	}
	if s := (nqueens.Square{Row: 2, Col: 10}); s.String() != "2,10" || s.KeyDigit() != "a" {
		t.Errorf("Square{2,10}: %q, digit %q", s.String(), s.KeyDigit())
	}
}

func TestSquareCheckHolds(t *testing.T) {
	p, _ := nqueens.Parse("1 3 0 2")
	if !(nqueens.Square{Row: 1, Col: 3}).Holds(p) || (nqueens.Square{Row: 1, Col: 2}).Holds(p) || (nqueens.Square{Row: 4, Col: 0}).Holds(p) {
		t.Error("Holds on 1 3 0 2 is wrong")
	}
	if err := (nqueens.Square{Row: 3, Col: 3}).Check(4); err != nil {
		t.Errorf("3,3 on n=4: %v", err)
	}
	if err := (nqueens.Square{Row: 4, Col: 0}).Check(4); err == nil || err.Error() != "square 4,0: n=4 has rows 0 to 3, no row 4" {
		t.Errorf("4,0 on n=4: %v", err)
	}
	if err := (nqueens.Square{Row: 0, Col: 9}).Check(8); err == nil || err.Error() != "square 0,9: n=8 has columns 0 to 7, no column 9" {
		t.Errorf("0,9 on n=8: %v", err)
	}
}
