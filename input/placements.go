package input

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"

	"github.com/nqueens/nqueens"
)

// maxLine bounds a line ReadPlacements reads.
const maxLine = 1 << 16

// ReadPlacements reads placements from r, one a line, in any of the forms
// nqueens.Parse reads ("4 6 1 5 2 0 7 3", "4,6,1,5,2,0,7,3", "[4, 6, ...]")
// or as the JSON objects of an NDJSON export (their "placement", checked
// against their "n"); blank lines are skipped. With format "leetcode" it
// reads JSON values instead, each a board as LeetCode 51 draws it (an
// array of rows such as ".Q..") or an array of boards, as the leetcode
// export writes. A placement with two queens in one column is refused. It
// yields each placement, or an error naming the line (or the board) and
// what is wrong, after which it stops.
func ReadPlacements(r io.Reader, format string) iter.Seq2[nqueens.Placement, error] {
	if format == "leetcode" {
		return readGrids(r)
	}
	return func(yield func(nqueens.Placement, error) bool) {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 4096), maxLine)
		for line := 1; sc.Scan(); line++ {
			text := bytes.TrimSpace(sc.Bytes())
			if len(text) == 0 {
				continue
			}
			p, err := parseLine(text)
			if err != nil {
				yield(p, fmt.Errorf("line %d: %w", line, err))
				return
			}
			if !yield(p, nil) {
				return
			}
		}
		if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
			yield(nqueens.Placement{}, fmt.Errorf("a line is longer than %d bytes: not a placement", maxLine))
		} else if err != nil {
			yield(nqueens.Placement{}, err)
		}
	}
}

// parseLine reads one line of ReadPlacements.
func parseLine(text []byte) (nqueens.Placement, error) {
	if text[0] != '{' {
		p, ok := parseColumns(text)
		var err error
		if !ok {
			// Parse says what is wrong.
			p, err = nqueens.Parse(string(text))
		}
		if err == nil {
			err = p.CheckPermutation()
		}
		return p, err
	}
	var obj struct {
		N         *int  `json:"n"`
		Placement []int `json:"placement"`
	}
	if err := json.Unmarshal(text, &obj); err != nil {
		return nqueens.Placement{}, fmt.Errorf("not a JSON object of an export: %v", err)
	}
	p, err := nqueens.New(obj.Placement)
	switch {
	case obj.Placement == nil:
		return p, errors.New(`the object has no "placement"`)
	case err != nil:
		return p, err
	case obj.N != nil && *obj.N != p.N():
		return p, fmt.Errorf(`"n" is %d but "placement" has %d columns`, *obj.N, p.N())
	}
	return p, p.CheckPermutation()
}

// parseColumns reads the columns form of nqueens.Parse without
// allocating: decimal columns separated by spaces, tabs or commas,
// optionally in brackets. It reports false for anything else, or for a
// placement Parse would refuse, leaving the message to Parse.
func parseColumns(text []byte) (nqueens.Placement, bool) {
	if len(text) > 4*nqueens.MaxN*4 {
		return nqueens.Placement{}, false // Parse's limit
	}
	if len(text) > 1 && text[0] == '[' && text[len(text)-1] == ']' {
		text = text[1 : len(text)-1]
	}
	var cols [nqueens.MaxN]uint8
	n, c, inNum := 0, 0, false
	for _, b := range text {
		switch {
		case b >= '0' && b <= '9':
			if c = c*10 + int(b-'0'); c >= nqueens.MaxN || (inNum && c == int(b-'0')) {
				return nqueens.Placement{}, false // too large, or a leading zero
			}
			inNum = true
		case b == ' ' || b == ',' || b == '\t':
			if inNum {
				if n == nqueens.MaxN {
					return nqueens.Placement{}, false
				}
				cols[n], n, c, inNum = uint8(c), n+1, 0, false
			}
		default:
			return nqueens.Placement{}, false
		}
	}
	if inNum {
		if n == nqueens.MaxN {
			return nqueens.Placement{}, false
		}
		cols[n], n = uint8(c), n+1
	}
	if n == 0 {
		return nqueens.Placement{}, false
	}
	for _, c := range cols[:n] {
		if int(c) >= n {
			return nqueens.Placement{}, false
		}
	}
	return nqueens.FromBytes(cols[:n]), true
}

// readGrids reads the JSON values of ReadPlacements' leetcode format.
func readGrids(r io.Reader) iter.Seq2[nqueens.Placement, error] {
	return func(yield func(nqueens.Placement, error) bool) {
		dec := json.NewDecoder(r)
		for value := 1; ; value++ {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err == io.EOF {
				return
			} else if err != nil {
				yield(nqueens.Placement{}, fmt.Errorf("value %d: not JSON: %v", value, err))
				return
			}
			var boards [][]string
			var board []string
			if err := json.Unmarshal(raw, &board); err == nil {
				boards = [][]string{board}
			} else if err := json.Unmarshal(raw, &boards); err != nil {
				yield(nqueens.Placement{}, fmt.Errorf(`value %d: want a board (an array of rows such as ".Q..") or an array of boards`, value))
				return
			}
			for i, rows := range boards {
				p, err := nqueens.ParseGrid(rows)
				if err == nil {
					err = p.CheckPermutation()
				}
				if err != nil {
					where := fmt.Sprintf("value %d", value)
					if len(boards) > 1 {
						where += fmt.Sprintf(", board %d", i+1)
					}
					yield(p, fmt.Errorf("%s: %w", where, err))
					return
				}
				if !yield(p, nil) {
					return
				}
			}
		}
	}
}

// ParsePlacement reads one placement written in one of ReadPlacements'
// forms: in format "" (or "columns") the columns or an NDJSON export's
// object, in format "leetcode" one board as a JSON array of rows. Like
// ReadPlacements it refuses two queens in one column. The error says what
// is wrong, without naming a line.
func ParsePlacement(s, format string) (nqueens.Placement, error) {
	text := bytes.TrimSpace([]byte(s))
	if format != "leetcode" && bytes.ContainsAny(text, "\r\n") {
		return nqueens.Placement{}, errors.New("one board, on one line")
	}
	if format != "leetcode" {
		if len(text) == 0 {
			return nqueens.Placement{}, errors.New("no columns")
		}
		return parseLine(text)
	}
	var rows []string
	if err := json.Unmarshal(text, &rows); err != nil {
		return nqueens.Placement{}, errors.New(`want one board: a JSON array of rows such as ".Q.."`)
	}
	p, err := nqueens.ParseGrid(rows)
	if err == nil {
		err = p.CheckPermutation()
	}
	return p, err
}
