package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
)

// RunOptions tune Run. The zero value searches on all cores and reports
// nothing.
type RunOptions struct {
	// Workers is how many goroutines search work units: all cores when
	// less than 1.
	Workers int
	// Start, if not nil, is called once, when the build has begun and
	// before the search: from is the first work unit still to search (0
	// unless an earlier run stopped part way), total the build's work
	// units, and stored the classes the catalog holds of them already.
	Start func(from, total int, stored uint64)
	// Progress, if not nil, is called after each work unit's classes are
	// handed to the catalog, with the units done so far (the unit just
	// added is done-1) and the total. It runs on Run's goroutine: the
	// search waits for it.
	Progress func(done, total int)
}

// Run builds n, or the given shard of n's work units (the zero Shard for
// the whole board), into the catalog: it splits n's search into work
// units (canonical.Units, canonical.ShardUnits), begins or resumes the
// build (see BeginShard), searches the units it still needs on
// opts.Workers goroutines and adds their classes in order, and finishes
// the build. It returns the build as recorded.
//
// If the catalog already holds n complete, for the same shard, Run does
// nothing and returns that build with an error wrapping ErrComplete. When
// ctx is cancelled, Run commits the work units done so far and returns the
// build as committed with an error saying how far it got and that running
// the same build again resumes it. Other errors are those of BeginShard
// (ErrBusy, ErrShardMismatch, ErrOrphans, ErrReadOnly, a shard that n's
// units cannot be split into), Add and Finish; a build that fails part
// way keeps what it last committed, and a later Run resumes from there.
func (db *DB) Run(ctx context.Context, n int, shard nqueens.Shard, opts RunOptions) (Build, error) {
	if st, err := db.Build(ctx, n); err == nil && st.Complete && st.Shard == shard {
		return st, fmt.Errorf("n=%d: %w", n, ErrComplete)
	}
	units, err := canonical.UnitsOf(n, shard)
	if err != nil {
		return Build{}, fmt.Errorf("build %w", err)
	}
	b, err := db.BeginShard(ctx, n, shard, len(units))
	if errors.Is(err, ErrComplete) { // completed by another process meanwhile
		st, rerr := db.Build(ctx, n)
		if rerr != nil {
			return Build{}, rerr
		}
		return st, err
	}
	if err != nil {
		return Build{}, err
	}
	defer b.Close()
	from := b.Resume()
	if opts.Start != nil {
		opts.Start(from, len(units), b.State().Unique)
	}
	for i, batch := range canonical.UnitClasses(ctx, units, from, opts.Workers) {
		if err := b.Add(i, batch); err != nil {
			return b.State(), err
		}
		if opts.Progress != nil {
			opts.Progress(i+1, len(units))
		}
	}
	if ctx.Err() != nil {
		st := b.State()
		if err := b.Close(); err != nil {
			return st, err
		}
		return st, fmt.Errorf("interrupted: n=%d stopped after %d of %d work units with %s stored; run the same build again to resume",
			n, st.UnitsDone, st.UnitsTotal, classCount(st.Unique))
	}
	return b.Finish()
}

// classCount writes k classes, as "1 class" or "k classes".
func classCount(k uint64) string {
	if k == 1 {
		return "1 class"
	}
	return fmt.Sprintf("%d classes", k)
}
