package query

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
	"github.com/nqueens/nqueens/enumerate"
	"github.com/nqueens/nqueens/internal/parallel"
	"github.com/nqueens/nqueens/store/internal/dbfile"
	"github.com/nqueens/nqueens/store/internal/record"
)

// classTable is the classes of one n that a filter selects, to find the
// class of a canonical placement in memory: their placements' columns, n
// bytes each, in class order (which is placement order), and their
// numbers, or, when the classes are a whole range, the number of the
// first.
type classTable struct {
	n       int
	cols    []byte
	numbers []uint32 // nil when the classes are numbered first, first+1, ...
	first   int64
}

// find returns the number of the class whose canonical placement is c, or
// false if the table does not hold it.
func (t *classTable) find(c nqueens.Placement) (int64, bool) {
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

// loadClassTable reads the classes of n that f selects (its offset and
// limit aside) into a classTable.
func loadClassTable(ctx context.Context, h *dbfile.Handle, n int, f Filter) (*classTable, error) {
	f.Offset, f.Limit = 0, 0
	t := &classTable{n: n, first: max(f.From, 1)}
	if len(f.Symmetry) > 0 {
		t.numbers = []uint32{}
	}
	for l, err := range Classes(ctx, h, n, f) {
		if err != nil {
			return nil, err
		}
		t.cols = append(t.cols, l.Placement.Bytes()...)
		if l.Class > math.MaxUint32 {
			return nil, fmt.Errorf("class %d: more classes than the table numbers", l.Class)
		}
		if t.numbers != nil {
			t.numbers = append(t.numbers, uint32(l.Class))
		}
	}
	return t, ctx.Err()
}

// lexLayouts yields the solutions of the build b whose classes f selects,
// in lexicographic order, each with its class number and symmetry: the
// plain search on workers goroutines, each solution folded
// (canonical.Identify) and its class found in a table of the selected
// classes read from the catalog once, n bytes a class (about 200 MB for
// the 12 million classes of n = 17 with no filter).
func lexLayouts(ctx context.Context, h *dbfile.Handle, b record.Build, f Filter, workers int) (iter.Seq2[nqueens.Layout, error], error) {
	if f.Offset != 0 || f.Limit != 0 {
		return nil, errors.New("lexicographic order: an offset or limit of classes has no meaning")
	}
	return func(yield func(nqueens.Layout, error) bool) {
		table, err := loadClassTable(ctx, h, b.N, f)
		if err != nil {
			yield(nqueens.Layout{}, fmt.Errorf("read classes n=%d: %w", b.N, err))
			return
		}
		units := enumerate.Units(b.N)
		work := func(i int, stop *parallel.Stop) []nqueens.Layout {
			var out []nqueens.Layout
			for p := range units[i].Solutions() {
				if stop.Stopped() {
					return nil
				}
				id := canonical.Identify(p)
				if !f.hasOrbit(id.Symmetry.Orbit()) {
					continue
				}
				if k, ok := table.find(id.Canonical); ok {
					out = append(out, nqueens.Layout{Class: k, Placement: p, Symmetry: id.Symmetry})
				}
			}
			return out
		}
		for _, batch := range parallel.Ordered(ctx, len(units), workers, work) {
			for _, l := range batch {
				if !yield(l, nil) {
					return
				}
			}
		}
	}, nil
}
