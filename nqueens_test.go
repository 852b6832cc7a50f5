package nqueens_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/testutil"
)

func TestParseAndString(t *testing.T) {
	testutil.CheckParse(t, "Parse", nqueens.Parse, []testutil.ParseCase{
		{In: "1 3 0 2", Want: "1 3 0 2"},
		{In: "[1, 3, 0, 2]", Want: "1 3 0 2"},
		{In: "1,3,0,2", Want: "1 3 0 2"},
		{In: "0", Want: "0"},
		{In: "", WantErr: "no columns"},
		{In: "1 4 0 2", WantErr: "4 columns make a board of n = 4, whose columns run from 0 to 3: 4 (row 1) is off the board"},
		{In: "4 6 1 5 2 0 7", WantErr: "7 columns make a board of n = 7, whose columns run from 0 to 6: 7 (row 6) is off the board"},
		{In: "1 -3 0 2", WantErr: `"-3" (row 1) is not a column: columns are whole numbers from 0 to n-1`},
		{In: "1 +3 0 2", WantErr: `"+3" (row 1) is not a column`},
		{In: "a b", WantErr: `"a" (row 0) is not a column`},
		{In: "0,,1", WantErr: "a comma with no column before or after it"},
		{In: "0,1,", WantErr: "a comma with no column before or after it"},
		{In: ".Q../...Q/Q.../..Q.", Want: "1 3 0 2"},
		{In: ".Q.. ...Q Q... ..Q.", Want: "1 3 0 2"},
		{In: "_ Q _ _ / _ _ _ Q / Q _ _ _ / _ _ Q _", Want: "1 3 0 2"},
		{In: "QQ", WantErr: `grid: row 0 is "QQ", 2 squares long: want 1`},
		{In: ".Q.. ...Q Q...", WantErr: "grid: row 0 is \".Q..\", 4 squares long: want 3"},
		{In: strings.Repeat("0 ", 33), WantErr: "at most 32"},
		{In: strings.Repeat("1", 1000), WantErr: "too long"},
	})
}

func TestValid(t *testing.T) {
	tests := []struct {
		cols  []int
		valid bool
	}{
		{[]int{0}, true},
		{[]int{1, 3, 0, 2}, true},
		{[]int{0, 4, 7, 5, 2, 6, 1, 3}, true},
		{[]int{0, 1}, false}, // diagonal
		{[]int{1, 0}, false}, // anti-diagonal
		{[]int{0, 0}, false}, // column
		{[]int{3, 1, 0, 2}, false},
	}
	for _, tt := range tests {
		p := nqueens.MustNew(tt.cols...)
		err := p.Valid()
		if (err == nil) != tt.valid {
			t.Errorf("%v.Valid() = %v, want valid=%v", tt.cols, err, tt.valid)
		}
	}
	if err := (nqueens.Placement{}).Valid(); err == nil {
		t.Error("zero Placement is valid")
	}
	err := nqueens.MustNew(1, 3, 2, 0).Valid()
	if err == nil || !strings.Contains(err.Error(), "row 1 column 3 and row 2 column 2") {
		t.Errorf("Valid error = %v, want it to name the attacking pair", err)
	}
}

func TestValidAgainstBruteForce(t *testing.T) {
	// Every permutation of 0..5: Valid agrees with a direct check.
	var perm func(p []int, k int)
	checked := 0
	perm = func(p []int, k int) {
		if k == len(p) {
			ok := true
			for i := range p {
				for j := range i {
					if p[i]-p[j] == i-j || p[j]-p[i] == i-j {
						ok = false
					}
				}
			}
			if got := nqueens.MustNew(p...).Valid() == nil; got != ok {
				t.Errorf("%v: Valid says %v, brute force says %v", p, got, ok)
			}
			checked++
			return
		}
		for i := k; i < len(p); i++ {
			p[k], p[i] = p[i], p[k]
			perm(p, k+1)
			p[k], p[i] = p[i], p[k]
		}
	}
	perm([]int{0, 1, 2, 3, 4, 5}, 0)
	if checked != 720 {
		t.Fatalf("checked %d permutations", checked)
	}
}

func TestKeyOrderMatchesCompare(t *testing.T) {
	ps := []nqueens.Placement{
		nqueens.MustNew(0, 10, 2, 3, 4, 5, 6, 7, 8, 9, 1),
		nqueens.MustNew(0, 9, 2, 3, 4, 5, 6, 7, 8, 10, 1),
		nqueens.MustNew(1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10),
	}
	for _, p := range ps {
		q, err := nqueens.ParseKey(p.Key())
		if err != nil || q != p {
			t.Errorf("ParseKey(%q) = %v, %v; want %v", p.Key(), q, err, p)
		}
		for _, r := range ps {
			if got, want := strings.Compare(p.Key(), r.Key()), p.Compare(r); got != want {
				t.Errorf("key order of %v, %v = %d, Compare = %d", p, r, got, want)
			}
		}
	}
	if k := nqueens.MustNew(1, 3, 0, 2).Key(); k != "1302" {
		t.Errorf("Key = %q, want 1302", k)
	}
	for _, bad := range []string{"", "14", "1x", strings.Repeat("0", 33)} {
		if _, err := nqueens.ParseKey(bad); err == nil {
			t.Errorf("ParseKey(%q) succeeded", bad)
		}
	}
}

func TestGrid(t *testing.T) {
	got := strings.Join(nqueens.MustNew(1, 3, 0, 2).Grid(), ",")
	if want := ".Q..,...Q,Q...,..Q."; got != want {
		t.Errorf("Grid = %s, want %s", got, want)
	}
}

func TestParseNList(t *testing.T) {
	testutil.CheckParse(t, "ParseNList", nqueens.ParseNList, []testutil.ParseCase{
		{In: "8", Want: "[8]"},
		{In: "4-7", Want: "[4 5 6 7]"},
		{In: "1,5,9", Want: "[1 5 9]"},
		{In: "9,1-3,2", Want: "[1 2 3 9]"},
		{In: "32", Want: "[32]"},
		{In: "0", WantErr: "between 1 and 32, got 0"},
		{In: "33", WantErr: "between 1 and 32, got 33"},
		{In: "-1", WantErr: `got "-1"`},
		{In: "1e3", WantErr: `got "1e3"`},
		{In: "８", WantErr: `got "８"`},
		{In: "1-", WantErr: `range "1-" has no end`},
		{In: "5-3", WantErr: "runs backwards"},
		{In: "1,,2", WantErr: "empty item"},
		{In: "", WantErr: "empty"},
		{In: " ", WantErr: "empty"},
		{In: "+5", WantErr: `got "+5"`},
		{In: "00008", WantErr: `got "00008"`},
		{In: strings.Repeat("1", 10<<20), WantErr: "at most 256"},
	})
}

func TestKnownCounts(t *testing.T) {
	k, ok := nqueens.KnownCounts(8)
	if !ok || k.Total != 92 || k.Unique != 12 {
		t.Errorf("KnownCounts(8) = %v, %v", k, ok)
	}
	k, ok = nqueens.KnownCounts(27)
	if !ok || k.Total != 234907967154122528 || k.Unique != 29363495934315694 {
		t.Errorf("KnownCounts(27) = %v, %v", k, ok)
	}
	for _, n := range []int{0, 28, -1} {
		if _, ok := nqueens.KnownCounts(n); ok {
			t.Errorf("KnownCounts(%d) ok", n)
		}
	}
}

// TestCheckKnown checks the one check of counts against OEIS: the
// published counts pass, as does any n OEIS does not know; others give a
// *KnownError naming both pairs, or the total alone where there are no
// classes.
func TestCheckKnown(t *testing.T) {
	for _, tc := range []struct {
		n    int
		c    nqueens.Counts
		want string
	}{
		{8, nqueens.Counts{Total: 92, Unique: 12}, ""},
		{28, nqueens.Counts{Total: 1, Unique: 1}, ""},
		{2, nqueens.Counts{}, ""},
		{8, nqueens.Counts{Total: 100, Unique: 13}, "total 100, unique 13; OEIS A000170/A002562 say 92, 12"},
		{8, nqueens.Counts{Total: 92, Unique: 11}, "total 92, unique 11; OEIS A000170/A002562 say 92, 12"},
		{12, nqueens.Counts{Total: 14201}, "total 14201; OEIS A000170/A002562 say 14200, 1787"},
	} {
		err := nqueens.CheckKnown(tc.n, tc.c)
		var ke *nqueens.KnownError
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("CheckKnown(%d, %+v) = %v, want nil", tc.n, tc.c, err)
		case tc.want != "" && (!errors.As(err, &ke) || err.Error() != tc.want || ke.N != tc.n):
			t.Errorf("CheckKnown(%d, %+v) = %v, want a *KnownError %q", tc.n, tc.c, err, tc.want)
		}
	}
}

func FuzzParseNList(f *testing.F) {
	for _, s := range []string{"8", "4-12", "1,5,9", "1-", "5-3", "1,,2", "1e3", "８", "", "-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ns, err := nqueens.ParseNList(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("multi-line error %q", err)
			}
			return
		}
		if len(ns) == 0 {
			t.Fatalf("ParseNList(%q) gave no n and no error", s)
		}
		for i, n := range ns {
			if n < 1 || n > nqueens.MaxN || (i > 0 && n <= ns[i-1]) {
				t.Fatalf("ParseNList(%q) = %v: bad or unordered n", s, ns)
			}
		}
	})
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"1 3 0 2", "[0]", "0,4,7,5,2,6,1,3", "1 1", "", "9 9 9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := nqueens.Parse(s)
		if err != nil {
			return
		}
		if p.N() < 1 || p.N() > nqueens.MaxN {
			t.Fatalf("Parse(%q) = board of %d", s, p.N())
		}
		q, err := nqueens.Parse(p.String())
		if err != nil || q != p {
			t.Fatalf("Parse(String()) of %v = %v, %v", p, q, err)
		}
		k, err := nqueens.ParseKey(p.Key())
		if err != nil || k != p {
			t.Fatalf("ParseKey(Key()) of %v = %v, %v", p, k, err)
		}
	})
}

// A placement is a board of n queens, one a row: parse it, check it, and
// compare its n with the published counts.
func Example() {
	p, err := nqueens.Parse("4 6 1 5 2 0 7 3")
	fmt.Println(p.N(), p, err, p.Valid())
	_, err = nqueens.Parse("4 6 1 5 2 0 7")
	fmt.Println(err)
	k, _ := nqueens.KnownCounts(8)
	fmt.Println(k.Total, "solutions in", k.Unique, "classes")
	// Output:
	// 8 4 6 1 5 2 0 7 3 <nil> <nil>
	// 7 columns make a board of n = 7, whose columns run from 0 to 6: 7 (row 6) is off the board
	// 92 solutions in 12 classes
}
