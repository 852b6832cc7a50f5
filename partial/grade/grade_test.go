package grade

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/partial"
)

// p8 is a puzzle of 8 with exactly one completion, 3 0 4 7 1 6 2 5: given
// queens at row 3 column 7, row 5 column 6 and row 6 column 2.
const p8 = "_ _ _ 7 _ 6 2 _"

// solution8 is its completion drawn as the dataset format draws it.
const solution8 = "_ _ _ Q _ _ _ _\nQ _ _ _ _ _ _ _\n_ _ _ _ Q _ _ _\n_ _ _ _ _ _ _ Q\n_ Q _ _ _ _ _ _\n_ _ _ _ _ _ Q _\n_ _ Q _ _ _ _ _\n_ _ _ _ _ Q _ _"

// rows8 is the completion as LeetCode 51 draws a board.
var rows8 = []string{"...Q....", "Q.......", "....Q...", ".......Q", ".Q......", "......Q.", "..Q.....", ".....Q.."}

func mustParse(t *testing.T, s string) partial.Board {
	t.Helper()
	b, err := partial.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCheck(t *testing.T) {
	many := "1 _ _ _ _ _ _ _" // a puzzle with many completions
	for _, tc := range []struct {
		name   string
		puzzle string
		answer any
		want   Verdict
	}{
		// Each form, read right.
		{"grid spaced", p8, solution8, Verdict{1, Grid, ""}},
		{"grid unspaced", p8, strings.Join(rows8, "\n"), Verdict{1, Grid, ""}},
		{"grid with /", p8, strings.Join(rows8, " / "), Verdict{1, Grid, ""}},
		{"grid with blank lines around", p8, "\n\n" + solution8 + "\n\n", Verdict{1, Grid, ""}},
		{"leetcode []string", p8, rows8, Verdict{1, LeetCode, ""}},
		{"leetcode JSON", p8, raw(rows8), Verdict{1, LeetCode, ""}},
		{"leetcode JSON, one board in an array", p8, raw([][]string{rows8}), Verdict{1, LeetCode, ""}},
		{"leetcode as text", p8, string(raw(rows8)), Verdict{1, LeetCode, ""}},
		{"leetcode as text in JSON", p8, raw(string(raw(rows8))), Verdict{1, LeetCode, ""}},
		{"leetcode as Python text", p8, "['" + strings.Join(rows8, "', '") + "']", Verdict{1, LeetCode, ""}},
		{"columns from 0, []int", p8, []int{3, 0, 4, 7, 1, 6, 2, 5}, Verdict{1, Columns0, ""}},
		{"columns from 1, []int", p8, []int{4, 1, 5, 8, 2, 7, 3, 6}, Verdict{1, Columns1, ""}},
		{"columns from 0, JSON", p8, json.RawMessage(`[3, 0, 4, 7, 1, 6, 2, 5]`), Verdict{1, Columns0, ""}},
		{"columns from 1, JSON", p8, json.RawMessage(`[4,1,5,8,2,7,3,6]`), Verdict{1, Columns1, ""}},
		{"columns from 0, text", p8, "3 0 4 7 1 6 2 5", Verdict{1, Columns0, ""}},
		{"columns from 1, text with commas", p8, "4,1,5,8,2,7,3,6", Verdict{1, Columns1, ""}},
		{"columns from 1, JSON text", p8, raw("[4, 1, 5, 8, 2, 7, 3, 6]"), Verdict{1, Columns1, ""}},
		{"grid in JSON", p8, raw(solution8), Verdict{1, Grid, ""}},
		// Any completion scores 1, of a puzzle with many.
		{"one completion of many", many, []int{1, 3, 5, 7, 2, 0, 6, 4}, Verdict{1, Columns0, ""}},
		{"another completion of many", many, "1 4 6 0 2 7 5 3", Verdict{1, Columns0, ""}},
		{"no given queen", "_ _ _ _", ".Q..\n...Q\nQ...\n..Q.", Verdict{1, Grid, ""}},
		// Columns with neither 0 nor n: the reading that keeps more givens.
		{"ambiguous, from 1 keeps more", p8, []int{4, 1, 5, 1, 2, 7, 3, 6}, Verdict{0, Columns1, "given queen at row 3 column 7 moved to column 0"}},
		{"ambiguous, a tie: from 0", p8, []int{1, 1, 1, 1, 1, 1, 1, 1}, Verdict{0, Columns0, "given queen at row 3 column 7 moved to column 1"}},
		// Each reason.
		{"shape: rows", p8, strings.Join(rows8[:7], "\n"), Verdict{0, Grid, "7 rows, want 8"}},
		{"shape: rows of columns", p8, []int{3, 0, 4, 7, 1, 6, 2}, Verdict{0, Columns0, "7 rows, want 8"}},
		{"shape: squares", p8, strings.Replace(strings.Join(rows8, "\n"), "..Q.....", "..Q....", 1), Verdict{0, Grid, "row 6 has 7 squares, want 8"}},
		{"too few queens", p8, strings.Replace(strings.Join(rows8, "\n"), ".Q......", "........", 1), Verdict{0, Grid, "7 queens, want 8"}},
		{"too many queens", p8, strings.Replace(strings.Join(rows8, "\n"), ".Q......", ".Q.....Q", 1), Verdict{0, Grid, "9 queens, want 8"}},
		{"the puzzle as given", p8, "_ _ _ _ _ _ _ _\n_ _ _ _ _ _ _ _\n_ _ _ _ _ _ _ _\n_ _ _ _ _ _ _ Q\n_ _ _ _ _ _ _ _\n_ _ _ _ _ _ Q _\n_ _ Q _ _ _ _ _\n_ _ _ _ _ _ _ _", Verdict{0, Grid, "3 queens, want 8"}},
		{"a given moved", p8, []int{0, 4, 7, 5, 2, 6, 1, 3}, Verdict{0, Columns0, "given queen at row 3 column 7 moved to column 5"}},
		{"a given removed", p8, []string{"...Q....", "Q...Q...", "........", "........", ".Q......", "......Q.", "..Q.....", ".....Q.Q"}, Verdict{0, LeetCode, "given queen at row 3 column 7 removed"}},
		{"two in a row", p8, []string{"...Q....", "Q...Q...", "........", ".......Q", ".Q......", "......Q.", "..Q.....", ".....Q.."}, Verdict{0, LeetCode, "two queens in row 1 (columns 0 and 4)"}},
		{"a column shared", p8, []int{3, 0, 4, 7, 1, 6, 2, 3}, Verdict{0, Columns0, "queens at rows 0 and 7 share column 3"}},
		{"a diagonal shared", p8, []int{0, 3, 4, 7, 1, 6, 2, 5}, Verdict{0, Columns0, "queens at rows 1 and 2 share a diagonal"}},
		// Answers that cannot be read.
		{"nil", p8, nil, Verdict{0, "", "could not read answer: no answer"}},
		{"no field", p8, json.RawMessage(nil), Verdict{0, "", "could not read answer: no answer"}},
		{"null", p8, json.RawMessage(`null`), Verdict{0, "", "could not read answer: no answer (null)"}},
		{"empty", p8, "  \n", Verdict{0, "", "could not read answer: empty answer"}},
		{"an object", p8, json.RawMessage(`{"cols":[1]}`), Verdict{0, "", "could not read answer: an object is not an answer: want a board as text, an array of rows, or an array of columns"}},
		{"a number", p8, json.RawMessage(`42`), Verdict{0, "", `could not read answer: "42" is not an answer: want a board as text, an array of rows, or an array of columns`}},
		{"an empty array", p8, json.RawMessage(`[]`), Verdict{0, "", "could not read answer: an empty array"}},
		{"two boards", p8, raw([][]string{rows8, rows8}), Verdict{0, "", "could not read answer: an array of 2 boards: want one"}},
		{"a bad square", p8, "...Q....\nQ..x....", Verdict{0, "", `could not read answer: row 1: "x" is not a square: want Q for a queen, or _ or . for an empty square`}},
		{"a bad column", p8, json.RawMessage(`[3, 0.5]`), Verdict{0, "", `could not read answer: item 1, "0.5", is not a column: want an array of whole numbers, a row's column each`}},
		{"a bad column in text", p8, "3 0 4 7 1 6 2 x5", Verdict{0, "", `could not read answer: "x5" is not a column: want whole numbers, a row's column each, or a grid of Q and _`}},
		{"a column off the board", p8, []int{3, 0, 4, 7, 1, 6, 2, 9}, Verdict{0, "", "could not read answer: column 9 is off the board of 8, from 0 (0..7) or from 1 (1..8)"}},
		{"a negative column", p8, "3 0 4 7 1 6 2 -1", Verdict{0, "", "could not read answer: column -1 is off the board of 8, from 0 (0..7) or from 1 (1..8)"}},
		{"0 and n", p8, []int{3, 0, 4, 7, 1, 6, 2, 8}, Verdict{0, "", "could not read answer: columns 0 and 8 both appear, so they are neither from 0 (0..7) nor from 1 (1..8)"}},
		{"a mixed array", p8, json.RawMessage(`["...Q....", 3]`), Verdict{0, "", "could not read answer: item 1 of an array of rows is not a string"}},
		{"another type", p8, 3.5, Verdict{0, "", "could not read answer: a float64 is not an answer: want a string, []string, []int or json.RawMessage"}},
		{"too long", p8, strings.Repeat(".", 9000), Verdict{0, "", "could not read answer: 9000 bytes, more than a board of 32"}},
		{"too many rows", p8, strings.Repeat(".\n", 65), Verdict{0, "", "could not read answer: 65 rows, more than a board of 32 has"}},
		{"too wide", p8, strings.Repeat(".", 65), Verdict{0, "", "could not read answer: row 0 has more than 64 squares"}},
		{"bad JSON", p8, json.RawMessage(`[1, 2`), Verdict{0, "", "could not read answer: not a JSON array: unexpected end of JSON input"}},
	} {
		got := Check(mustParse(t, tc.puzzle), tc.answer)
		if got != tc.want {
			t.Errorf("%s: Check(%q, %v) = %+v, want %+v", tc.name, tc.puzzle, tc.answer, got, tc.want)
		}
	}
}

// TestCheckSolutions: every solution of 6 completes the empty board and
// the board of its own first two rows, in every form, and no other
// solution completes the latter.
func TestCheckSolutions(t *testing.T) {
	var sols []nqueens.Placement
	for _, cols := range [][]int{{1, 3, 5, 0, 2, 4}, {2, 5, 1, 4, 0, 3}, {3, 0, 4, 1, 5, 2}, {4, 2, 0, 5, 3, 1}} {
		p := nqueens.MustNew(cols...)
		if p.Valid() != nil {
			t.Fatalf("%v is not a solution", p)
		}
		sols = append(sols, p)
	}
	empty, _ := partial.Empty(6)
	for _, p := range sols {
		grid := partial.FromPlacement(p, nil).Grid()
		one := make([]int, 6)
		for r, c := range p.Cols() {
			one[r] = c + 1
		}
		forms := []any{grid, strings.Split(strings.ReplaceAll(strings.TrimSpace(grid), " ", ""), "\n"), p.Cols(), one, p.String()}
		top := partial.FromPlacement(p, []int{0, 1})
		for _, answer := range forms {
			if v := Check(empty, answer); v.Score != 1 {
				t.Errorf("%v as %v on the empty board: %+v", p, answer, v)
			}
			if v := Check(top, answer); v.Score != 1 {
				t.Errorf("%v as %v on %v: %+v", p, answer, top, v)
			}
			for _, q := range sols {
				if q != p && Check(partial.FromPlacement(q, []int{0, 1}), answer).Score != 0 {
					t.Errorf("%v scores 1 on the givens of %v", p, q)
				}
			}
		}
	}
}

// raw returns v as JSON.
func raw(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// FuzzCheck: Check never panics, and its score agrees with the rules of
// package nqueens: an answer read as n queens, one a row, scores 1 when
// they are a solution (Placement.Valid) that keeps the puzzle's givens
// (Board.Extends), and 0 otherwise.
func FuzzCheck(f *testing.F) {
	f.Add(p8, solution8)
	f.Add(p8, string(raw(rows8)))
	f.Add(p8, "4 1 5 8 2 7 3 6")
	f.Add(p8, "3 0 4 7 1 6 2 3")
	f.Add("_ _ _ _", "[[\".Q..\",\"...Q\",\"Q...\",\"..Q.\"]]")
	f.Add("1 _ _ _", "['.Q..', '...Q', 'Q...', '..Q.']")
	f.Fuzz(func(t *testing.T, puzzle, answer string) {
		b, err := partial.Parse(puzzle)
		if err != nil {
			return
		}
		v := Check(b, answer)
		if w := Check(b, json.RawMessage(answer)); w.Score == 1 && w.Reason != "" || w.Score == 0 && w.Reason == "" || w.Score > 1 {
			t.Fatalf("%q as JSON on %q: %+v", answer, puzzle, w)
		}
		a, err := readText(answer, true)
		if err != nil {
			if v.Score != 0 || !strings.HasPrefix(v.Reason, "could not read answer: ") {
				t.Fatalf("%q on %q does not read (%v) but scores %+v", answer, puzzle, err, v)
			}
			return
		}
		board := a.board
		switch v.Form {
		case Columns0:
			board = fromColumns(a.cols, b.N(), 0)
		case Columns1:
			board = fromColumns(a.cols, b.N(), 1)
		case "":
			return // columns off the board
		}
		cols := make([]int, len(board.queens))
		ok := len(board.widths) == b.N() && len(board.queens) == b.N()
		for i, q := range board.queens {
			cols[i] = q[1]
			ok = ok && q[0] == i && board.widths[i] == b.N()
		}
		if ok {
			p, err := nqueens.New(cols)
			ok = err == nil && p.Valid() == nil && b.Extends(p)
		}
		if want := map[bool]int{true: 1}[ok]; v.Score != want || (v.Reason == "") != ok {
			t.Fatalf("%q on %q: %+v, want score %d", answer, puzzle, v, want)
		}
	})
}
