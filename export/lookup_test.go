package export_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/enumerate"
	"github.com/nqueens/nqueens/export"
)

// found is what the lookup command makes of a placement, with class
// numbers taken as given.
func found(p nqueens.Placement, class int64) export.Found {
	f := export.Found{Placement: p, NotSolution: p.Valid()}
	if f.NotSolution == nil {
		id := canonical.Identify(p)
		f.Canonical, f.Symmetry, f.Transform, f.Class = id.Canonical, id.Symmetry, id.Transform.String(), class
	}
	return f
}

// TestWriteFoundGolden writes a solution with and without its class
// number, a symmetric one, and a board that is not a solution, in both
// formats, against testdata/lookup.{text,json}.
func TestWriteFoundGolden(t *testing.T) {
	cases := []export.Found{
		found(nqueens.MustNew(4, 6, 1, 5, 2, 0, 7, 3), 9),
		found(nqueens.MustNew(4, 6, 1, 5, 2, 0, 7, 3), 0),
		found(nqueens.MustNew(1, 3, 5, 0, 2, 4), 1),
		found(nqueens.MustNew(0, 1, 2, 3), 0),
	}
	for _, format := range export.LookupFormats {
		var buf bytes.Buffer
		for _, f := range cases {
			if err := export.WriteFound(&buf, format, f); err != nil {
				t.Fatal(err)
			}
		}
		golden := filepath.Join("testdata", "lookup."+format)
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

// TestReadPlacementsForms reads one board in every form ReadPlacements
// takes, and refuses bad lines by their number.
func TestReadPlacementsForms(t *testing.T) {
	want := nqueens.MustNew(4, 6, 1, 5, 2, 0, 7, 3)
	in := "4 6 1 5 2 0 7 3\n\n4,6,1,5,2,0,7,3\n  [4, 6, 1, 5, 2, 0, 7, 3]  \n" +
		`{"n":8,"class":9,"placement":[4,6,1,5,2,0,7,3],"orbit":8,"symmetry":"none"}` + "\n"
	k := 0
	for p, err := range export.ReadPlacements(strings.NewReader(in), "") {
		if err != nil || p != want {
			t.Fatalf("placement %d: %v, %v", k, p, err)
		}
		k++
	}
	if k != 4 {
		t.Errorf("read %d placements, want 4", k)
	}
	grids := `[".Q..","...Q","Q...","..Q."]` + "\n" + `[["..Q.","Q...","...Q",".Q.."],[".Q..","...Q","Q...","..Q."]]`
	var got []string
	for p, err := range export.ReadPlacements(strings.NewReader(grids), "leetcode") {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, p.String())
	}
	if strings.Join(got, "|") != "1 3 0 2|2 0 3 1|1 3 0 2" {
		t.Errorf("leetcode boards read as %q", got)
	}
	for _, tt := range []struct{ in, format, want string }{
		{"0 1\n1 x\n", "", "line 2: parse placement"},
		{"0 2 1 1\n", "", "line 1: column 1 is in rows 2 and 3"},
		{`{"n":5,"placement":[1,3,0,2]}`, "", `line 1: "n" is 5 but "placement" has 4 columns`},
		{`{"n":4}`, "", `line 1: the object has no "placement"`},
		{`{"n":4`, "", "line 1: not a JSON object of an export"},
		{`[".Q..","...Q","Q...",".Q.."]`, "leetcode", "value 1: column 1 is in rows 0 and 3"},
		{`[".Q.","...Q","Q...","..Q."]`, "leetcode", "value 1: grid: row 0"},
		{`[1, 2]`, "leetcode", "value 1: want a board"},
		{strings.Repeat("1 ", 40000), "", "longer than"},
	} {
		var last error
		for _, err := range export.ReadPlacements(strings.NewReader(tt.in), tt.format) {
			last = err
		}
		if last == nil || !strings.Contains(last.Error(), tt.want) {
			t.Errorf("ReadPlacements(%.40q, %q) ends with %v, want %q", tt.in, tt.format, last, tt.want)
		}
	}
}

// TestLookupRoundTrip writes every solution of n = 8 as text and reads
// them back: the same placements, in order.
func TestLookupRoundTrip(t *testing.T) {
	var in bytes.Buffer
	var want []nqueens.Placement
	for p := range enumerate.Solutions(8) {
		in.WriteString(p.String() + "\n")
		want = append(want, p)
	}
	i := 0
	for p, err := range export.ReadPlacements(&in, "") {
		if err != nil || p != want[i] {
			t.Fatalf("placement %d: %v, %v; want %v", i, p, err, want[i])
		}
		i++
	}
	if i != len(want) {
		t.Errorf("read %d of %d", i, len(want))
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
		for p, err := range export.ReadPlacements(bytes.NewReader(data), "") {
			if err != nil {
				b.Fatal(err)
			}
			export.WriteFound(&out, "json", found(p, 0))
		}
	}
	b.ReportMetric(float64(k)*float64(b.N)/b.Elapsed().Seconds(), "placements/s")
}
