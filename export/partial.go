package export

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/phrase"
)

// Partial boards: the records of nqueens complete and nqueens puzzle. A
// partial board is written as its given queens, [row, column] pairs,
// 0-based, in increasing order of rows.

// Completed is what complete reports of one board: its size, its given
// queens, how many solutions extend it and the nodes of the search that
// counted them, and, when asked for, the classes of those solutions.
type Completed struct {
	N     int
	Given [][2]int
	Count uint64
	Nodes uint64
	// Classes, if not nil, lists the classes of the completions in
	// increasing order of class number, each with how many of the
	// completions are in it.
	Classes []ClassCount
}

// ClassCount is one class of the completions of a board and how many of
// them it holds.
type ClassCount struct {
	Class    int64
	Symmetry nqueens.Symmetry
	Count    uint64
}

// WriteJSON writes c as one JSON object on one line:
//
//	{"n":8,"given":[[0,1],[7,3]],"count":3,"nodes":76}
//
// with "classes":[{"class":4,"symmetry":"none","count":1},...] after
// nodes when c.Classes is not nil. It returns the error of w.
func (c Completed) WriteJSON(w io.Writer) error {
	buf := fmt.Appendf(nil, `{"n":%d,"given":`, c.N)
	buf = appendGiven(buf, c.Given)
	buf = fmt.Appendf(buf, `,"count":%d,"nodes":%d`, c.Count, c.Nodes)
	if c.Classes != nil {
		buf = append(buf, `,"classes":[`...)
		for i, k := range c.Classes {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = fmt.Appendf(buf, `{"class":%d,"symmetry":"%s","count":%d}`, k.Class, k.Symmetry, k.Count)
		}
		buf = append(buf, ']')
	}
	buf = append(buf, "}\n"...)
	_, err := w.Write(buf)
	return err
}

// WriteText writes c as a line naming the board in columns form
// (the column of each row's queen, _ for an empty row), the count and the
// nodes, and then a line for each class when c.Classes is not nil:
//
//	1 _ _ _ _ _ _ 3: 3 completions (76 nodes)
//	  class 4 (none): 1 completion
//
// It returns the error of w.
func (c Completed) WriteText(w io.Writer) error {
	buf := appendColumnsForm(nil, c.N, c.Given)
	buf = fmt.Appendf(buf, ": %s (%s)\n", phrase.Plural(c.Count, "completion"), phrase.Plural(c.Nodes, "node"))
	for _, k := range c.Classes {
		buf = fmt.Appendf(buf, "  class %d (%s): %s\n", k.Class, k.Symmetry, phrase.Plural(k.Count, "completion"))
	}
	_, err := w.Write(buf)
	return err
}

// appendGiven appends the given queens as a JSON array of [row,column]
// pairs.
func appendGiven(buf []byte, given [][2]int) []byte {
	buf = append(buf, '[')
	for i, g := range given {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = fmt.Appendf(buf, "[%d,%d]", g[0], g[1])
	}
	return append(buf, ']')
}

// appendColumnsForm appends the board of n with the given queens in
// columns form: each row's column, or _, separated by spaces.
func appendColumnsForm(buf []byte, n int, given [][2]int) []byte {
	cols := rowColumns(n, given)
	for r, c := range cols {
		if r > 0 {
			buf = append(buf, ' ')
		}
		if c < 0 {
			buf = append(buf, '_')
		} else {
			buf = strconv.AppendInt(buf, int64(c), 10)
		}
	}
	return buf
}

// rowColumns returns the column of each row's given queen, -1 for none.
func rowColumns(n int, given [][2]int) []int32 {
	cols := slices.Repeat([]int32{-1}, n)
	for _, g := range given {
		cols[g[0]] = int32(g[1])
	}
	return cols
}

// Puzzle is one puzzle as the puzzle formats write it: a partial board
// with exactly one completion, its solution, the solution's class (0 when
// not known) and symmetry, its difficulty (easy, medium or hard) and the
// nodes of the search it is graded by; Seed and Index say how to make it
// again (puzzle Index, from 0, of the same nqueens puzzle command with
// --seed Seed).
type Puzzle struct {
	N          int
	Given      [][2]int
	Solution   nqueens.Placement
	Class      int64
	Symmetry   nqueens.Symmetry
	Difficulty string
	Nodes      uint64
	Seed       uint64
	Index      int
}

// Answers says what the puzzle formats write of each puzzle and its
// solution.
type Answers int

const (
	// WithAnswers writes each puzzle with its solution.
	WithAnswers Answers = iota
	// NoAnswers writes the puzzles alone, as a puzzle book prints them:
	// no solution, class or symmetry.
	NoAnswers
	// AnswersOnly writes the solutions alone, numbered as their puzzles,
	// as an answer key printed apart (the same seed makes the same
	// puzzles).
	AnswersOnly
)

// AnswerChoices lists the names ParseAnswers reads.
var AnswerChoices = []string{"with", "none", "only"}

// ParseAnswers reads the name of an Answers: with, none or only, not
// case-sensitive. For another name it returns an error naming those
// allowed.
func ParseAnswers(name string) (Answers, error) {
	for i, c := range AnswerChoices {
		if strings.EqualFold(name, c) {
			return Answers(i), nil
		}
	}
	return 0, fmt.Errorf("unknown answers %s: must be one of %s", phrase.Quote(name), strings.Join(AnswerChoices, ", "))
}

// puzzleCSVHeader is the first row of the csv puzzle format: board is the
// puzzle in columns form (each row's column, or _ for an empty row,
// separated by spaces), solution the columns separated by spaces, class
// empty when not known.
const puzzleCSVHeader = "n,givens,difficulty,nodes,class,symmetry,board,solution"

// DatasetRecord is the record of the dataset puzzle format, one JSON
// object a line, in the form reasoning datasets of N-Queens use: boards
// as text, a row a line, squares separated by spaces, _ for an empty
// square and Q for a queen.
//
//	{"n":4,"puzzle":"_ Q _ _\n_ _ _ _\n_ _ _ _\n_ _ _ _","answer":"_ Q _ _\n_ _ _ Q\nQ _ _ _\n_ _ Q _","queens_to_place":3,"difficulty":"easy","nodes":3,"unique_solution":true,"seed":1,"index":0,"class":1}
//
// Answer (and class) are left out with NoAnswers, Puzzle, QueensToPlace,
// Difficulty and Nodes with AnswersOnly. UniqueSolution is always true:
// every puzzle has exactly one completion, checked twice (the program's
// readers of these records also take it by the name "unique"). Class is
// left out when not known.
type DatasetRecord struct {
	N              int     `json:"n"`
	Puzzle         string  `json:"puzzle,omitempty"`
	Answer         string  `json:"answer,omitempty"`
	QueensToPlace  *int    `json:"queens_to_place,omitempty"`
	Difficulty     string  `json:"difficulty,omitempty"`
	Nodes          *uint64 `json:"nodes,omitempty"`
	UniqueSolution bool    `json:"unique_solution"`
	Seed           uint64  `json:"seed"`
	Index          int     `json:"index"`
	Class          int64   `json:"class,omitempty"`
}

// PuzzleWriter writes puzzles in one of PuzzleFormats. Like the layout
// writers it follows encoding/csv: Write adds one puzzle, Close flushes and
// ends the document (a JSON array's "]", "[]" for no puzzle; a CSV header
// alone for no puzzle); the caller must call Close and check its error.
type PuzzleWriter struct {
	w interface {
		Write(Puzzle) error
		Close() error
	}
}

// Write writes the record of one puzzle.
func (w *PuzzleWriter) Write(p Puzzle) error { return w.w.Write(p) }

// Close ends the document and flushes it, returning the first error of a
// write. The caller must call it.
func (w *PuzzleWriter) Close() error { return w.w.Close() }

// NewPuzzles returns a writer to w of puzzles in f, one of PuzzleFormats,
// writing of each what answers says. The caller must call Close.
// NewPuzzles panics if f is not one of PuzzleFormats.
func (f Format) NewPuzzles(w io.Writer, answers Answers) *PuzzleWriter {
	if f == FormatParquet {
		return &PuzzleWriter{w: newParquetPuzzles(w, answers)}
	}
	fr := &framed[Puzzle]{base: newBase(w)}
	pw := &PuzzleWriter{w: fr}
	object := func(buf []byte, p Puzzle) []byte { return appendPuzzleObject(buf, p, answers) }
	switch f {
	case FormatText:
		fr.sep, fr.record = "\n", func(buf []byte, p Puzzle) []byte { return appendPuzzleText(buf, p, fr.count, answers) }
	case FormatJSON:
		fr.open, fr.sep, fr.close, fr.empty, fr.record = "[\n", ",\n", "\n]\n", "[]\n", object
	case FormatNDJSON:
		fr.record = func(buf []byte, p Puzzle) []byte { return append(object(buf, p), '\n') }
	case FormatCSV:
		fr.open, fr.empty = puzzleCSVHeader+"\n", puzzleCSVHeader+"\n"
		fr.record = func(buf []byte, p Puzzle) []byte { return appendPuzzleCSV(buf, p, answers) }
	case FormatDataset:
		fr.record = func(buf []byte, p Puzzle) []byte { return appendDataset(buf, p, answers) }
	default:
		panic(fmt.Sprintf("export: %v is not a format of puzzles", f))
	}
	return pw
}

// appendBoardText appends the board of n with a queen in each row of cols
// that holds a column (-1: none), a row a line, squares separated by
// spaces, Q for a queen and _ for an empty square; the rows end with
// newlines, and with last set the last row ends with none.
func appendBoardText(buf []byte, cols []int32, last bool) []byte {
	for r, c := range cols {
		if r > 0 {
			buf = append(buf, '\n')
		}
		for k := range cols {
			if k > 0 {
				buf = append(buf, ' ')
			}
			if int32(k) == c {
				buf = append(buf, 'Q')
			} else {
				buf = append(buf, '_')
			}
		}
	}
	if !last {
		buf = append(buf, '\n')
	}
	return buf
}

// appendPuzzleText appends puzzle k (from 1) in the text format.
func appendPuzzleText(buf []byte, p Puzzle, k int64, answers Answers) []byte {
	if answers == AnswersOnly {
		buf = fmt.Appendf(buf, "answer %d: n=%d, %s\n", k, p.N, p.Solution)
		var a [nqueens.MaxN]int32
		return appendBoardText(buf, columns(&a, p.Solution), false)
	}
	buf = fmt.Appendf(buf, "puzzle %d: n=%d, %s, %d to place, %s (%s)\n", k, p.N, phrase.Plural(len(p.Given), "given queen"), p.N-len(p.Given), p.Difficulty, phrase.Plural(p.Nodes, "search node"))
	buf = appendBoardText(buf, rowColumns(p.N, p.Given), false)
	if answers == NoAnswers {
		return buf
	}
	buf = append(append(buf, "solution: "...), p.Solution.String()...)
	if p.Class > 0 {
		return fmt.Appendf(buf, " (class %d, symmetry %s)\n", p.Class, p.Symmetry)
	}
	return fmt.Appendf(buf, " (symmetry %s)\n", p.Symmetry)
}

// appendPuzzleObject appends the JSON object of a puzzle.
func appendPuzzleObject(buf []byte, p Puzzle, answers Answers) []byte {
	buf = fmt.Appendf(buf, `{"n":%d`, p.N)
	if answers != AnswersOnly {
		buf = appendGiven(append(buf, `,"given":`...), p.Given)
	}
	if answers != NoAnswers {
		buf = append(buf, `,"solution":[`...)
		var a [nqueens.MaxN]int32
		buf = append(appendCols(buf, columns(&a, p.Solution), ','), ']')
		if p.Class > 0 {
			buf = fmt.Appendf(buf, `,"class":%d`, p.Class)
		}
		buf = fmt.Appendf(buf, `,"symmetry":"%s"`, p.Symmetry)
	}
	if answers == AnswersOnly {
		return append(buf, '}')
	}
	return fmt.Appendf(buf, `,"givens":%d,"difficulty":"%s","nodes":%d}`, len(p.Given), p.Difficulty, p.Nodes)
}

// appendPuzzleCSV appends the CSV row of a puzzle: with NoAnswers the
// class, symmetry and solution fields are empty, with AnswersOnly the
// givens, difficulty, nodes and board.
func appendPuzzleCSV(buf []byte, p Puzzle, answers Answers) []byte {
	buf = fmt.Appendf(buf, "%d,", p.N)
	if answers != AnswersOnly {
		buf = fmt.Appendf(buf, "%d,%s,%d", len(p.Given), p.Difficulty, p.Nodes)
	} else {
		buf = append(buf, ",,"...)
	}
	buf = append(buf, ',')
	if answers != NoAnswers {
		if p.Class > 0 {
			buf = strconv.AppendInt(buf, p.Class, 10)
		}
		buf = fmt.Appendf(buf, ",%s,", p.Symmetry)
	} else {
		buf = append(buf, ",,"...)
	}
	if answers != AnswersOnly {
		buf = appendColumnsForm(buf, p.N, p.Given)
	}
	buf = append(buf, ',')
	if answers != NoAnswers {
		buf = append(buf, p.Solution.String()...)
	}
	return append(buf, '\n')
}

// appendDataset appends the dataset record of a puzzle and a newline.
func appendDataset(buf []byte, p Puzzle, answers Answers) []byte {
	r := DatasetRecord{N: p.N, UniqueSolution: true, Seed: p.Seed, Index: p.Index}
	if answers != AnswersOnly {
		r.Puzzle = string(appendBoardText(nil, rowColumns(p.N, p.Given), true))
		k := p.N - len(p.Given)
		r.QueensToPlace = &k
		r.Difficulty = p.Difficulty
		r.Nodes = &p.Nodes
	}
	if answers != NoAnswers {
		var a [nqueens.MaxN]int32
		r.Answer = string(appendBoardText(nil, columns(&a, p.Solution), true))
		r.Class = p.Class
	}
	b, err := json.Marshal(r)
	if err != nil {
		panic("export: a dataset record does not marshal: " + err.Error()) // strings and numbers only
	}
	return append(append(buf, b...), '\n')
}
