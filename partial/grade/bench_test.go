package grade

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/partial"
	"github.com/nqueens/nqueens/partial/puzzle"
)

// benchFiles returns count puzzle records of n = 8..20 in turn, in the
// dataset format (a solution's queens in a random half of its rows), and
// an answer to each: its solution in one of the four forms in turn, one
// answer in ten with two rows swapped (a wrong answer).
func benchFiles(b *testing.B, count int) (puzzles, answers []byte) {
	rng := rand.New(rand.NewPCG(1, 2))
	var pb, ab bytes.Buffer
	for i := range count {
		n := 8 + i%13
		p, err := puzzle.Random(rng, n)
		if err != nil {
			b.Fatal(err)
		}
		var rows []int
		for r := range n {
			if rng.IntN(2) == 0 {
				rows = append(rows, r)
			}
		}
		rec, _ := json.Marshal(map[string]any{"n": n, "puzzle": strings.TrimSuffix(partial.FromPlacement(p, rows).Grid(), "\n"), "unique_solution": true, "index": i})
		pb.Write(append(rec, '\n'))
		cols := p.Cols()
		if i%10 == 9 {
			cols[0], cols[1] = cols[1], cols[0]
		}
		grid := partial.FromPlacement(nqueens.MustNew(cols...), nil).Grid()
		var answer any
		switch i % 4 {
		case 0:
			answer = grid
		case 1:
			answer = strings.Split(strings.ReplaceAll(strings.TrimSpace(grid), " ", ""), "\n")
		case 2:
			answer = cols
		case 3:
			for r := range cols {
				cols[r]++
			}
			answer = cols
		}
		rec, _ = json.Marshal(map[string]any{"answer": answer})
		ab.Write(append(rec, '\n'))
	}
	return pb.Bytes(), ab.Bytes()
}

// BenchmarkFiles100k grades 100,000 answers of n = 8..20 against their
// puzzles, as nqueens grade does (the target: under 5 s on 2 cores).
func BenchmarkFiles100k(b *testing.B) {
	const count = 100_000
	puzzles, answers := benchFiles(b, count)
	b.SetBytes(int64(len(puzzles) + len(answers)))
	b.ResetTimer()
	for b.Loop() {
		var s Summary
		for g, err := range Files(Input{"p", bytes.NewReader(puzzles)}, Input{"a", bytes.NewReader(answers)}) {
			if err != nil {
				b.Fatal(err)
			}
			s.Add(g)
		}
		if s.Answers != count || s.Correct < count*8/10 {
			b.Fatalf("%+v", s)
		}
	}
}

// TestBenchFiles checks the files of the benchmark: every answer scores 1
// but the one in ten made wrong.
func TestBenchFiles(t *testing.T) {
	puzzles, answers := benchFiles(&testing.B{}, 130)
	k := 0
	for g, err := range Files(Input{"p", bytes.NewReader(puzzles)}, Input{"a", bytes.NewReader(answers)}) {
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]int{true: 0, false: 1}[k%10 == 9]; g.Score != want {
			t.Errorf("answer %d: %+v, want score %d", k, g, want)
		}
		if want := []Form{Grid, LeetCode, Columns0, Columns1}[k%4]; g.Score == 1 && g.Form != want {
			t.Errorf("answer %d read as %s, want %s", k, g.Form, want)
		}
		k++
	}
	if k != 130 {
		t.Errorf("%d grades, want 130", k)
	}
}
