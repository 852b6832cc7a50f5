package export

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"mime"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// layouts returns the classes of n, or with all every solution class by
// class, as the command exports them.
func layouts(n int, all bool) []nqueens.Layout {
	var out []nqueens.Layout
	for l := range canonical.Classes(context.Background(), n, 1) {
		if !all {
			out = append(out, l)
			continue
		}
		for _, p := range canonical.Orbit(l.Placement) {
			m := l
			m.Placement = p
			out = append(out, m)
		}
	}
	return out
}

func write(t testing.TB, format Format, ls []nqueens.Layout) []byte {
	t.Helper()
	return writeBoards(t, format, ClassBoards, ls)
}

// writeBoards is write for layouts that are boards b.
func writeBoards(t testing.TB, format Format, b Boards, ls []nqueens.Layout) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := format.New(&buf, b)
	for _, l := range ls {
		if err := w.Write(l); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGolden(t *testing.T) {
	for _, format := range Formats {
		if format.Binary() {
			continue // TestParquetLayouts reads it back
		}
		for _, n := range []int{4, 6, 8} {
			for _, all := range []bool{false, true} {
				name := fmt.Sprintf("%s-%d", format, n)
				if all {
					name += "-all"
				}
				ls := layouts(n, all)
				if format.OneBoard() {
					if all {
						continue
					}
					ls = ls[len(ls)-1:]
				}
				boards := ClassBoards
				if all {
					boards = SolutionBoards
				}
				t.Run(name, func(t *testing.T) { golden(t, name, writeBoards(t, format, boards, ls)) })
			}
		}
	}
}

// golden compares got with testdata/name.golden, which -update rewrites.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./export -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s:\n%s", name, path, got)
	}
}

func TestLeetCodeExact(t *testing.T) {
	got := string(write(t, FormatLeetCode, layouts(4, true)))
	want := `[[".Q..","...Q","Q...","..Q."],["..Q.","Q...","...Q",".Q.."]]` + "\n"
	if got != want {
		t.Errorf("leetcode n=4 --all = %q, want %q", got, want)
	}
}

// jsonLayout is the documented shape of one JSON object.
type jsonLayout struct {
	N         int    `json:"n"`
	Class     int64  `json:"class"`
	Placement []int  `json:"placement"`
	Orbit     int    `json:"orbit"`
	Symmetry  string `json:"symmetry"`
}

func TestJSONParsesBack(t *testing.T) {
	for _, tt := range []struct {
		n           int
		all         bool
		want, class int
	}{{8, false, 12, 12}, {8, true, 92, 12}, {6, true, 4, 1}, {10, true, 724, 92}} {
		ls := layouts(tt.n, tt.all)
		var got []jsonLayout
		if err := json.Unmarshal(write(t, FormatJSON, ls), &got); err != nil {
			t.Fatal(err)
		}
		if len(got) != tt.want {
			t.Fatalf("n=%d all=%v: %d objects, want %d", tt.n, tt.all, len(got), tt.want)
		}
		seen := map[nqueens.Placement]bool{}
		for i, j := range got {
			p, err := nqueens.New(j.Placement)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Valid(); err != nil {
				t.Errorf("object %d: %v", i, err)
			}
			if seen[p] {
				t.Errorf("object %d: %v written twice", i, p)
			}
			seen[p] = true
			l := ls[i]
			if j.N != tt.n || p != l.Placement || j.Class != l.Class || j.Orbit != l.Symmetry.Orbit() || j.Symmetry != l.Symmetry.String() {
				t.Errorf("object %d = %+v, wrote %+v", i, j, l)
			}
		}
		if last := got[len(got)-1].Class; last != int64(tt.class) {
			t.Errorf("last class %d, want %d", last, tt.class)
		}
	}
}

func TestNDJSONLinesAreTheJSONObjects(t *testing.T) {
	for _, n := range []int{6, 8, 10} {
		ls := layouts(n, true)
		var array []jsonLayout
		if err := json.Unmarshal(write(t, FormatJSON, ls), &array); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(write(t, FormatNDJSON, ls)), "\n"), "\n")
		if len(lines) != len(array) {
			t.Fatalf("n=%d: %d lines, %d objects in the JSON array", n, len(lines), len(array))
		}
		for i, line := range lines {
			var j jsonLayout
			if err := json.Unmarshal([]byte(line), &j); err != nil {
				t.Fatalf("n=%d line %d: %v", n, i+1, err)
			}
			if !reflect.DeepEqual(j, array[i]) {
				t.Errorf("n=%d line %d = %+v, JSON has %+v", n, i+1, j, array[i])
			}
		}
	}
}

func TestCSVParses(t *testing.T) {
	ls := layouts(8, true)
	recs, err := csv.NewReader(bytes.NewReader(write(t, FormatCSV, ls))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(recs[0], ","); got != csvHeader {
		t.Fatalf("header %q", got)
	}
	if len(recs) != 93 {
		t.Fatalf("%d records, want 93", len(recs))
	}
	for i, rec := range recs[1:] {
		p, err := nqueens.Parse(rec[4])
		if err != nil || p != ls[i].Placement || p.Valid() != nil {
			t.Errorf("row %d: placement %q, %v", i+1, rec[4], err)
		}
		if rec[0] != "8" || rec[1] != strconv.FormatInt(ls[i].Class, 10) || rec[2] != strconv.Itoa(ls[i].Symmetry.Orbit()) || rec[3] != ls[i].Symmetry.String() {
			t.Errorf("row %d: %v", i+1, rec)
		}
	}
}

func TestLeetCodeParses(t *testing.T) {
	var boards [][]string
	if err := json.Unmarshal(write(t, FormatLeetCode, layouts(8, true)), &boards); err != nil {
		t.Fatal(err)
	}
	if len(boards) != 92 {
		t.Fatalf("%d boards", len(boards))
	}
	seen := map[string]bool{}
	for i, b := range boards {
		if len(b) != 8 {
			t.Fatalf("board %d has %d rows", i, len(b))
		}
		cols := make([]int, 8)
		for r, row := range b {
			if len(row) != 8 || strings.Count(row, "Q") != 1 || strings.Count(row, ".") != 7 {
				t.Fatalf("board %d row %d = %q", i, r, row)
			}
			cols[r] = strings.IndexByte(row, 'Q')
		}
		if err := nqueens.MustNew(cols...).Valid(); err != nil {
			t.Errorf("board %d: %v", i, err)
		}
		key := strings.Join(b, "/")
		if seen[key] {
			t.Errorf("board %d repeated", i)
		}
		seen[key] = true
	}
}

func TestEmpty(t *testing.T) {
	for format, want := range map[Format]string{FormatJSON: "[]\n", FormatNDJSON: "", FormatCSV: csvHeader + "\n", FormatLeetCode: "[]\n",
		FormatHTML: "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>N-Queens: no classes</title></head>\n<body><p>No classes to show.</p></body></html>\n"} {
		if got := string(write(t, format, nil)); got != want {
			t.Errorf("empty %s = %q, want %q", format, got, want)
		}
		if format == FormatHTML {
			want = strings.ReplaceAll(want, "classes", "solutions")
		}
		if got := string(writeBoards(t, format, SolutionBoards, nil)); got != want {
			t.Errorf("empty %s of solutions = %q, want %q", format, got, want)
		}
		var v any
		if (format == FormatJSON || format == FormatLeetCode) && json.Unmarshal([]byte(want), &v) != nil {
			t.Errorf("empty %s is not JSON", format)
		}
	}
}

func TestUnknownFormat(t *testing.T) {
	_, err := ParseFormat("xml", Formats)
	if err == nil || !strings.Contains(err.Error(), `"xml"`) || !strings.Contains(err.Error(), "must be one of json, ndjson, csv, leetcode, grid, svg, html") {
		t.Errorf("ParseFormat(xml) error = %v", err)
	}
	for _, f := range CompletionFormats {
		if got, err := ParseFormat(strings.ToUpper(f.String()), CompletionFormats); got != f || err != nil {
			t.Errorf("ParseFormat(%q) = %v, %v", strings.ToUpper(f.String()), got, err)
		}
	}
	if _, err := ParseFormat("dataset", Formats); err == nil {
		t.Error("dataset parses as a format of layouts")
	}
}

// TestMediaTypes holds the media type of every format, as a server names
// it in Content-Type: each a type that parses, none left out (a format
// added without one fails here), none for a value that is no format.
func TestMediaTypes(t *testing.T) {
	want := map[Format]string{
		FormatText:     "text/plain; charset=utf-8",
		FormatJSON:     "application/json",
		FormatNDJSON:   "application/x-ndjson",
		FormatCSV:      "text/csv; charset=utf-8",
		FormatLeetCode: "application/json",
		FormatGrid:     "text/plain; charset=utf-8",
		FormatSVG:      "image/svg+xml",
		FormatHTML:     "text/html; charset=utf-8",
		FormatDataset:  "application/x-ndjson",
		FormatParquet:  "application/vnd.apache.parquet",
	}
	formats := 0
	for f := Format(1); !strings.HasPrefix(f.String(), "Format("); f++ {
		formats++
		got := f.MediaType()
		if got != want[f] {
			t.Errorf("%s: media type %q, want %q", f, got, want[f])
		}
		if _, _, err := mime.ParseMediaType(got); err != nil {
			t.Errorf("%s: media type %q: %v", f, got, err)
		}
	}
	if formats != len(want) {
		t.Errorf("%d formats, %d media types held here", formats, len(want))
	}
	for _, f := range []Format{0, Format(formats + 1)} {
		if got := f.MediaType(); got != "" {
			t.Errorf("%v: media type %q, want none", f, got)
		}
	}
}

// TestFormatExtension checks that the extension each format of each use
// names its files with is read back as that format, as the default or
// named: the name an -o without an extension is advised to take.
func TestFormatExtension(t *testing.T) {
	uses := [][]Format{Formats, CompletionFormats, SolutionFormats, PuzzleFormats}
	for _, allowed := range uses {
		for _, f := range allowed {
			ext := f.Extension()
			if ext == "" || !KnownExtension(ext) {
				t.Errorf("%s: extension %q", f, ext)
				continue
			}
			for _, name := range []string{"", f.String()} {
				if got, err := OutputFormat(name, "out"+ext, allowed, f); err != nil || got != f {
					t.Errorf("OutputFormat(%q, %q, %v, %s) = %v, %v", name, "out"+ext, allowed, f, got, err)
				}
			}
		}
	}
	if ext := Format(0).Extension(); ext != "" {
		t.Errorf("the zero Format's extension is %q", ext)
	}
}

// TestOutputFormat checks the format an output gets from --format and the
// file's name: the name wins, the extension decides without one, and a
// contradiction is refused in words that say how to agree.
func TestOutputFormat(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		allowed    []Format
		def        Format
		want       Format
		err        string
	}{
		{"", "", Formats, FormatJSON, FormatJSON, ""},
		{"", "-", Formats, FormatJSON, FormatJSON, ""},
		{"", "q.csv", Formats, FormatJSON, FormatCSV, ""},
		{"", "Q.CSV", Formats, FormatJSON, FormatCSV, ""},
		{"", "q.jsonl", Formats, FormatJSON, FormatNDJSON, ""},
		{"", "q.ndjson", Formats, FormatJSON, FormatNDJSON, ""},
		{"", "q.json", Formats, FormatJSON, FormatJSON, ""},
		{"", "q.svg", Formats, FormatJSON, FormatSVG, ""},
		{"", "q.html", Formats, FormatJSON, FormatHTML, ""},
		{"", "q.htm", Formats, FormatJSON, FormatHTML, ""},
		{"", "q.txt", Formats, FormatJSON, FormatGrid, ""},
		{"", "q.txt", CompletionFormats, FormatText, FormatText, ""},
		{"", "q.dat", Formats, FormatJSON, FormatJSON, ""},
		{"", "dir.csv/q", Formats, FormatJSON, FormatJSON, ""},
		{"", "p.jsonl", PuzzleFormats, FormatText, FormatNDJSON, ""},
		{"dataset", "p.jsonl", PuzzleFormats, FormatText, FormatDataset, ""},
		{"jsonl", "", Formats, FormatJSON, FormatNDJSON, ""},
		{"JSONL", "q.ndjson", Formats, FormatJSON, FormatNDJSON, ""},
		{"csv", "q.dat", Formats, FormatJSON, FormatCSV, ""},
		{"leetcode", "q.json", Formats, FormatJSON, FormatLeetCode, ""},
		{"leetcode", "q.txt", Formats, FormatJSON, FormatLeetCode, ""},
		{"csv", "q.json", Formats, FormatJSON, 0, "--format csv writes no .json file: name the file q.csv, or leave out --format"},
		{"json", "out/q.svg", Formats, FormatJSON, 0, "--format json writes no .svg file: name the file out/q.json, or leave out --format"},
		{"", "q.svg", PuzzleFormats, FormatText, 0, "a .svg file is none of the formats here (text, json, ndjson, csv, dataset, parquet): give --format, or another file name"},
		{"xml", "q.json", Formats, FormatJSON, 0, `unknown format "xml"`},
		{"", "q.parquet", Formats, FormatJSON, FormatParquet, ""},
		{"", "Q.PARQUET", PuzzleFormats, FormatText, FormatParquet, ""},
		{"parquet", "q.parquet", Formats, FormatJSON, FormatParquet, ""},
		{"parquet", "", PuzzleFormats, FormatText, FormatParquet, ""},
		{"ndjson", "q.parquet", Formats, FormatJSON, 0, "--format ndjson writes no .parquet file: name the file q.ndjson, or leave out --format"},
		{"parquet", "q.csv", Formats, FormatJSON, 0, "--format parquet writes no .csv file: name the file q.parquet, or leave out --format"},
		{"", "q.parquet", CompletionFormats, FormatText, 0, "a .parquet file is none of the formats here (text, json, ndjson, csv, leetcode, grid, svg, html): give --format, or another file name"},
		{"parquet", "", SolutionFormats, FormatText, 0, `unknown format "parquet"`},
	} {
		got, err := OutputFormat(tc.name, tc.path, tc.allowed, tc.def)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("OutputFormat(%q, %q) error = %v, want %q", tc.name, tc.path, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("OutputFormat(%q, %q) = %v, %v; want %v", tc.name, tc.path, got, err, tc.want)
		}
	}
}

// TestCheck checks the limits of the formats that draw boards.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		f    Format
		n    int
		want string
	}{
		{FormatHTML, maxHTMLN, ""},
		{FormatHTML, maxHTMLN + 1, "format html draws boards up to n=14, not n=15: use csv or ndjson"},
		{FormatGrid, maxDrawN, ""},
		{FormatGrid, maxDrawN + 1, "format grid draws n*n squares, so it stops at n = 1000; use text, json, ndjson or csv for n = 1001"},
		{FormatSVG, maxDrawN + 1, "format svg draws n*n squares"},
		{FormatLeetCode, maxDrawN + 1, "format leetcode draws n*n squares"},
		{FormatText, 10_000_000, ""},
		{FormatCSV, 10_000_000, ""},
	} {
		err := tc.f.Check(tc.n)
		if (tc.want == "") != (err == nil) || err != nil && !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%v.Check(%d) = %v, want %q", tc.f, tc.n, err, tc.want)
		}
	}
}

// failWriter accepts limit bytes, then fails.
type failWriter struct{ limit int }

var errFull = errors.New("disk full")

func (f *failWriter) Write(p []byte) (int, error) {
	if len(p) > f.limit {
		n := f.limit
		f.limit = 0
		return n, errFull
	}
	f.limit -= len(p)
	return len(p), nil
}

func TestWriteErrorsReported(t *testing.T) {
	ls := layouts(12, false) // 1787 layouts: well past the 64 KiB buffer
	for _, format := range Formats {
		if format.OneBoard() {
			continue // TestSVG
		}
		for _, limit := range []int{0, 100, 70000} {
			if limit >= len(write(t, format, ls)) {
				continue // parquet: 1787 layouts take 17 kB
			}
			w := format.New(&failWriter{limit: limit}, ClassBoards)
			var werr error
			for _, l := range ls {
				if werr = w.Write(l); werr != nil {
					break
				}
			}
			cerr := w.Close()
			if !errors.Is(cerr, errFull) {
				t.Errorf("%s, fail after %d bytes: Close = %v, Write = %v; want %v", format, limit, cerr, werr, errFull)
			}
		}
	}
}

func FuzzJSONRoundTrip(f *testing.F) {
	f.Add([]byte{1, 3, 0, 2}, int64(1), uint8(2))
	f.Add([]byte{0}, int64(7), uint8(3))
	f.Fuzz(func(t *testing.T, cols []byte, class int64, sym uint8) {
		ints := make([]int, len(cols))
		for i, c := range cols {
			ints[i] = int(c)
		}
		p, err := nqueens.New(ints)
		if err != nil || sym > uint8(nqueens.SymFull) {
			t.Skip()
		}
		l := nqueens.Layout{Class: class, Placement: p, Symmetry: nqueens.Symmetry(sym)}
		var got []jsonLayout
		if err := json.Unmarshal(write(t, FormatJSON, []nqueens.Layout{l, l}), &got); err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || !slices.Equal(got[0].Placement, ints) || got[0].Class != class ||
			got[0].Symmetry != l.Symmetry.String() || got[0].Orbit != l.Symmetry.Orbit() || got[0].N != len(ints) {
			t.Fatalf("wrote %+v, read %+v", l, got)
		}
	})
}

func ExampleFormat_New_leetcode() {
	w := FormatLeetCode.New(os.Stdout, ClassBoards)
	for _, cols := range [][]int{{1, 3, 0, 2}, {2, 0, 3, 1}} {
		w.Write(nqueens.Layout{Class: 1, Placement: nqueens.MustNew(cols...), Symmetry: nqueens.SymRot90})
	}
	if err := w.Close(); err != nil {
		fmt.Println(err)
	}
	// Output: [[".Q..","...Q","Q...","..Q."],["..Q.","Q...","...Q",".Q.."]]
}

func ExampleFormat_New_csv() {
	w := FormatCSV.New(os.Stdout, ClassBoards)
	w.Write(nqueens.Layout{Class: 1, Placement: nqueens.MustNew(1, 3, 5, 0, 2, 4), Symmetry: nqueens.SymRot180})
	if err := w.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// n,class,orbit,symmetry,placement
	// 6,1,4,rot180,1 3 5 0 2 4
}

func BenchmarkCSV(b *testing.B) {
	l := nqueens.Layout{Class: 1846955, Placement: nqueens.MustNew(15, 13, 11, 9, 7, 5, 3, 1, 14, 12, 10, 8, 6, 4, 2, 0), Symmetry: nqueens.SymNone}
	w := newCSV(discard{})
	for b.Loop() {
		w.Write(l)
	}
	w.Close()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "layouts/s")
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func ExampleFormat_WriteFound() {
	p := nqueens.MustNew(2, 0, 3, 1)
	id := canonical.Identify(p)
	f := Found{Placement: p, Canonical: id.Canonical, Symmetry: id.Symmetry, Transform: id.Transform.String(), Class: 1}
	FormatText.WriteFound(os.Stdout, f)
	FormatJSON.WriteFound(os.Stdout, f)
	// Output:
	// n=4 2 0 3 1: class 1, canonical 1 3 0 2, orbit 2 (symmetry rot90), transform mirror
	// {"n":4,"placement":[2,0,3,1],"valid":true,"canonical":[1,3,0,2],"class":1,"orbit":2,"symmetry":"rot90","transform":"mirror"}
}

func ExampleWriteAll() {
	layouts := func(yield func(nqueens.Layout, error) bool) {
		for i, cols := range [][]int{{1, 3, 0, 2}, {2, 0, 3, 1}} {
			if !yield(nqueens.Layout{Class: int64(i + 1), Placement: nqueens.MustNew(cols...), Symmetry: nqueens.SymRot90}, nil) {
				return
			}
		}
	}
	written, err := WriteAll(context.Background(), newNDJSON(os.Stdout), layouts, nil)
	fmt.Println(written, err)
	// Output:
	// {"n":4,"class":1,"placement":[1,3,0,2],"orbit":2,"symmetry":"rot90"}
	// {"n":4,"class":2,"placement":[2,0,3,1],"orbit":2,"symmetry":"rot90"}
	// 2 <nil>
}

// TestWriteAllStopsAtAnError checks that WriteAll returns the error a
// layout brings, with the count written before it, and reports progress
// every ProgressEvery layouts.
func TestWriteAllStopsAtAnError(t *testing.T) {
	bad := errors.New("bad layout")
	l := nqueens.Layout{Class: 1, Placement: nqueens.MustNew(1, 3, 0, 2), Symmetry: nqueens.SymRot90}
	layouts := func(yield func(nqueens.Layout, error) bool) {
		for range 2*ProgressEvery + 5 {
			if !yield(l, nil) {
				return
			}
		}
		yield(nqueens.Layout{}, bad)
	}
	var seen []uint64
	written, err := WriteAll(context.Background(), newCSV(io.Discard), layouts, func(k uint64) { seen = append(seen, k) })
	if !errors.Is(err, bad) || written != 2*ProgressEvery+5 {
		t.Errorf("WriteAll = %d, %v; want %d, %v", written, err, 2*ProgressEvery+5, bad)
	}
	if !slices.Equal(seen, []uint64{ProgressEvery, 2 * ProgressEvery}) {
		t.Errorf("progress at %v", seen)
	}
}

// TestWriteAllLeavesACutExportCut checks that an export cancelled part way
// does not end as a whole document: the JSON array is left open.
func TestWriteAllLeavesACutExportCut(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	l := nqueens.Layout{Class: 1, Placement: nqueens.MustNew(1, 3, 0, 2), Symmetry: nqueens.SymRot90}
	layouts := func(yield func(nqueens.Layout, error) bool) {
		yield(l, nil)
		cancel() // and end, as an iterator that stops on cancellation does
	}
	var buf bytes.Buffer
	w := newJSON(&buf)
	written, err := WriteAll(ctx, w, layouts, nil)
	if !errors.Is(err, context.Canceled) || written != 1 {
		t.Fatalf("WriteAll = %d, %v; want 1, %v", written, err, context.Canceled)
	}
	if strings.Contains(buf.String(), "]") {
		t.Errorf("a cancelled export was ended as a whole one: %q", buf.String())
	}
}
