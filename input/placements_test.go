package input_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/enumerate"
	"github.com/nqueens/nqueens/input"
)

// TestReadPlacementsForms reads one board in every form ReadPlacements
// takes, and refuses bad lines by their number.
func TestReadPlacementsForms(t *testing.T) {
	want := nqueens.MustNew(4, 6, 1, 5, 2, 0, 7, 3)
	in := "4 6 1 5 2 0 7 3\n\n4,6,1,5,2,0,7,3\n  [4, 6, 1, 5, 2, 0, 7, 3]  \n" +
		`{"n":8,"class":9,"placement":[4,6,1,5,2,0,7,3],"orbit":8,"symmetry":"none"}` + "\n"
	k := 0
	for p, err := range input.ReadPlacements(strings.NewReader(in), "") {
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
	for p, err := range input.ReadPlacements(strings.NewReader(grids), "leetcode") {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, p.String())
	}
	if strings.Join(got, "|") != "1 3 0 2|2 0 3 1|1 3 0 2" {
		t.Errorf("leetcode boards read as %q", got)
	}
	for _, tt := range []struct{ in, format, want string }{
		{"0 1\n1 x\n", "", `line 2: "x" (row 1) is not a column`},
		{"0,,1\n", "", "line 1: a comma with no column before or after it"},
		{"0 2 1 1\n", "", "line 1: column 1 is in rows 2 and 3"},
		{`{"n":5,"placement":[1,3,0,2]}`, "", `line 1: "n" is 5 but "placement" has 4 columns`},
		{`{"n":4}`, "", `line 1: the object has no "placement"`},
		{`{"n":4`, "", "line 1: not a JSON object of an export"},
		{`[".Q..","...Q","Q...",".Q.."]`, "leetcode", "value 1: column 1 is in rows 0 and 3"},
		{`[".Q.","...Q","Q...","..Q."]`, "leetcode", "value 1: grid: row 0"},
		{`[1, 2]`, "leetcode", "value 1: want a board"},
		{`[".Q..","...Q"`, "leetcode", "value 1: not JSON: the input ends inside a board"},
		{`[["..Q.","Q...","...Q",".Q.."] [".Q.."]]`, "leetcode", "value 1: not JSON: want ',' or ']' after board 1"},
		{`[["..Q.","Q...","...Q",".Q.."],[".Q.","...Q"]]`, "leetcode", "value 1, board 2: grid: row 0"},
		{`["` + strings.Repeat(".", 1<<20) + `"]`, "leetcode", "value 1: a row is longer than 32 squares"},
		{"[" + strings.Repeat(`"Q",`, 40) + `"Q"]`, "leetcode", "value 1: a board has at most 32 rows"},
		{`["\u0051"]`, "leetcode", "with no escapes"},
		{".Q..\n...Q\nQ...\n.Q..\n", "grids", "line 1: column 1 is in rows 0 and 3"},
		{".Q..\n...Q\n1 3 0 2\n", "grids", `line 3: "1 3 0 2" is a board a line, not a row of a grid (format columns reads it)`},
		// The square at fault is named, however long the row.
		{"_ Q _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ X _ _\n", "grids", `line 1: "X" (column 27) is not a square of a grid: a row holds Q, . and _ alone, and a blank line ends a board`},
		{".Q..\n.x..\n", "grids", `line 2: "x" (column 1) is not a square of a grid`},
		// Input of another format says which.
		{".Q..\n...Q\nQ...\n..Q.\n", "", `line 1: ".Q.." is a row of a grid, not a board: a line holds one board (format grids reads it)`},
		{"_ Q _ _\n", "", `line 1: "_ Q _ _" is a row of a grid, not a board: a line holds one board (format grids reads it)`},
		{`[[".Q..","...Q","Q...","..Q."]]`, "", `line 1: "[[\".Q..\",\"...Q\",\"Q...\",\"..Q.\"]]" is LeetCode's JSON of boards, not a board a line (format leetcode reads it)`},
		{`{"n":4,"class":1,"placement":[1,3,0,2],"orbit":2,"symmetry":"rot90"}`, "grids", `line 1: "{\"n\":4,\"class\":1,\"placement\":[1,3,0,2],\""... (68 bytes) is a board a line, not a row of a grid (format columns reads it)`},
		{`[".Q..","...Q","Q...","..Q."]`, "grids", `line 1: "[\".Q..\",\"...Q\",\"Q...\",\"..Q.\"]" is LeetCode's JSON of boards, not a row of a grid (format leetcode reads it)`},
		{".Q..\n...Q\nQ...\n..Q.\n", "leetcode", `value 1: "." begins a row of a grid, not LeetCode's JSON of boards (format grids reads it)`},
		{"1 3 0 2\n", "leetcode", `value 1: "1" begins a board a line, not LeetCode's JSON of boards (format columns reads it)`},
		{strings.Repeat("Q\n", 33), "grids", "line 33: a board has at most 32 rows, and the one from line 1 has more"},
		{strings.Repeat("1 ", 40000), "", "longer than"},
	} {
		var last error
		for _, err := range input.ReadPlacements(strings.NewReader(tt.in), tt.format) {
			last = err
		}
		if last == nil || !strings.Contains(last.Error(), tt.want) {
			t.Errorf("ReadPlacements(%.40q, %q) ends with %v, want %q", tt.in, tt.format, last, tt.want)
		}
		// A FormatError names the format that reads the input, for the
		// command to name its flag.
		var fe *input.FormatError
		if k := strings.Index(tt.want, "(format "); k >= 0 && (!errors.As(last, &fe) || !strings.HasPrefix(tt.want[k:], "(format "+fe.Format+" ")) {
			t.Errorf("ReadPlacements(%.40q, %q): %v is no FormatError of the format it names", tt.in, tt.format, last)
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
	for p, err := range input.ReadPlacements(&in, "") {
		if err != nil || p != want[i] {
			t.Fatalf("placement %d: %v, %v; want %v", i, p, err, want[i])
		}
		i++
	}
	if i != len(want) {
		t.Errorf("read %d of %d", i, len(want))
	}
}

// ReadPlacements reads placements in the forms people and our exports
// write them.
func ExampleReadPlacements() {
	in := "4 6 1 5 2 0 7 3\n[1, 3, 0, 2]\n{\"n\":4,\"class\":1,\"placement\":[2,0,3,1],\"orbit\":2,\"symmetry\":\"rot90\"}\n"
	for p, err := range input.ReadPlacements(strings.NewReader(in), "") {
		fmt.Println(p, err)
	}
	// Output:
	// 4 6 1 5 2 0 7 3 <nil>
	// 1 3 0 2 <nil>
	// 2 0 3 1 <nil>
}

// endless is a reader of the same text over and over, without end.
type endless struct {
	text string
	off  int
}

func (e *endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		k := copy(p[n:], e.text[e.off:])
		n += k
		e.off = (e.off + k) % len(e.text)
	}
	return n, nil
}

// TestReadGridsStreams reads boards from an array of LeetCode boards that
// never ends: the boards come one at a time, so the first ones arrive and
// the reading stops when the caller stops, in memory bounded by one board;
// and a row that never ends is refused once it passes 32 squares.
func TestReadGridsStreams(t *testing.T) {
	in := io.MultiReader(strings.NewReader("["), &endless{text: `["..Q.","Q...","...Q",".Q.."],`})
	k := 0
	for p, err := range input.ReadPlacements(in, "leetcode") {
		if err != nil || p.String() != "2 0 3 1" {
			t.Fatalf("board %d: %v, %v", k, p, err)
		}
		if k++; k == 100_000 {
			break
		}
	}
	in = io.MultiReader(strings.NewReader(`["`), &endless{text: "Q"})
	for _, err := range input.ReadPlacements(in, "leetcode") {
		if err == nil || !strings.Contains(err.Error(), "a row is longer than 32 squares") {
			t.Errorf("an endless row: %v", err)
		}
	}
}
