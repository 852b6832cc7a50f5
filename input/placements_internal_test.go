package input

import (
	"testing"

	"github.com/nqueens/nqueens"
)

// FuzzParseColumns checks the fast path of ReadPlacements against
// nqueens.Parse: whatever it reads, Parse reads the same.
func FuzzParseColumns(f *testing.F) {
	for _, s := range []string{"4 6 1 5 2 0 7 3", "[1, 3, 0, 2]", "1,3,0,2", "0", "05 1", "1  2\t0", "", "1 x", "31 0", "9 9 9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, ok := parseColumns([]byte(s))
		if !ok {
			return
		}
		q, err := nqueens.Parse(s)
		if err != nil || p != q {
			t.Fatalf("parseColumns(%q) = %v; Parse gives %v, %v", s, p, q, err)
		}
	})
}
