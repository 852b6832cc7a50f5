package main

import (
	"encoding/csv"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/export"
	"github.com/nqueens/nqueens/partial"
)

// checkPuzzles is the script command "checkpuzzles FILE": FILE holds
// puzzles in the csv format of puzzle; each board must have exactly one
// completion, its solution, counted here again.
func checkPuzzles(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 || neg {
		ts.Fatalf("usage: checkpuzzles FILE")
	}
	rows, err := csv.NewReader(strings.NewReader(ts.ReadFile(args[0]))).ReadAll()
	if err != nil || len(rows) < 2 {
		ts.Fatalf("checkpuzzles: %s: %v, %d rows", args[0], err, len(rows))
	}
	board, solution := slices.Index(rows[0], "board"), slices.Index(rows[0], "solution")
	if board < 0 || solution < 0 {
		ts.Fatalf("checkpuzzles: %s: header %q has no board or no solution", args[0], rows[0])
	}
	for _, row := range rows[1:] {
		b, err := partial.Parse(row[board])
		if err != nil {
			ts.Fatalf("checkpuzzles: board %q: %v", row[board], err)
		}
		sol, err := nqueens.Parse(row[solution])
		if err != nil || sol.Valid() != nil {
			ts.Fatalf("checkpuzzles: solution %q: %v", row[solution], err)
		}
		var got []nqueens.Placement
		for p := range partial.Completions(b) {
			got = append(got, p)
		}
		if len(got) != 1 || got[0] != sol {
			ts.Fatalf("checkpuzzles: %q has completions %v, want only %v", b, got, sol)
		}
	}
}

// checkDataset is the script command "checkdataset FILE": FILE holds
// puzzles in the dataset format of puzzle; each record's puzzle must have
// exactly one completion, its answer, with queens_to_place queens to add.
func checkDataset(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 || neg {
		ts.Fatalf("usage: checkdataset FILE")
	}
	dec := json.NewDecoder(strings.NewReader(ts.ReadFile(args[0])))
	records := 0
	for dec.More() {
		var r export.DatasetRecord
		if err := dec.Decode(&r); err != nil {
			ts.Fatalf("checkdataset: record %d: %v", records+1, err)
		}
		records++
		b, err := partial.Parse(strings.ReplaceAll(r.Puzzle, "\n", " / "))
		if err != nil {
			ts.Fatalf("checkdataset: record %d: puzzle: %v", records, err)
		}
		answer, err := nqueens.Parse(strings.ReplaceAll(r.Answer, "\n", " / "))
		if err != nil {
			ts.Fatalf("checkdataset: record %d: answer: %v", records, err)
		}
		var got []nqueens.Placement
		for p := range partial.Completions(b) {
			got = append(got, p)
		}
		if len(got) != 1 || got[0] != answer || r.QueensToPlace == nil || *r.QueensToPlace != r.N-len(b.Given()) || !r.UniqueSolution || r.Difficulty == "" || r.Nodes == nil {
			ts.Fatalf("checkdataset: record %d: %d completions %v, answer %v, to place %v", records, len(got), got, answer, r.QueensToPlace)
		}
	}
	if records == 0 {
		ts.Fatalf("checkdataset: %s holds no record", args[0])
	}
}

// TestFormAdvice checks that a line of the other form read from stdin is
// refused with the --input form that reads it.
func TestFormAdvice(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		form partial.Form
		in   string
		want string
	}{
		{partial.Lines, "_ Q _ _\n", `line 1: "_ Q _ _" is a row of a grid, not a board: a line holds one board (--input grids reads grids of several lines, separated by blank lines)`},
		{partial.Grids, "_ Q\nQ _\n\n1 _\n", `line 4: "1 _" is not a row of a grid: a row of a grid holds Q, _ and . alone, and a blank line ends a grid`},
		{partial.Grids, "_ Q _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ X _\n", `line 1: "X" (column 26) is not a square of a grid: a row of a grid holds Q, _ and . alone, and a blank line ends a grid`},
	} {
		var got []string
		for _, err := range partial.Boards(strings.NewReader(tc.in), tc.form) {
			if err != nil {
				got = append(got, formAdvice(err).Error())
			}
		}
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("form %d, %q: %q, want %q", tc.form, tc.in, got, tc.want)
		}
	}
}
