package grade

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"testing/iotest"
)

// puzzle8 is the record of p8 as nqueens puzzle --format dataset writes
// it, and puzzle8Old the same with the field's old name.
const (
	puzzle8    = `{"n":8,"puzzle":"_ _ _ _ _ _ _ _\n_ _ _ _ _ _ _ _\n_ _ _ _ _ _ _ _\n_ _ _ _ _ _ _ Q\n_ _ _ _ _ _ _ _\n_ _ _ _ _ _ Q _\n_ _ Q _ _ _ _ _\n_ _ _ _ _ _ _ _","queens_to_place":5,"difficulty":"medium","nodes":23,"unique_solution":true,"seed":1,"index":0}`
	puzzle8Old = `{"n":8,"puzzle":"_ _ _ _ _ _ _ _\n_ _ _ _ _ _ _ _\n_ _ _ _ _ _ _ _\n_ _ _ _ _ _ _ Q\n_ _ _ _ _ _ _ _\n_ _ _ _ _ _ Q _\n_ _ Q _ _ _ _ _\n_ _ _ _ _ _ _ _","queens_to_place":5,"unique":true,"seed":1,"index":0}`
	// puzzle4 is a puzzle of 4 without spaces between squares, with no
	// given queen: both solutions complete it.
	puzzle4 = `{"n":4,"puzzle":"....\n....\n....\n...."}`
)

// grade runs Files and returns its grades and summary, or its error.
func grade(puzzles, answers string) ([]Graded, Summary, error) {
	var out []Graded
	var s Summary
	for g, err := range Files(Input{"puzzles.jsonl", strings.NewReader(puzzles)}, Input{"answers.jsonl", strings.NewReader(answers)}) {
		if err != nil {
			return out, s, err
		}
		out = append(out, g)
		s.Add(g)
	}
	return out, s, nil
}

func TestFiles(t *testing.T) {
	for _, tc := range []struct {
		name             string
		puzzles, answers string
		want             []Graded
		summary          Summary
	}{
		{
			name:    "in order, with the old and the new name of unique_solution",
			puzzles: puzzle8 + "\n" + puzzle8Old + "\n\n" + puzzle4 + "\n",
			answers: `{"answer":"3 0 4 7 1 6 2 5"}` + "\n" + `{"answer":[3,0,4,7,1,6,2,3]}` + "\n\n" + `{"answer":[".Q..","...Q","Q...","..Q."]}` + "\n",
			want: []Graded{
				{Answer: 1, Puzzle: 1, Verdict: Verdict{1, Columns0, ""}},
				{Answer: 2, Puzzle: 2, Verdict: Verdict{0, Columns0, "queens at rows 0 and 7 share column 3"}},
				{Answer: 4, Puzzle: 4, Verdict: Verdict{1, LeetCode, ""}},
			},
			summary: Summary{Puzzles: 3, Answers: 3, Correct: 2, Score: 2.0 / 3},
		},
		{
			name:    "more answers than puzzles",
			puzzles: puzzle4,
			answers: `{"answer":"2 0 3 1"}` + "\n" + `{"answer":"1 3 0 2","id":"x"}`,
			want: []Graded{
				{Answer: 1, Puzzle: 1, Verdict: Verdict{1, Columns0, ""}},
				{Answer: 2, ID: "x", Verdict: Verdict{0, "", "no puzzle: puzzles.jsonl holds 1 puzzle"}},
			},
			summary: Summary{Puzzles: 1, Answers: 2, Correct: 1, Score: 1, Unmatched: 1},
		},
		{
			name:    "more puzzles than answers, and a missing answer",
			puzzles: puzzle4 + "\n" + puzzle8 + "\n" + puzzle8,
			answers: `{"id":3}`,
			want: []Graded{
				{Answer: 1, Puzzle: 1, ID: "3", Verdict: Verdict{0, "", "could not read answer: no answer"}},
				{Puzzle: 2, Verdict: Verdict{0, "", "no answer"}},
				{Puzzle: 3, Verdict: Verdict{0, "", "no answer"}},
			},
			summary: Summary{Puzzles: 3, Answers: 1, Unanswered: 2},
		},
		{
			name:    "by id, in another order, strings and numbers alike",
			puzzles: `{"id":"a","n":4,"puzzle":".Q..\n....\n....\n...."}` + "\n" + `{"id":7,"n":4,"puzzle":"..Q.\n....\n....\n...."}` + "\n" + `{"id":"c","n":4,"puzzle":"_ _ _ _ / _ _ _ _ / _ _ _ _ / _ _ _ _"}`,
			answers: `{"id":"7","answer":"2 0 3 1"}` + "\n" + `{"id":"zz","answer":"2 0 3 1"}` + "\n" + `{"id":"a","answer":"2 0 3 1"}`,
			want: []Graded{
				{Answer: 1, Puzzle: 2, ID: "7", Verdict: Verdict{1, Columns0, ""}},
				{Answer: 2, ID: "zz", Verdict: Verdict{0, "", `no puzzle with id "zz"`}},
				{Answer: 3, Puzzle: 1, ID: "a", Verdict: Verdict{0, Columns0, "given queen at row 0 column 1 moved to column 2"}},
				{Puzzle: 3, ID: "c", Verdict: Verdict{0, "", "no answer"}},
			},
			summary: Summary{Puzzles: 3, Answers: 3, Correct: 1, Score: 1.0 / 3, Unmatched: 1, Unanswered: 1},
		},
		{
			name:    "ids in the puzzles alone: in order",
			puzzles: `{"id":"a","n":4,"puzzle":"....\n....\n....\n...."}`,
			answers: `{"answer":"3 1 4 2"}`,
			want:    []Graded{{Answer: 1, Puzzle: 1, Verdict: Verdict{1, Columns1, ""}}},
			summary: Summary{Puzzles: 1, Answers: 1, Correct: 1, Score: 1},
		},
		{
			name:    "no answers",
			puzzles: puzzle4,
			want:    []Graded{{Puzzle: 1, Verdict: Verdict{0, "", "no answer"}}},
			summary: Summary{Puzzles: 1, Unanswered: 1},
		},
		{
			name:    "nothing",
			want:    nil,
			summary: Summary{},
		},
	} {
		got, s, err := grade(tc.puzzles, tc.answers)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !equal(got, tc.want) || s != tc.summary {
			t.Errorf("%s:\n got %+v\n     %+v\nwant %+v\n     %+v", tc.name, got, s, tc.want, tc.summary)
		}
	}
}

func equal(a, b []Graded) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestFilesErrors: a bad line is one error naming the file and the line,
// after the grades of the lines before it.
func TestFilesErrors(t *testing.T) {
	long := `{"answer":"` + strings.Repeat(" ", maxLine) + `"}`
	for _, tc := range []struct {
		name             string
		puzzles, answers string
		graded           int
		want             string
	}{
		{"not JSON", puzzle4, "{\"answer\":\"2 0 3 1\"}\n\n{answer}", 1, `answers.jsonl line 3: not a JSON object: invalid character 'a' looking for beginning of object key string`},
		{"not an object", puzzle4, `["2 0 3 1"]`, 0, `answers.jsonl line 1: not a JSON object: a line holds one record, {...}`},
		{"a puzzle not JSON", puzzle4 + "\nQ...", `{"answer":"2 0 3 1"}` + "\n" + `{"answer":"2 0 3 1"}`, 1, `puzzles.jsonl line 2: not a JSON object: a line holds one record, {...}`},
		{"no n", `{"puzzle":"....\n....\n....\n...."}`, "", 0, `puzzles.jsonl line 1: no "n": a puzzle record holds n and the puzzle`},
		{"no puzzle", `{"n":8,"answer":"_"}`, "", 0, `puzzles.jsonl line 1: no "puzzle": a puzzle record holds n and the puzzle (an answer key of puzzle --answers only holds none)`},
		{"n a string", `{"n":"8","puzzle":"....\n....\n....\n...."}`, "", 0, `puzzles.jsonl line 1: "n" is a JSON string, want a whole number`},
		{"puzzle a number", `{"n":8,"puzzle":8}`, "", 0, `puzzles.jsonl line 1: "puzzle" is a JSON number, want a string`},
		{"n is not the puzzle's", `{"n":5,"puzzle":"....\n....\n....\n...."}`, "", 0, `puzzles.jsonl line 1: the puzzle is a board of 4, and n is 5`},
		{"a puzzle that does not parse", `{"n":4,"puzzle":"..Q.\n....\n...."}`, "", 0, `puzzles.jsonl line 1: puzzle: row 0: 4 squares in a grid of 3 rows: a board of n has n rows of n squares`},
		{"givens that attack", `{"n":4,"puzzle":"Q...\n.Q..\n....\n...."}`, "", 0, `puzzles.jsonl line 1: the queens at row 0 column 0 and row 1 column 1 attack each other: no answer can complete the puzzle`},
		{"a line too long", puzzle4, long, 0, `answers.jsonl line 1: longer than 1048576 bytes`},
		{"a bad id", puzzle4, `{"id":[1],"answer":"2 0 3 1"}`, 0, `answers.jsonl line 1: the id "[1]" is not a string or a number`},
		{"an id too long", puzzle4, `{"id":"` + strings.Repeat("x", 300) + `","answer":"2 0 3 1"}`, 0, `answers.jsonl line 1: an id of 302 bytes: at most 256`},
		{"an answer with no id, by id", `{"id":1,"n":4,"puzzle":"....\n....\n....\n...."}`, `{"id":1,"answer":"2 0 3 1"}` + "\n" + `{"answer":"2 0 3 1"}`, 1, `answers.jsonl line 2: no id, and the records are matched by id (the first of each file has one)`},
		{"a puzzle with no id, by id", `{"id":1,"n":4,"puzzle":"....\n....\n....\n...."}` + "\n" + `{"n":4,"puzzle":"....\n....\n....\n...."}`, `{"id":1,"answer":"2 0 3 1"}`, 0, `puzzles.jsonl line 2: no id, and the records are matched by id (the first of each file has one)`},
		{"an id twice in the puzzles", `{"id":1,"n":4,"puzzle":"....\n....\n....\n...."}` + "\n" + `{"id":"1","n":4,"puzzle":"....\n....\n....\n...."}`, `{"id":1,"answer":"2 0 3 1"}`, 0, `puzzles.jsonl line 2: id "1" is also the id of line 1`},
		{"an id answered twice", `{"id":1,"n":4,"puzzle":"....\n....\n....\n...."}`, `{"id":1,"answer":"2 0 3 1"}` + "\n" + `{"id":1,"answer":"1 3 0 2"}`, 1, `answers.jsonl line 2: id "1" is answered twice, first on line 1`},
	} {
		got, _, err := grade(tc.puzzles, tc.answers)
		if err == nil || err.Error() != tc.want || len(got) != tc.graded {
			t.Errorf("%s: %d graded, then %v\nwant %d graded, then %s", tc.name, len(got), err, tc.graded, tc.want)
		}
	}
	boom := errors.New("boom")
	for _, err := range Files(Input{"p", iotest.ErrReader(boom)}, Input{"a", strings.NewReader("")}) {
		if !errors.Is(err, boom) || err.Error() != "p line 1: boom" {
			t.Errorf("a read error: %v", err)
		}
	}
}

// TestGradedJSON: the objects nqueens grade --json prints.
func TestGradedJSON(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{Graded{Answer: 1, Puzzle: 1, Verdict: Verdict{1, Columns0, ""}}, `{"answer":1,"puzzle":1,"score":1,"form":"columns0"}`},
		{Graded{Answer: 2, Puzzle: 3, ID: "x", Verdict: Verdict{0, Grid, "7 queens, want 8"}}, `{"answer":2,"puzzle":3,"id":"x","score":0,"form":"grid","reason":"7 queens, want 8"}`},
		{Graded{Puzzle: 3, Verdict: Verdict{Reason: "no answer"}}, `{"puzzle":3,"score":0,"reason":"no answer"}`},
		{Summary{Puzzles: 4, Answers: 3, Correct: 3, Score: 0.75, Unanswered: 1}, `{"puzzles":4,"answers":3,"correct":3,"score":0.75,"unmatched":0,"unanswered":1}`},
	} {
		b, err := json.Marshal(tc.v)
		if err != nil || string(b) != tc.want {
			t.Errorf("%+v: %s (%v), want %s", tc.v, b, err, tc.want)
		}
	}
}
