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
		{In: "_ Q _ x / _ _ _ _ / _ _ _ _ / _ _ _ _", WantErr: `row 0: "x" is not a square: want Q for a queen, or _ or . for an empty square`},
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
	type got struct {
		line int
		s    string
	}
	read := func(in string, form Form) []got {
		var all []got
		for in, err := range Boards(strings.NewReader(in), form) {
			if err != nil {
				all = append(all, got{0, err.Error()})
				continue
			}
			all = append(all, got{in.Line, in.Board.String()})
		}
		return all
	}
	for _, tt := range []struct {
		name string
		form Form
		in   string
		want []got
	}{
		{"lines", Lines, "1 _ 5 _ _ _ _ 3\n\n_ _ _ _\n_ _ _ _\n.Q../..../..../....\n_ Q _ _\n1 x\n0 _ _ _", []got{
			{1, "1 _ 5 _ _ _ _ 3"},
			{3, "_ _ _ _"},
			{4, "_ _ _ _"},
			{5, "1 _ _ _"},
			{0, `line 6: "_ Q _ _" is a row of a grid, not a board: a line holds one board`},
			{0, `line 7: row 1: "x" is not a column: want 0..1, or _ or . for an empty row`},
			{8, "0 _ _ _"},
		}},
		{"grids", Grids, "_ Q _ _\n_ _ _ Q\n_ _ _ _\n_ _ _ _\n\n_ _ _ _\n_ _ _ _\n_ _ _ _\n_ _ _ _\n\n_ Q _ _\n_ _ _ Q\n_ _ _ _\n_ _ _ _\n_ _ _ _\n\n_ Q _ _\n_ Q Q _\n_ _ _ _\n_ _ _ _\n\n1 _ _ _\n\n.Q\n..", []got{
			{1, "1 3 _ _"},
			{6, "_ _ _ _"},
			{0, "line 11: 4 squares in a grid of 5 rows: a board of n has n rows of n squares"},
			{0, "line 18: two queens in one row: a row holds at most one"},
			{0, `line 22: "1 _ _ _" is not a row of a grid: a row of a grid holds Q, _ and . alone, and a blank line ends a grid`},
			{24, "1 _"},
		}},
	} {
		all := read(tt.in, tt.form)
		if len(all) != len(tt.want) {
			t.Fatalf("%s: got %v, want %v", tt.name, all, tt.want)
		}
		for i := range tt.want {
			if all[i] != tt.want[i] {
				t.Errorf("%s: board %d: got %v, want %v", tt.name, i, all[i], tt.want[i])
			}
		}
	}
	var pe *ParseError
	for _, err := range Boards(strings.NewReader(strings.Repeat("_", maxLine+1)), Lines) {
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

// TestBoardsBoundsAGrid reads grid rows that never end (--input grids): Boards says, at
// row 33, that a grid has at most 32 rows, instead of gathering rows until
// memory runs out; after a blank line, a grid is read again.
func TestBoardsBoundsAGrid(t *testing.T) {
	for in, err := range Boards(&rowsForever{}, Grids) {
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != 33 || !strings.Contains(err.Error(), "a grid has at most 32 rows, and the one from line 1 has more") {
			t.Errorf("endless grid rows: %+v, %v", in, err)
		}
		break
	}
	text := strings.Repeat("_ _ _ _\n", 40) + "\n.Q..\n...Q\nQ...\n....\n"
	var got []string
	for in, err := range Boards(strings.NewReader(text), Grids) {
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

// TestParseForm reads each form by the name String writes, in any case,
// and refuses another name, naming the forms.
func TestParseForm(t *testing.T) {
	for _, want := range []Form{Lines, Grids} {
		for _, name := range []string{want.String(), strings.ToUpper(want.String())} {
			if got, err := ParseForm(name); err != nil || got != want {
				t.Errorf("ParseForm(%q) = %v, %v; want %v", name, got, err, want)
			}
		}
	}
	if Lines.String() != "lines" || Grids.String() != "grids" {
		t.Errorf("the forms are named %q and %q", Lines, Grids)
	}
	if _, err := ParseForm("rows"); err == nil || !strings.Contains(err.Error(), "want lines (a board a line) or grids") {
		t.Errorf("ParseForm(rows): %v", err)
	}
}
