package build

import (
	"context"
	"errors"
	"fmt"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/internal/balance"
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/store/internal/dbfile"
	"github.com/nqueens/nqueens/store/internal/record"
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

// Run builds n, or the given shard of n's work units, into the catalog h:
// the work of store.DB.Run, which documents it.
func Run(ctx context.Context, h *dbfile.Handle, n int, shard nqueens.Shard, opts RunOptions) (record.Build, error) {
	if st, err := record.Get(ctx, h.DB, h.Version, n); err == nil && st.Complete && st.Shard == shard {
		return st, fmt.Errorf("n=%d: %w", n, record.ErrComplete)
	}
	if err := nqueens.CheckN(n); err != nil {
		return record.Build{}, fmt.Errorf("build %w", err)
	}
	units, _, err := balance.Shard(canonical.Units(n), shard, canonical.Cost)
	if err != nil {
		return record.Build{}, fmt.Errorf("build n=%d: %w", n, err)
	}
	b, err := Begin(ctx, h, n, shard, len(units))
	if errors.Is(err, record.ErrComplete) { // completed by another process meanwhile
		st, rerr := record.Get(ctx, h.DB, h.Version, n)
		if rerr != nil {
			return record.Build{}, rerr
		}
		return st, err
	}
	if err != nil {
		return record.Build{}, err
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
			n, st.UnitsDone, st.UnitsTotal, phrase.Plural(st.Unique, "class"))
	}
	return b.Finish()
}
