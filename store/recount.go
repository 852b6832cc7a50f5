package store

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/internal/parallel"
	"github.com/nqueens/nqueens/internal/phrase"
)

// RecountOptions tune Recount. The zero value checks everything on all
// cores and reports nothing.
type RecountOptions struct {
	// Sample, if not nil, chooses the prefixes of an index to search
	// again: given how many prefixes the index holds, it returns the
	// numbers (from 0) of those to search, or nil for all of them. The
	// rest of the index is checked as every reader checks it (its
	// blocks, their sums, its symmetric classes). Rows are read whole.
	Sample func(prefixes int64) map[int64]bool
	// Workers is how many goroutines search an index again: all cores
	// when less than 1.
	Workers int
	// Progress, if not nil, is called as the classes are checked, with
	// how many since its last call: every few thousand rows, or the
	// classes under each batch of an index's prefixes as they are
	// searched (or passed, when sampled). The calls add up to the build's
	// classes when nothing stops the recount.
	Progress func(classes uint64)
	// Problem, if not nil, is told each fault found, one sentence each.
	Problem func(string)
}

// Recount checks the classes of the build b as its form stores them, and
// returns the counts they add up to. Of rows, every row is read and
// checked (a bad row is a problem, and the reading goes on). Of an index,
// every block is read and checked, every prefix (or a sample of them) is
// searched again and its classes, solutions and symmetric classes compared
// with what the index records, and the symmetric classes are checked as
// listed. ok is false when the counts found say nothing of the build's (a
// broken chain of blocks, reported as a problem). The caller compares the
// counts with the build's and the published ones. An error is returned
// when the catalog cannot be read (SQLite reports it corrupt) or ctx is
// cancelled.
func (db *DB) Recount(ctx context.Context, b Build, o RecountOptions) (got nqueens.Counts, ok bool, err error) {
	if o.Problem == nil {
		o.Problem = func(string) {}
	}
	if o.Progress == nil {
		o.Progress = func(uint64) {}
	}
	return db.form(b, b.N).recount(ctx, o)
}

// recountEvery is how many rows are read between two calls of
// RecountOptions.Progress.
const recountEvery = 4096

// recount is Recount of the rows.
func (r rowsRead) recount(ctx context.Context, o RecountOptions) (nqueens.Counts, bool, error) {
	var got nqueens.Counts
	var k uint64
	for l, err := range r.db.Classes(ctx, r.n, Filter{}) {
		if k++; k == recountEvery {
			o.Progress(k)
			k = 0
		}
		var bad *rowError
		switch {
		case errors.As(err, &bad):
			for _, p := range bad.Problems {
				o.Problem(fmt.Sprintf("class %d%s %s", l.Class, bad.Stored(), p))
			}
		case err != nil && (errors.Is(err, ErrCorrupt) || ctx.Err() != nil):
			return got, false, err
		case err != nil:
			o.Problem(fmt.Sprintf("unreadable row: %v", err))
			continue
		}
		if l.Placement.N() != 0 {
			got.Add(l.Symmetry)
		}
	}
	o.Progress(k)
	return got, true, ctx.Err()
}

// recount is Recount of the index.
func (r indexRead) recount(ctx context.Context, o RecountOptions) (nqueens.Counts, bool, error) {
	db, b := r.db, r.b
	var got nqueens.Counts
	prefixes, _, err := db.indexSize(ctx, b)
	var chosen map[int64]bool // nil: all
	switch {
	case errors.Is(err, ErrBadRow):
		// The walk of the prefixes below reports the fault; a sample of
		// an index whose size does not read searches none.
		if o.Sample != nil {
			chosen = map[int64]bool{}
		}
	case err != nil:
		return got, false, err
	case o.Sample != nil:
		chosen = o.Sample(prefixes)
	}
	// The symmetric classes the index lists, checked row by row as read.
	var symmetric []nqueens.Layout
	for l, err := range db.Classes(ctx, b.N, Filter{Symmetry: []nqueens.Symmetry{nqueens.SymRot180, nqueens.SymRot90, nqueens.SymFull}}) {
		var bad *rowError
		switch {
		case errors.As(err, &bad):
			for _, p := range bad.Problems {
				o.Problem(fmt.Sprintf("symmetric class %d%s %s", l.Class, bad.Stored(), p))
			}
			continue
		case err != nil && (errors.Is(err, ErrCorrupt) || ctx.Err() != nil):
			return got, false, err
		case err != nil:
			o.Problem(fmt.Sprintf("unreadable row: %v", err))
			continue
		}
		symmetric = append(symmetric, l)
		got.Add(l.Symmetry)
	}
	// The prefixes to search, in batches searched on all cores.
	var batch []indexPrefix
	var passed uint64 // classes under the prefixes passed, not yet reported
	next := 0         // the first symmetric class not yet matched with a prefix
	search := func() {
		results := make([]canonical.Tally, len(batch))
		parallel.Each(ctx, len(batch), o.Workers, func(i int, _ *parallel.Stop) {
			results[i] = canonical.TallyUnit(batch[i].Unit)
		})
		if ctx.Err() != nil {
			return
		}
		for i, p := range batch {
			t := results[i]
			if t.Counts.Unique != p.Classes || t.Counts.Total != p.Solutions {
				o.Problem(fmt.Sprintf("index prefix %d (%v) holds %s of %s, the index records %s of %s",
					p.Index, p.Unit.Prefix(), phrase.Plural(t.Counts.Unique, "class"), phrase.Plural(t.Counts.Total, "solution"), phrase.Count(p.Classes), phrase.Count(p.Solutions)))
			}
			// The listed symmetric classes under the prefix are the ones found.
			for next < len(symmetric) && uint64(symmetric[next].Class) <= p.ClassesBefore {
				next++
			}
			var listed []nqueens.Layout
			for j := next; j < len(symmetric) && uint64(symmetric[j].Class) <= p.ClassesBefore+p.Classes; j++ {
				listed = append(listed, symmetric[j])
			}
			for j := range t.Symmetric {
				t.Symmetric[j].Class += int64(p.ClassesBefore)
			}
			if !slices.Equal(listed, t.Symmetric) {
				o.Problem(fmt.Sprintf("index prefix %d (%v) holds %d symmetric classes (%v), the index lists %d there (%v)",
					p.Index, p.Unit.Prefix(), len(t.Symmetric), t.Symmetric, len(listed), listed))
			}
		}
		batch = batch[:0]
		o.Progress(passed)
		passed = 0
	}
	var sums nqueens.Counts
	for p, err := range db.prefixes(ctx, b) {
		if errors.Is(err, ErrBadRow) {
			// The sums of a broken chain of blocks say nothing more.
			o.Problem(err.Error())
			search()
			return got, false, ctx.Err()
		} else if err != nil {
			return got, false, err
		}
		sums.Unique += p.Classes
		sums.Total += p.Solutions
		passed += p.Classes
		if chosen == nil || chosen[p.Index] {
			batch = append(batch, p)
		}
		if len(batch) == 4096 || passed >= 1<<20 {
			search()
		}
	}
	search()
	if err := ctx.Err(); err != nil {
		return got, false, err
	}
	got.Orbit8 = sums.Unique - got.Orbit4 - got.Orbit2 - got.Orbit1
	got.Unique, got.Total = sums.Unique, sums.Total
	return got, true, nil
}
