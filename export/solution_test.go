package export_test

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
	"github.com/nqueens/nqueens/export"
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
	for _, format := range export.SolutionFormats {
		for _, n := range []int{1, 8} {
			name := "solution-" + format + "-" + strconv.Itoa(n)
			t.Run(name, func(t *testing.T) {
				var buf bytes.Buffer
				if err := export.WriteSolution(&buf, format, construct(n)); err != nil {
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
	for _, format := range []string{"json", "NDJSON"} {
		var buf bytes.Buffer
		if err := export.WriteSolution(&buf, format, cols); err != nil {
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
	if err := export.WriteSolution(&buf, "csv", cols); err != nil {
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
	if err := export.WriteSolution(&buf, "text", cols); err != nil || buf.String() != strings.Join(text, " ")+"\n" {
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
	big := construct(export.MaxDrawN + 1)
	for _, tc := range []struct {
		format string
		cols   []int32
		want   string
	}{
		{"xml", []int32{0}, `unknown format "xml": must be one of text, json, ndjson, csv, leetcode, grid, svg`},
		{"text", nil, "no columns"},
		{"grid", big, "format grid draws n*n squares, up to n=1000, not n=1001"},
		{"LeetCode", big, "format leetcode draws"},
		{"svg", big, "format svg draws"},
	} {
		err := export.WriteSolution(&bytes.Buffer{}, tc.format, tc.cols)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("WriteSolution(%s, n=%d) = %v, want %q", tc.format, len(tc.cols), err, tc.want)
		}
	}
	if err := export.WriteSolution(&bytes.Buffer{}, "grid", construct(export.MaxDrawN)); err != nil {
		t.Errorf("grid of n=%d: %v", export.MaxDrawN, err)
	}
	for _, format := range export.SolutionFormats {
		cols := construct(20_000) // past the 64 KiB buffer
		if export.Draws(format) {
			cols = construct(export.MaxDrawN)
		}
		var all bytes.Buffer
		export.WriteSolution(&all, format, cols)
		for _, limit := range []int{0, 100, min(70000, all.Len()-1), all.Len() - 1} {
			if err := export.WriteSolution(&failWriter{limit: limit}, format, cols); !errors.Is(err, errFull) {
				t.Errorf("%s, fail after %d bytes: %v, want %v", format, limit, err, errFull)
			}
		}
	}
}

func ExampleWriteSolution() {
	cols, _ := nqueens.Construct(4)
	for _, format := range []string{"text", "json", "csv", "leetcode", "grid"} {
		if err := export.WriteSolution(os.Stdout, format, cols); err != nil {
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
		if err := export.WriteSolution(discard{}, "ndjson", cols); err != nil {
			b.Fatal(err)
		}
	}
}

func ExampleSolutionFormat() {
	format, err := export.SolutionFormat("NDJSON")
	fmt.Println(format, err)
	_, err = export.SolutionFormat("xml")
	fmt.Println(err)
	// Output:
	// ndjson <nil>
	// unknown format "xml": must be one of text, json, ndjson, csv, leetcode, grid, svg
}

func ExampleDraws() {
	for _, format := range export.SolutionFormats {
		if export.Draws(format) {
			fmt.Printf("%s stops at n = %d\n", format, export.MaxDrawN)
		}
	}
	// Output:
	// leetcode stops at n = 1000
	// grid stops at n = 1000
	// svg stops at n = 1000
}
