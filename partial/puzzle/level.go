package puzzle

import (
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/nqueens/nqueens/internal/phrase"
)

// Level is how hard a puzzle is, graded by the nodes of its search
// (Result.Nodes) against the cube of n, so that each level holds about the
// same share of the puzzles of every n from 10 to 16 (a sixth easy, a
// fifth hard; smaller n have fewer hard puzzles):
//
//	easy    32 × nodes <= n³, or nodes = the empty rows (no wrong move)
//	medium  8 × nodes <= n³, and not easy
//	hard    8 × nodes > n³
//
// For n = 8 that is easy up to 16 nodes and hard above 64; for n = 12, 54
// and 216; for n = 16, 128 and 512. A search that makes no wrong move, a
// queen a row at the first free square, is easy for every n. The level is
// a function of the board alone, so the same puzzle has the same level
// however it was made.
type Level uint8

// The levels, from the easiest.
const (
	Easy Level = iota + 1
	Medium
	Hard
)

// levelNames are the names of the levels, by Level - 1.
var levelNames = [...]string{"easy", "medium", "hard"}

// String returns the level's name: easy, medium or hard.
func (l Level) String() string {
	if l < Easy || l > Hard {
		return fmt.Sprintf("Level(%d)", l)
	}
	return levelNames[l-1]
}

// ParseLevel reads the name of a Level, not case-sensitive. For another
// name it returns an error naming those allowed.
func ParseLevel(name string) (Level, error) {
	for i, s := range levelNames {
		if strings.EqualFold(name, s) {
			return Level(i + 1), nil
		}
	}
	return 0, fmt.Errorf("unknown difficulty %s: must be one of %s", phrase.Quote(name), strings.Join(levelNames[:], ", "))
}

// levelOf returns the level of a puzzle of n with empty rows to fill whose
// search visits nodes (see Level).
func levelOf(n, empty int, nodes uint64) Level {
	cube := uint64(n) * uint64(n) * uint64(n)
	switch {
	case 32*nodes <= cube || nodes <= uint64(empty):
		return Easy
	case 8*nodes <= cube:
		return Medium
	}
	return Hard
}

// errLevel is wrapped by the error OfLevel yields when the first
// levelTries puzzles hold none of the level asked for.
var errLevel = errors.New("no puzzle of that level")

// levelTries is how many puzzles OfLevel draws before it gives up on a
// level that none of them has: enough to find a level that one puzzle in a
// thousand has with a chance of failure below 10^-4.
const levelTries = 10_000

// LevelDraws returns how many puzzles to draw for count of one level: 100
// × count + 10,000, enough for a level that one puzzle in fifty has
// (every level of every n from 8 to 16: the rarest, the hard puzzles of
// n = 9, are one in 37), and at most MaxCount.
func LevelDraws(count int) int {
	return int(min(int64(count)*100+levelTries, MaxCount))
}

// OfLevel yields the puzzles of seq of level l, in the order of seq, as
// the same draws would be made without it: the puzzles of a level are
// drawn by rejection, so each board of that level comes up with the
// probability it has among all puzzles. It ends when seq ends; when the
// first 10,000 puzzles of seq hold none of level l it yields an error
// that says so and ends. An error of seq is yielded and ends the
// iteration. The iterator is single-use if seq is.
func OfLevel(seq iter.Seq2[Result, error], n int, l Level) iter.Seq2[Result, error] {
	return func(yield func(Result, error) bool) {
		drawn, found := 0, 0
		for r, err := range seq {
			if err != nil {
				yield(r, err)
				return
			}
			drawn++
			if r.Level == l {
				found++
				if !yield(r, nil) {
					return
				}
			} else if found == 0 && drawn == levelTries {
				yield(Result{}, fmt.Errorf("puzzle: n=%d: %w: none of %s is %s (%s puzzles of n=%d are too rare, or there are none: the levels' thresholds grow as n³)", n, errLevel, phrase.Plural(drawn, "draw"), l, l, n))
				return
			}
		}
	}
}
