package export

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
)

// puzzles are two puzzles of n = 8: one with its class known, one without.
var puzzles = []Puzzle{
	{N: 8, Given: [][2]int{{3, 7}, {5, 6}, {6, 2}}, Solution: nqueens.MustNew(3, 0, 4, 7, 1, 6, 2, 5), Class: 5, Symmetry: nqueens.SymNone, Difficulty: "medium", Nodes: 23, Seed: 1, Index: 0},
	{N: 6, Given: [][2]int{{0, 1}, {1, 3}}, Solution: nqueens.MustNew(1, 3, 5, 0, 2, 4), Symmetry: nqueens.SymRot180, Difficulty: "easy", Nodes: 7, Seed: 1, Index: 1},
}

func TestPuzzleGolden(t *testing.T) {
	for _, format := range PuzzleFormats {
		if format.Binary() {
			continue // TestParquetPuzzles reads it back
		}
		for _, k := range []int{0, 2} {
			var buf bytes.Buffer
			w := format.NewPuzzles(&buf, WithAnswers)
			for _, p := range puzzles[:k] {
				if err := w.Write(p); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			name := "puzzle-" + format.String()
			if k == 0 {
				name += "-empty"
			}
			golden(t, name, buf.Bytes())
			switch format {
			case FormatJSON:
				var got []map[string]any
				if err := json.Unmarshal(buf.Bytes(), &got); err != nil || len(got) != k {
					t.Fatalf("json: %v, %d objects", err, len(got))
				}
				if k > 0 && (got[0]["class"] != 5.0 || got[1]["class"] != nil || got[0]["givens"] != 3.0) {
					t.Errorf("json objects: %v", got)
				}
			case FormatCSV:
				rows, err := csv.NewReader(&buf).ReadAll()
				if err != nil || len(rows) != k+1 || strings.Join(rows[0], ",") != puzzleCSVHeader {
					t.Errorf("csv: %v %v", rows, err)
				}
			}
		}
	}
	if _, err := ParseFormat("xml", PuzzleFormats); err == nil || err.Error() != `unknown format "xml": must be one of text, json, ndjson, csv, dataset, parquet` {
		t.Errorf("ParseFormat(xml, PuzzleFormats): %v", err)
	}
}

// TestPuzzleAnswers writes the two puzzles in every format with each
// choice of answers, against golden files, and reads the dataset records
// back: a puzzle book holds no solution, an answer key no puzzle.
func TestPuzzleAnswers(t *testing.T) {
	for _, format := range PuzzleFormats {
		if format.Binary() {
			continue // TestParquetPuzzles
		}
		for _, name := range AnswerChoices[1:] {
			answers, err := ParseAnswers(name)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			w := format.NewPuzzles(&buf, answers)
			for _, p := range puzzles {
				w.Write(p)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			golden(t, "puzzle-"+format.String()+"-answers-"+name, buf.Bytes())
			text := buf.String()
			if solution := "3 0 4 7 1 6 2 5"; (answers == NoAnswers) == strings.Contains(text, solution) && format != FormatDataset && format != FormatJSON && format != FormatNDJSON {
				t.Errorf("%s, answers %s: solution written %v", format, name, strings.Contains(text, solution))
			}
		}
	}
	var buf bytes.Buffer
	w := FormatDataset.NewPuzzles(&buf, WithAnswers)
	for _, p := range puzzles {
		w.Write(p)
	}
	w.Close()
	dec := json.NewDecoder(&buf)
	var got []DatasetRecord
	for dec.More() {
		var r DatasetRecord
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	if len(got) != 2 || got[1].N != 6 || *got[1].QueensToPlace != 4 || !got[1].UniqueSolution || got[1].Index != 1 || got[0].Class != 5 ||
		got[0].Difficulty != "medium" || *got[0].Nodes != 23 || got[1].Difficulty != "easy" || *got[1].Nodes != 7 ||
		got[1].Puzzle != "_ Q _ _ _ _\n_ _ _ Q _ _\n_ _ _ _ _ _\n_ _ _ _ _ _\n_ _ _ _ _ _\n_ _ _ _ _ _" ||
		got[1].Answer != "_ Q _ _ _ _\n_ _ _ Q _ _\n_ _ _ _ _ Q\nQ _ _ _ _ _\n_ _ Q _ _ _\n_ _ _ _ Q _" {
		t.Errorf("dataset records read back: %+v", got)
	}
	if _, err := ParseAnswers("some"); err == nil || err.Error() != `unknown answers "some": must be one of with, none, only` {
		t.Errorf("ParseAnswers(some): %v", err)
	}
}

func TestCompletedGolden(t *testing.T) {
	c := Completed{N: 8, Given: [][2]int{{0, 1}, {7, 3}}, Count: 3, Nodes: 76}
	var buf bytes.Buffer
	c.WriteText(&buf)
	c.WriteJSON(&buf)
	c.Classes = []ClassCount{{Class: 4, Symmetry: nqueens.SymNone, Count: 1}, {Class: 9, Symmetry: nqueens.SymNone, Count: 2}}
	c.WriteText(&buf)
	c.WriteJSON(&buf)
	golden(t, "completed", buf.Bytes())
	for line := range strings.Lines(buf.String()) {
		if strings.HasPrefix(line, "{") && !json.Valid([]byte(line)) {
			t.Errorf("invalid JSON: %s", line)
		}
	}
}

func ExampleFormat_New() {
	w := FormatText.New(os.Stdout, SolutionBoards)
	for _, cols := range [][]int{{1, 3, 0, 2}, {2, 0, 3, 1}} {
		w.Write(nqueens.Layout{Placement: nqueens.MustNew(cols...)})
	}
	if err := w.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 1 3 0 2
	// 2 0 3 1
}
