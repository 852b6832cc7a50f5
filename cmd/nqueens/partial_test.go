package main

import (
	"encoding/csv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/nqueens/nqueens"
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
	for _, row := range rows[1:] {
		b, err := partial.Parse(row[5])
		if err != nil {
			ts.Fatalf("checkpuzzles: board %q: %v", row[5], err)
		}
		sol, err := nqueens.Parse(row[6])
		if err != nil || sol.Valid() != nil {
			ts.Fatalf("checkpuzzles: solution %q: %v", row[6], err)
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
