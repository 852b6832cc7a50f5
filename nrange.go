package nqueens

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/internal/phrase"
)

// ParseN reads one board size written as ParseWhole reads whole numbers
// ("8"; not "08", "+8" or " 8") and checks it with CheckN. The error says
// what is allowed.
func ParseN(s string) (int, error) {
	n, err := ParseWhole(s)
	switch {
	case s == "":
		return 0, fmt.Errorf("n must be a number between 1 and %d, got an empty string", MaxN)
	case err != nil:
		return 0, fmt.Errorf("n must be a number between 1 and %d, got %s%s", MaxN, phrase.Quote(s), WholeHint(s))
	case n > math.MaxInt32:
		return 0, fmt.Errorf("n must be a number between 1 and %d, got %s", MaxN, phrase.Quote(s))
	}
	if err := CheckN(int(n)); err != nil {
		return 0, err
	}
	return int(n), nil
}

// ParseConstructN reads the size of a board for Construct, as ParseN reads
// one for a search but up to MaxConstructN.
func ParseConstructN(s string) (int, error) {
	n, err := ParseWhole(s)
	if err != nil || n < 1 || n > MaxConstructN {
		return 0, fmt.Errorf("n must be a whole number from 1 to %d, got %s%s", MaxConstructN, phrase.Quote(s), WholeHint(s))
	}
	return int(n), nil
}

// FormatNList writes board sizes, in increasing order, as ParseNList reads
// them: each run of consecutive sizes as a range, "1-3,5,7-8".
func FormatNList(ns []int) string {
	var b strings.Builder
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(ns[i]))
		if j > i {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(ns[j]))
		}
		i = j + 1
	}
	return b.String()
}

// ParseNList reads a list of board sizes: numbers (as ParseN reads them)
// and ranges separated by commas, without spaces, such as "8", "4-12",
// "1,5,9" or "1-3,7". Every n must be in
// 1..MaxN and every range must run upwards. It returns the sizes in
// increasing order, each once.
func ParseNList(s string) ([]int, error) {
	const maxLen = 256
	if len(s) > maxLen {
		return nil, fmt.Errorf("list of n is %d bytes long, at most %d allowed", len(s), maxLen)
	}
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("list of n is empty: give a number, a range like 4-12, or a list like 1,5,9")
	}
	seen := make(map[int]bool)
	for part := range strings.SplitSeq(s, ",") {
		if part == "" {
			return nil, fmt.Errorf("list of n %s has an empty item", phrase.Quote(s))
		}
		lo, hi, isRange := strings.Cut(part, "-")
		if isRange && lo == "" {
			return nil, fmt.Errorf("n must be a number between 1 and %d, got %s", MaxN, phrase.Quote(part))
		}
		if isRange && hi == "" {
			return nil, fmt.Errorf("range %s has no end: write it like 4-12", phrase.Quote(part))
		}
		a, err := ParseN(lo)
		if err != nil {
			return nil, fmt.Errorf("in %s: %w", phrase.Quote(part), err)
		}
		b := a
		if isRange {
			if b, err = ParseN(hi); err != nil {
				return nil, fmt.Errorf("in range %s: %w", phrase.Quote(part), err)
			}
			if b < a {
				return nil, fmt.Errorf("range %s runs backwards: write %d-%d", phrase.Quote(part), b, a)
			}
		}
		for n := a; n <= b; n++ {
			seen[n] = true
		}
	}
	out := make([]int, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	slices.Sort(out)
	return out, nil
}

// ParseNArgs reads the board sizes of several arguments, each a list
// ParseNList reads, and returns them in the order the arguments give them
// (each list in increasing order), each once: "12" "8-9" "9" is 12, 8, 9.
// It returns the error of the first argument that is not a list of n.
func ParseNArgs(args []string) ([]int, error) {
	var out []int
	for _, arg := range args {
		ns, err := ParseNList(arg)
		if err != nil {
			return nil, err
		}
		for _, n := range ns {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out, nil
}

// ListError is the error of ParseOneN for a list of several n, such as
// "8-10", where one n is wanted.
type ListError struct {
	List string // as given
	N    []int  // the n of the list, as ParseNList reads them
}

func (e *ListError) Error() string {
	return fmt.Sprintf("one n is wanted, got the list %s", phrase.Quote(e.List))
}

// ParseOneN reads one board size, as ParseN does, and where it is given a
// list of several n (a range or commas, as ParseNList reads them) it
// returns a *ListError saying so, instead of ParseN's error.
func ParseOneN(s string) (int, error) {
	n, err := ParseN(s)
	if err == nil {
		return n, nil
	} else if ns, lerr := ParseNList(s); lerr == nil && len(ns) > 1 {
		return 0, &ListError{List: s, N: ns}
	}
	return 0, err
}

// ParseClassRange reads an inclusive range of class numbers, "K-L", or one
// class, "K": whole numbers from 1 as ParseWhole reads them, K at most L.
func ParseClassRange(s string) (from, to int64, err error) {
	lo, hi, isRange := strings.Cut(s, "-")
	if !isRange {
		hi = lo
	}
	from, err1 := parseClass(lo)
	to, err2 := parseClass(hi)
	switch {
	case err1 != nil || err2 != nil:
		return 0, 0, fmt.Errorf("classes %s: want K-L with whole numbers from 1, such as 10-19%s", phrase.Quote(s), cmp.Or(WholeHint(lo), WholeHint(hi)))
	case from > to:
		return 0, 0, fmt.Errorf("classes %s: the range runs downwards: want K-L with K at most L", phrase.Quote(s))
	}
	return from, to, nil
}

// parseClass reads a class number as ParseWhole reads whole numbers: 1 to
// math.MaxInt64. The error wraps ParseWhole's, or says what is allowed.
func parseClass(s string) (int64, error) {
	k, err := ParseWhole(s)
	if err == nil && (k < 1 || k > math.MaxInt64) {
		err = errors.New("want a class number from 1")
	}
	if err != nil {
		return 0, err
	}
	return int64(k), nil
}
