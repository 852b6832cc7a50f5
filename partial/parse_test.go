package partial

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/enumerate"
	"github.com/nqueens/nqueens/internal/testutil"
)

func TestParse(t *testing.T) {
	testutil.CheckParse(t, "Parse", Parse, []testutil.ParseCase{
		{In: "1 _ 5 _ _ _ _ 3", Want: "1 _ 5 _ _ _ _ 3"},
		{In: "1,.,5,.,.,.,.,3", Want: "1 _ 5 _ _ _ _ 3"},
		{In: "[1, _, 5, _, _, _, _, 3]", Want: "1 _ 5 _ _ _ _ 3"},
		{In: "  _ _ _ _ \n", Want: "_ _ _ _"},
		{In: "0", Want: "0"},
		{In: "_", Want: "_"},
		{In: "Q", Want: "0"},
		{In: "_ Q _ _\n_ _ _ Q\n_ _ _ _\n_ _ _ _", Want: "1 3 _ _"},
		{In: ".Q../...Q/..../....", Want: "1 3 _ _"},
		{In: "_ Q _ _ / _ _ _ Q / _ _ _ _ / _ _ _ _", Want: "1 3 _ _"},
		{In: "_Q _ _\r\n___Q\r\n....\r\n_ . . _\r\n", Want: "1 3 _ _"},
		{In: "", WantErr: "empty board"},
		{In: "1 _ 9 _ _ _ _ 3", WantErr: "row 2: column 9 is off the board of 8: want 0..7"},
		{In: "1 _ x _", WantErr: `row 2: "x" is not a column: want 0..3, or _ or . for an empty row`},
		{In: "1 _ -1 _", WantErr: `row 2: "-1" is not a column`},
		{In: "1 _ +1 _", WantErr: `row 2: "+1" is not a column`},
		{In: strings.Repeat("_ ", 33), WantErr: "33 rows: n must be between 1 and 32, got 33"},
		{In: "_ Q _ _ / _ _ Q Q / _ _ _ _ / _ _ _ _", WantErr: "row 1: two queens in one row: a row holds at most one"},
		{In: "_ Q _ _ / _ _ Q / _ _ _ _ / _ _ _ _", WantErr: "row 1: 3 squares in a grid of 4 rows: a board of n has n rows of n squares"},
		{In: "_ Q _ / _ _ _", WantErr: "row 0: 3 squares in a grid of 2 rows"},
		{In: "_ Q _ x / _ _ _ _ / _ _ _ _ / _ _ _ _", WantErr: `row 0: "x" is not a square: want Q, _ or .`},
		{In: "_ Q _ _", WantErr: "row 0: 4 squares in a grid of 1 rows"},
		{In: "\xff\xfe", WantErr: "not UTF-8"},
	})
}

func TestBoardForms(t *testing.T) {
	b, err := Parse("1 _ 5 _ _ _ _ 3")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{b.String(), b.Grid(), strings.ReplaceAll(strings.TrimSpace(b.Grid()), "\n", " / ")} {
		c, err := Parse(s)
		if err != nil || c != b {
			t.Errorf("Parse(%q) = %q, %v; want %q", s, c, err, b)
		}
	}
	if got := b.Given(); len(got) != 3 || got[1] != [2]int{2, 5} {
		t.Errorf("Given = %v", got)
	}
	var ae *AttackError
	if err := b.With(1, 4).Check(); !errors.As(err, &ae) || err.Error() != "the queens at row 1 column 4 and row 2 column 5 attack each other" {
		t.Errorf("Check: %v", err)
	}
	if err := b.Check(); err != nil {
		t.Error(err)
	}
}

func TestBoards(t *testing.T) {
	in := "1 _ 5 _ _ _ _ 3\n\n_ Q _ _\n_ _ _ Q\n_ _ _ _\n_ _ _ _\n_ _ _ _\n.Q../..../..../....\n_ Q _ _\n_ Q Q _\n_ _ _ _\n_ _ _ _\n\n1 x\n0 _ _ _"
	type got struct {
		line int
		s    string
	}
	var all []got
	for in, err := range Boards(strings.NewReader(in)) {
		if err != nil {
			all = append(all, got{0, err.Error()})
			continue
		}
		all = append(all, got{in.Line, in.Board.String()})
	}
	want := []got{
		{1, "1 _ 5 _ _ _ _ 3"},
		{0, "line 3: 4 squares in a grid of 5 rows: a board of n has n rows of n squares"},
		{8, "1 _ _ _"},
		{0, "line 10: two queens in one row: a row holds at most one"},
		{0, `line 14: row 1: "x" is not a column: want 0..1, or _ or . for an empty row`},
		{15, "0 _ _ _"},
	}
	if len(all) != len(want) {
		t.Fatalf("got %v, want %v", all, want)
	}
	for i := range want {
		if all[i] != want[i] {
			t.Errorf("board %d: got %v, want %v", i, all[i], want[i])
		}
	}
	var pe *ParseError
	for _, err := range Boards(strings.NewReader(strings.Repeat("_", MaxLine+1))) {
		if !errors.As(err, &pe) || pe.Line != 1 {
			t.Errorf("long line: %v", err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"1 _ 5 _ _ _ _ 3", "_ Q _ _ / _ _ _ Q / _ _ _ _ / _ _ _ _", ".Q..\n...Q\n....\n....", "[0]", "Q", "_ _ _", "1,2,.,x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := Parse(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("Parse(%q): error of several lines: %v", s, err)
			}
			return
		}
		if b.N() < 1 || b.N() > 32 {
			t.Fatalf("Parse(%q): n=%d", s, b.N())
		}
		for _, form := range []string{b.String(), b.Grid()} {
			c, err := Parse(form)
			if err != nil || c != b {
				t.Fatalf("Parse(%q) = %q; its form %q reads back as %q, %v", s, b, form, c, err)
			}
		}
		if b.Check() == nil && b.N() <= 10 {
			k, want := CountCompletions(b).Completions, uint64(0)
			for p := range enumerate.Solutions(b.N()) {
				if b.Extends(p) {
					want++
				}
			}
			if k != want {
				t.Fatalf("%q: count %d, want %d (every solution of n)", b, k, want)
			}
		}
	})
}

// rowsForever is a reader of the grid row "_ _" over and over, without
// end, as `yes '_ _'` writes.
type rowsForever struct{ off int }

func (r *rowsForever) Read(p []byte) (int, error) {
	const row = "_ _\n"
	for i := range p {
		p[i] = row[r.off]
		r.off = (r.off + 1) % len(row)
	}
	return len(p), nil
}

// TestBoardsBoundsAGrid reads grid rows that never end: Boards says, at
// row 33, that a grid has at most 32 rows, instead of gathering rows until
// memory runs out; after a blank line, a grid is read again.
func TestBoardsBoundsAGrid(t *testing.T) {
	for in, err := range Boards(&rowsForever{}) {
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != 33 || !strings.Contains(err.Error(), "a grid has at most 32 rows, and the one from line 1 has more") {
			t.Errorf("endless grid rows: %+v, %v", in, err)
		}
		break
	}
	text := strings.Repeat("_ _ _ _\n", 40) + "\n.Q..\n...Q\nQ...\n....\n"
	var got []string
	for in, err := range Boards(strings.NewReader(text)) {
		if err != nil {
			got = append(got, err.Error())
		} else {
			got = append(got, fmt.Sprintf("line %d: %v", in.Line, in.Board))
		}
	}
	if len(got) != 2 || !strings.HasPrefix(got[0], "line 33: a grid has at most 32 rows") || !strings.HasPrefix(got[1], "line 42: ") {
		t.Errorf("boards %q", got)
	}
}
