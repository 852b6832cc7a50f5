package grade

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"

	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/partial"
)

// maxLine is the longest line, in bytes, that Files reads from either
// file: room for a board of 32 in any form and for whatever else a record
// of a model's answer carries. A longer line is an error, so that memory
// stays bounded whatever the input.
const maxLine = 1 << 20

// maxIDs is the most puzzles Files holds to match answers by id: about
// 100 bytes each.
const maxIDs = 1 << 20

// maxID is the longest id, in bytes, that Files reads.
const maxID = 256

// Input is a file of JSON records, a line each, and the name its errors
// call it by.
type Input struct {
	Name string
	R    io.Reader
}

// Graded is the grade of one answer, or of a puzzle that no answer
// matched: the lines of the answer and of its puzzle in their files (from
// 1; 0 for none), the id they were matched by (or the answer's id, when
// they are matched in order), and the Verdict. An answer that matches no
// puzzle and a puzzle that no answer matches score 0, with the reason.
type Graded struct {
	Answer int    `json:"answer,omitempty"`
	Puzzle int    `json:"puzzle,omitempty"`
	ID     string `json:"id,omitempty"`
	Verdict
}

// Summary sums up the grades of Files: Score is Correct / Puzzles (0 for
// no puzzle), so a puzzle left unanswered counts as a wrong answer;
// Unmatched counts the answers that match no puzzle, Unanswered the
// puzzles no answer matched.
type Summary struct {
	Puzzles    int     `json:"puzzles"`
	Answers    int     `json:"answers"`
	Correct    int     `json:"correct"`
	Score      float64 `json:"score"`
	Unmatched  int     `json:"unmatched"`
	Unanswered int     `json:"unanswered"`
}

// Add counts g in s.
func (s *Summary) Add(g Graded) {
	switch {
	case g.Answer == 0:
		s.Unanswered++
	case g.Puzzle == 0:
		s.Unmatched++
	}
	if g.Answer > 0 {
		s.Answers++
	}
	if g.Puzzle > 0 {
		s.Puzzles++
	}
	s.Correct += g.Score
	if s.Puzzles > 0 {
		s.Score = float64(s.Correct) / float64(s.Puzzles)
	}
}

// puzzleRecord is what Files reads of a puzzle: the dataset record of
// nqueens puzzle, or any object with n and a puzzle board (its other
// fields, "unique_solution" or "unique" among them, are not read: an
// answer scores 1 for any completion).
type puzzleRecord struct {
	N      *int            `json:"n"`
	Puzzle *string         `json:"puzzle"`
	ID     json.RawMessage `json:"id"`
}

// answerRecord is what Files reads of an answer.
type answerRecord struct {
	Answer json.RawMessage `json:"answer"`
	ID     json.RawMessage `json:"id"`
}

// Files returns an iterator over the grades of the answers of answers
// against the puzzles of puzzles, two files of JSON objects, a line each
// (blank lines skipped). A puzzle record holds n and the puzzle, a board
// of n rows (as the dataset format of nqueens puzzle writes it, or any
// form package partial reads); an answer record holds the answer, in any
// form of Check.
//
// The answers are matched to the puzzles in order, the first answer to
// the first puzzle, unless the first record of each file has an id (a
// string or a number; 7 and "7" are the same id), when they are matched
// by id: every record must then have one, each puzzle's id once, and the
// puzzles are held in memory (at most 2^20 of them); each answer is
// read, graded and yielded in turn in either case, so memory does not grow
// with the answers.
//
// The grades are yielded in the order of the answers, then the puzzles
// that no answer matched, in file order. A line that is not such a
// record, or longer than 1 MiB, a puzzle whose given queens attack each
// other, and a read error are yielded as an error naming the file and the
// line, and end the iteration. The iterator is single-use: it consumes
// both readers.
func Files(puzzles, answers Input) iter.Seq2[Graded, error] {
	return func(yield func(Graded, error) bool) {
		ps, as := newLines(puzzles), newLines(answers)
		p, err := ps.puzzle()
		if err != nil {
			yield(Graded{}, err)
			return
		}
		a, err := as.answer()
		if err != nil {
			yield(Graded{}, err)
			return
		}
		if p.line > 0 && a.line > 0 && p.id != "" && a.id != "" {
			byID(ps, as, p, a, yield)
			return
		}
		inOrder(ps, as, p, a, yield)
	}
}

// inOrder grades the answers of as against the puzzles of ps in order,
// from p and a, the first of each (line 0: none).
func inOrder(ps, as *lines, p puzzleLine, a answerLine, yield func(Graded, error) bool) {
	var err error
	for a.line > 0 {
		g := Graded{Answer: a.line, Puzzle: p.line, ID: a.id}
		if p.line > 0 {
			g.Verdict = Check(p.board, a.answer)
		} else {
			g.Reason = fmt.Sprintf("no puzzle: %s holds %s", ps.name, phrase.Plural(ps.records, "puzzle"))
		}
		if !yield(g, nil) {
			return
		}
		if p.line > 0 {
			if p, err = ps.puzzle(); err != nil {
				yield(Graded{}, err)
				return
			}
		}
		if a, err = as.answer(); err != nil {
			yield(Graded{}, err)
			return
		}
	}
	for p.line > 0 {
		if !yield(Graded{Puzzle: p.line, ID: p.id, Verdict: Verdict{Reason: "no answer"}}, nil) {
			return
		}
		if p, err = ps.puzzle(); err != nil {
			yield(Graded{}, err)
			return
		}
	}
}

// held is a puzzle held to be matched by id, and the line of its answer
// (0 for none yet).
type held struct {
	puzzle puzzleLine
	answer int
}

// byID grades the answers of as against the puzzles of ps by id, from p
// and a, the first of each.
func byID(ps, as *lines, p puzzleLine, a answerLine, yield func(Graded, error) bool) {
	byID := map[string]*held{}
	var order []*held
	var err error
	for ; p.line > 0; p, err = ps.puzzle() {
		switch {
		case p.id == "":
			err = ps.errorf("no id, and the records are matched by id (the first of each file has one)")
		case byID[p.id] != nil:
			err = ps.errorf("id %s is also the id of line %d", phrase.Quote(p.id), byID[p.id].puzzle.line)
		case len(order) == maxIDs:
			err = ps.errorf("more than %d puzzles to match by id", maxIDs)
		}
		if err != nil {
			break
		}
		h := &held{puzzle: p}
		byID[p.id] = h
		order = append(order, h)
	}
	if err != nil {
		yield(Graded{}, err)
		return
	}
	for ; a.line > 0; a, err = as.answer() {
		if a.id == "" {
			err = as.errorf("no id, and the records are matched by id (the first of each file has one)")
			break
		}
		h := byID[a.id]
		g := Graded{Answer: a.line, ID: a.id}
		switch {
		case h == nil:
			g.Reason = fmt.Sprintf("no puzzle with id %s", phrase.Quote(a.id))
		case h.answer > 0:
			err = as.errorf("id %s is answered twice, first on line %d", phrase.Quote(a.id), h.answer)
		default:
			h.answer = a.line
			g.Puzzle = h.puzzle.line
			g.Verdict = Check(h.puzzle.board, a.answer)
		}
		if err != nil {
			break
		}
		if !yield(g, nil) {
			return
		}
	}
	if err != nil {
		yield(Graded{}, err)
		return
	}
	for _, h := range order {
		if h.answer == 0 && !yield(Graded{Puzzle: h.puzzle.line, ID: h.puzzle.id, Verdict: Verdict{Reason: "no answer"}}, nil) {
			return
		}
	}
}

// lines reads the records of one file, a line each.
type lines struct {
	name    string
	sc      *bufio.Scanner
	line    int // of the last line read, from 1
	records int // read so far
}

func newLines(in Input) *lines {
	sc := bufio.NewScanner(in.R)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	return &lines{name: in.Name, sc: sc}
}

// errorf returns an error about the last line read.
func (l *lines) errorf(format string, args ...any) error {
	return fmt.Errorf("%s line %d: %s", l.name, l.line, fmt.Sprintf(format, args...))
}

// next decodes the next record that is not blank into v, and returns its
// line: 0 at the end of the file.
func (l *lines) next(v any) (int, error) {
	for l.sc.Scan() {
		l.line++
		text := bytes.TrimSpace(l.sc.Bytes())
		if len(text) == 0 {
			continue
		}
		if text[0] != '{' {
			return 0, l.errorf("not a JSON object: a line holds one record, {...}")
		}
		if err := json.Unmarshal(text, v); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) && te.Field != "" {
				return 0, l.errorf("%s is a JSON %s, want a %s", phrase.Quote(te.Field), te.Value, typeName(te.Type.Kind().String()))
			}
			return 0, l.errorf("not a JSON object: %v", err)
		}
		l.records++
		return l.line, nil
	}
	if err := l.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			l.line++
			return 0, l.errorf("longer than %d bytes", maxLine)
		}
		return 0, fmt.Errorf("%s line %d: %w", l.name, l.line+1, err)
	}
	return 0, nil
}

// typeName words a kind of Go value for an error about a JSON field.
func typeName(kind string) string {
	switch kind {
	case "int", "ptr":
		return "whole number"
	}
	return kind
}

// puzzleLine is a puzzle read, and its line (0: the end of the file).
type puzzleLine struct {
	line  int
	id    string
	board partial.Board
}

// puzzle reads the next puzzle.
func (l *lines) puzzle() (puzzleLine, error) {
	var rec puzzleRecord
	line, err := l.next(&rec)
	if err != nil || line == 0 {
		return puzzleLine{}, err
	}
	switch {
	case rec.N == nil:
		return puzzleLine{}, l.errorf(`no "n": a puzzle record holds n and the puzzle`)
	case rec.Puzzle == nil:
		return puzzleLine{}, l.errorf(`no "puzzle": a puzzle record holds n and the puzzle (an answer key of puzzle --answers only holds none)`)
	}
	b, err := partial.Parse(*rec.Puzzle)
	if err != nil {
		return puzzleLine{}, l.errorf("puzzle: %v", err)
	}
	if b.N() != *rec.N {
		return puzzleLine{}, l.errorf("the puzzle is a board of %d, and n is %d", b.N(), *rec.N)
	}
	if err := b.Check(); err != nil {
		return puzzleLine{}, l.errorf("%v: no answer can complete the puzzle", err)
	}
	id, err := l.id(rec.ID)
	return puzzleLine{line: line, id: id, board: b}, err
}

// answerLine is an answer read, and its line (0: the end of the file).
type answerLine struct {
	line   int
	id     string
	answer json.RawMessage
}

// answer reads the next answer.
func (l *lines) answer() (answerLine, error) {
	var rec answerRecord
	line, err := l.next(&rec)
	if err != nil || line == 0 {
		return answerLine{}, err
	}
	id, err := l.id(rec.ID)
	return answerLine{line: line, id: id, answer: rec.Answer}, err
}

// id reads the id of a record: a string, or a number as written; "" for
// none (no id, or null).
func (l *lines) id(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return "", nil
	case len(raw) > maxID:
		return "", l.errorf("an id of %d bytes: at most %d", len(raw), maxID)
	case raw[0] == '"':
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	case raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9':
		return string(raw), nil
	}
	return "", l.errorf("the id %s is not a string or a number", phrase.Quote(string(raw)))
}
