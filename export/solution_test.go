package export

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
)

// construct returns nqueens.Construct's solution of n, which has one for
// every n the tests use (every n but 2 and 3); it panics, as
// nqueens.MustNew does, if there is none.
func construct(n int) []int32 {
	cols, err := nqueens.Construct(n)
	if err != nil {
		panic(err)
	}
	return cols
}

func TestSolutionGolden(t *testing.T) {
	for _, format := range SolutionFormats {
		for _, n := range []int{1, 8} {
			name := "solution-" + format.String() + "-" + strconv.Itoa(n)
			t.Run(name, func(t *testing.T) {
				var buf bytes.Buffer
				if err := format.WriteSolution(&buf, construct(n)); err != nil {
					t.Fatal(err)
				}
				golden(t, name, buf.Bytes())
			})
		}
	}
}

// TestSolutionObjects checks that a solution's JSON and CSV are the class
// exports' minus the class fields, for a solution long enough to be
// written in pieces.
func TestSolutionObjects(t *testing.T) {
	cols := construct(100_003)
	want := make([]int, len(cols))
	var text []string
	for r, c := range cols {
		want[r] = int(c)
		text = append(text, strconv.Itoa(int(c)))
	}
	for _, format := range []Format{FormatJSON, FormatNDJSON} {
		var buf bytes.Buffer
		if err := format.WriteSolution(&buf, cols); err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		dec := json.NewDecoder(&buf)
		dec.UseNumber()
		if err := dec.Decode(&got); err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got["n"] != json.Number("100003") {
			t.Errorf("%s: object has %v", format, keys(got))
		}
		var p jsonLayout
		b, _ := json.Marshal(got)
		if err := json.Unmarshal(b, &p); err != nil || !slices.Equal(p.Placement, want) {
			t.Errorf("%s: placement does not read back: %v", format, err)
		}
	}
	var buf bytes.Buffer
	if err := FormatCSV.WriteSolution(&buf, cols); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || strings.Join(rows[0], ",") != "n,placement" || rows[1][0] != "100003" || rows[1][1] != strings.Join(text, " ") {
		t.Errorf("csv: %d rows, header %v", len(rows), rows[0])
	}
	buf.Reset()
	if err := FormatText.WriteSolution(&buf, cols); err != nil || buf.String() != strings.Join(text, " ")+"\n" {
		t.Errorf("text: %v", err)
	}
}

func keys(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func TestSolutionRefuses(t *testing.T) {
	big := construct(maxDrawN + 1)
	for _, tc := range []struct {
		format Format
		cols   []int32
		want   string
	}{
		{FormatText, nil, "no columns"},
		{FormatGrid, big, "format grid draws n*n squares, so it stops at n = 1000; use text, json, ndjson or csv for n = 1001"},
		{FormatLeetCode, big, "format leetcode draws"},
		{FormatSVG, big, "format svg draws"},
	} {
		err := tc.format.WriteSolution(&bytes.Buffer{}, tc.cols)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("WriteSolution(%s, n=%d) = %v, want %q", tc.format, len(tc.cols), err, tc.want)
		}
	}
	if err := FormatGrid.WriteSolution(&bytes.Buffer{}, construct(maxDrawN)); err != nil {
		t.Errorf("grid of n=%d: %v", maxDrawN, err)
	}
	for _, format := range SolutionFormats {
		cols := construct(20_000) // past the 64 KiB buffer
		if format.Draws() {
			cols = construct(maxDrawN)
		}
		var all bytes.Buffer
		format.WriteSolution(&all, cols)
		for _, limit := range []int{0, 100, min(70000, all.Len()-1), all.Len() - 1} {
			if err := format.WriteSolution(&failWriter{limit: limit}, cols); !errors.Is(err, errFull) {
				t.Errorf("%s, fail after %d bytes: %v, want %v", format, limit, err, errFull)
			}
		}
	}
}

func ExampleFormat_WriteSolution() {
	cols, _ := nqueens.Construct(4)
	for _, format := range []Format{FormatText, FormatJSON, FormatCSV, FormatLeetCode, FormatGrid} {
		if err := format.WriteSolution(os.Stdout, cols); err != nil {
			panic(err)
		}
	}
	// Output:
	// 1 3 0 2
	// {"n":4,"placement":[1,3,0,2]}
	// n,placement
	// 4,1 3 0 2
	// [".Q..","...Q","Q...","..Q."]
	// .Q..
	// ...Q
	// Q...
	// ..Q.
}

func BenchmarkSolutionNDJSON(b *testing.B) {
	cols := construct(1_000_000)
	for b.Loop() {
		if err := FormatNDJSON.WriteSolution(discard{}, cols); err != nil {
			b.Fatal(err)
		}
	}
}

func ExampleParseFormat() {
	format, err := ParseFormat("NDJSON", SolutionFormats)
	fmt.Println(format, err)
	_, err = ParseFormat("xml", SolutionFormats)
	fmt.Println(err)
	// Output:
	// ndjson <nil>
	// unknown format "xml": must be one of text, json, ndjson, csv, leetcode, grid, svg
}

func ExampleFormat_Draws() {
	for _, format := range SolutionFormats {
		if format.Draws() {
			fmt.Printf("%s stops at n = %d\n", format, maxDrawN)
		}
	}
	// Output:
	// leetcode stops at n = 1000
	// grid stops at n = 1000
	// svg stops at n = 1000
}
