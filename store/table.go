package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
	"sort"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
)

// A ClassTable holds, in memory, the classes of one n that a Filter
// selects, to number the class of any solution without a query: their
// canonical placements' columns, n bytes a class (about 200 MB for the 12
// million classes of n = 17 with no filter), in class order, which is
// placement order. A caller that orders every solution lexicographically
// (canonical.LexLayouts) finds each solution's class here. Its Find is
// safe for concurrent use.
type ClassTable struct {
	n         int
	f         Filter
	cols      []byte
	numbers   []uint32 // nil when the classes are numbered first, first+1, ...
	first     int64
	solutions uint64 // the solutions of the selected classes, as the build records them
}

// ClassTable reads into a ClassTable the classes of the build b that f
// selects, after checking f against b (Filter.Check). An offset or limit
// of classes is an error: a table holds a range of classes and their
// symmetries. A row that is not what the catalog promises is an error
// wrapping ErrBadRow, and a cancelled ctx is ctx's error; each error reads
// "read classes n=...: ...".
func (db *DB) ClassTable(ctx context.Context, b Build, f Filter) (*ClassTable, error) {
	if f.Offset != 0 || f.Limit != 0 {
		return nil, errors.New("lexicographic order: an offset or limit of classes has no meaning")
	}
	if err := f.Check(b); err != nil {
		return nil, err
	}
	t := &ClassTable{n: b.N, f: f, first: max(f.From, 1)}
	// The solutions of the classes selected, as the build records them;
	// of a filter whose read is a search of every class, as the classes
	// read (their orbits), so that they are searched once.
	counted := f.Searches(b)
	if !counted {
		c, err := db.tally(ctx, b, f)
		if err != nil {
			return nil, err
		}
		t.solutions = c.Total
	}
	if f.sparse() {
		t.numbers = []uint32{}
	}
	for l, err := range db.Classes(ctx, b.N, f) {
		if err != nil {
			return nil, fmt.Errorf("read classes n=%d: %w", b.N, err)
		}
		if counted {
			t.solutions += uint64(l.Symmetry.Orbit())
		}
		t.cols = append(t.cols, l.Placement.Bytes()...)
		if l.Class > math.MaxUint32 {
			return nil, fmt.Errorf("read classes n=%d: class %d: more classes than the table numbers", b.N, l.Class)
		}
		if t.numbers != nil {
			t.numbers = append(t.numbers, uint32(l.Class))
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("read classes n=%d: %w", b.N, err)
	}
	return t, nil
}

// Find returns the number of the class whose canonical placement is c and
// whose symmetry is sym, or false if the table does not hold it: c is not
// canonical, or its class is not one the table's filter selects. A
// symmetry the filter leaves out is answered without a search.
func (t *ClassTable) Find(c nqueens.Placement, sym nqueens.Symmetry) (int64, bool) {
	i, ok := t.row(c, sym)
	if !ok {
		return 0, false
	}
	return t.number(i), true
}

// row returns the index in the table of the class that Find looks up.
func (t *ClassTable) row(c nqueens.Placement, sym nqueens.Symmetry) (int, bool) {
	if !t.f.hasOrbit(sym.Orbit()) || c.N() != t.n {
		return 0, false
	}
	key := c.Bytes()
	k := len(t.cols) / t.n
	i := sort.Search(k, func(i int) bool { return bytes.Compare(t.cols[i*t.n:(i+1)*t.n], key) >= 0 })
	if i == k || !bytes.Equal(t.cols[i*t.n:(i+1)*t.n], key) {
		return 0, false
	}
	return i, true
}

// number returns the number of the class at index i of the table.
func (t *ClassTable) number(i int) int64 {
	if t.numbers != nil {
		return int64(t.numbers[i])
	}
	return t.first + int64(i)
}

// sortMax is the most solutions whose lexicographic order Layouts finds by
// sorting the solutions of the table's classes instead of searching every
// solution of n: 2^20, about a million. The sort holds n + 8 bytes a
// solution and 9 a class (about 26 MiB for a million solutions of n = 17,
// 41 MiB of n = 32) and takes under a second, where the search takes
// about a minute for n = 17 on 2 cores, whatever the table holds, and
// about 7 times as long for each n above. A test sets it to 0 to compare
// the two.
var sortMax uint64 = 1 << 20

// LexSearches reports whether ClassTable.Layouts, of a table whose classes
// have this many solutions, searches every solution of n
// (canonical.LexLayouts): with more than 2^20 it does; with fewer it
// sorts theirs, and starts at once. A caller that knows how many
// solutions a filter selects (DB.Layouts says) can tell before it reads
// the table.
func LexSearches(solutions uint64) bool { return solutions > sortMax }

// Layouts returns the solutions of the table's classes in lexicographic
// order, each with its class's number and symmetry. When the classes have
// at most 2^20 solutions (LexSearches is false), it takes the images of
// each class (canonical.Orbit) and sorts them, holding them all in memory
// (n + 8 bytes each, and 9 a class); with more, it searches every
// solution of n on workers goroutines (canonical.LexLayouts) and finds
// each in the table (Find). Both yield the same layouts: a class whose
// canonical placement the search would not find (one that is no solution,
// or not canonical) is left out of the sort too. The iterator stops at
// the first error, and when ctx is cancelled; it ends with a *CountError
// if it yielded another number of solutions than the build records for
// the selected classes, as a catalog that lost a class, or whose classes
// are not what they claim, makes it. It is single-use, and reads nothing
// from the catalog: a caller that writes to a slow client holds no read.
func (t *ClassTable) Layouts(ctx context.Context, workers int) iter.Seq2[nqueens.Layout, error] {
	return func(yield func(nqueens.Layout, error) bool) {
		layouts, ok := t.sorted(ctx)
		if !ok {
			layouts = canonical.LexLayouts(ctx, t.n, workers, t.Find)
		}
		var got uint64
		for l := range layouts {
			got++
			if !yield(l, nil) {
				return
			}
		}
		if ctx.Err() == nil && got != t.solutions {
			yield(nqueens.Layout{}, &CountError{N: t.n, Got: got, Want: t.solutions})
		}
	}
}

// sorted returns, as Layouts does, the solutions of the table's classes
// that the search of every solution would find, in lexicographic order,
// sorted in memory before it returns; like the search, the iterator ends
// early, without saying so, when ctx is cancelled. It returns false if
// the table's classes have too many solutions (LexSearches), or if those
// the search would find are more than sortMax (a catalog whose classes
// hold more solutions than it records): the caller searches instead.
func (t *ClassTable) sorted(ctx context.Context) (iter.Seq[nqueens.Layout], bool) {
	if LexSearches(t.solutions) {
		return nil, false
	}
	n := t.n
	// The classes the search finds: a solution, canonical, and the one
	// the table's lookup (row) returns for its placement.
	var rows []int
	var syms []nqueens.Symmetry
	var total uint64
	for i := range len(t.cols) / n {
		c := nqueens.FromBytes(t.cols[i*n : (i+1)*n])
		if c.Valid() != nil || canonical.Fold(c) != c {
			continue
		}
		sym := canonical.SymmetryOf(c)
		if r, ok := t.row(c, sym); !ok || r != i {
			continue
		}
		rows = append(rows, i)
		syms = append(syms, sym)
		total += uint64(sym.Orbit())
	}
	if total > sortMax {
		return nil, false
	}
	cols := make([]byte, 0, int(total)*n) // the columns of each solution
	of := make([]uint32, 0, total)        // the index in rows of each solution's class
	for k, i := range rows {
		for _, p := range canonical.Orbit(nqueens.FromBytes(t.cols[i*n : (i+1)*n])) {
			for r := range n {
				cols = append(cols, byte(p.Col(r)))
			}
			of = append(of, uint32(k))
		}
	}
	order := make([]uint32, total)
	for s := range order {
		order[s] = uint32(s)
	}
	solution := func(s uint32) []byte { return cols[int(s)*n : int(s+1)*n] }
	slices.SortFunc(order, func(a, b uint32) int { return bytes.Compare(solution(a), solution(b)) })
	return func(yield func(nqueens.Layout) bool) {
		for _, s := range order {
			if ctx.Err() != nil {
				return
			}
			k := of[s]
			if !yield(nqueens.Layout{Class: t.number(rows[k]), Placement: nqueens.FromBytes(solution(s)), Symmetry: syms[k]}) {
				return
			}
		}
	}, true
}
