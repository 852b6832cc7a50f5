package export

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/enumerate"
	"github.com/nqueens/nqueens/input"
)

// found is what the lookup command makes of a placement, with class
// numbers taken as given.
func found(p nqueens.Placement, class int64) Found {
	f, _ := Identify(p, func(nqueens.Placement) (int64, error) { return class, nil })
	return f
}

// TestWriteFoundGolden writes a solution with and without its class
// number, a symmetric one, and a board that is not a solution, in both
// formats, against testdata/lookup.{text,json}.
func TestWriteFoundGolden(t *testing.T) {
	cases := []Found{
		found(nqueens.MustNew(4, 6, 1, 5, 2, 0, 7, 3), 9),
		found(nqueens.MustNew(4, 6, 1, 5, 2, 0, 7, 3), 0),
		found(nqueens.MustNew(1, 3, 5, 0, 2, 4), 1),
		found(nqueens.MustNew(0, 1, 2, 3), 0),
	}
	for _, format := range LookupFormats {
		var buf bytes.Buffer
		for _, f := range cases {
			if err := format.WriteFound(&buf, f); err != nil {
				t.Fatal(err)
			}
		}
		golden := filepath.Join("testdata", "lookup."+format.String())
		if *update {
			os.WriteFile(golden, buf.Bytes(), 0o644)
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if buf.String() != string(want) {
			t.Errorf("%s:\n%s\nwant:\n%s", format, buf.String(), want)
		}
	}
}

// BenchmarkLookupWithoutCatalog is the lookup command's work for each
// placement when no catalog is at hand: read a line, check the solution,
// fold it, write its line of JSON.
func BenchmarkLookupWithoutCatalog(b *testing.B) {
	var in bytes.Buffer
	k := 0
	for p := range enumerate.Solutions(12) {
		in.WriteString(p.String() + "\n")
		k++
	}
	data := in.Bytes()
	var out bytes.Buffer
	b.ResetTimer()
	for b.Loop() {
		out.Reset()
		for p, err := range input.ReadPlacements(bytes.NewReader(data), "") {
			if err != nil {
				b.Fatal(err)
			}
			FormatJSON.WriteFound(&out, found(p, 0))
		}
	}
	b.ReportMetric(float64(k)*float64(b.N)/b.Elapsed().Seconds(), "placements/s")
}
