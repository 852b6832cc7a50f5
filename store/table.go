package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"iter"
	"math"
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
	c, err := db.tally(ctx, b, f)
	if err != nil {
		return nil, err
	}
	t := &ClassTable{n: b.N, f: f, first: max(f.From, 1), solutions: c.Total}
	if f.sparse() {
		t.numbers = []uint32{}
	}
	for l, err := range db.Classes(ctx, b.N, f) {
		if err != nil {
			return nil, fmt.Errorf("read classes n=%d: %w", b.N, err)
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
	if !t.f.hasOrbit(sym.Orbit()) || c.N() != t.n {
		return 0, false
	}
	key := c.Bytes()
	k := len(t.cols) / t.n
	i := sort.Search(k, func(i int) bool { return bytes.Compare(t.cols[i*t.n:(i+1)*t.n], key) >= 0 })
	if i == k || !bytes.Equal(t.cols[i*t.n:(i+1)*t.n], key) {
		return 0, false
	}
	if t.numbers != nil {
		return int64(t.numbers[i]), true
	}
	return t.first + int64(i), true
}

// Layouts returns the solutions of the table's classes in lexicographic
// order, each with its class's number and symmetry: the search of every
// solution of n on workers goroutines (canonical.LexLayouts), each found
// in the table (Find). The iterator stops at the first error, and when ctx
// is cancelled; it ends with a *CountError if the search yielded another
// number of solutions than the build records for the selected classes, as
// a catalog that lost a class, or whose classes are not what they claim,
// makes it. It is
// single-use, and reads nothing from the catalog: a caller that writes to
// a slow client holds no read.
func (t *ClassTable) Layouts(ctx context.Context, workers int) iter.Seq2[nqueens.Layout, error] {
	return func(yield func(nqueens.Layout, error) bool) {
		var got uint64
		for l := range canonical.LexLayouts(ctx, t.n, workers, t.Find) {
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
