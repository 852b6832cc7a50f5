package resume

import (
	"context"
	"errors"
	"fmt"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/phrase"
)

// Keeper is the count.Keeper of a count that keeps its work in the state
// file at Path: the life of a state from the count's start to its end.
// Resume opens (Open) and locks the file, Keep appends each constellation
// found (Record), and End removes the file after a count whose numbers
// are right, sets it aside (SetAside) after one whose numbers are not the
// published ones, and keeps it otherwise, for the same count to resume.
// A Keeper serves one count; its methods are called one at a time.
type Keeper struct {
	// Path is the state file's.
	Path string
	// N and Shard are the count's board and shard (the zero Shard for the
	// whole board), Version the version of nqueens that counts: the
	// Header's.
	N       int
	Shard   nqueens.Shard
	Version string
	// Log, if not nil, is told what the user should know as it happens:
	// the state replaced, or resumed from, lines dropped, a write that
	// failed.
	Log func(msg string)
	// Optional says that the user named no state file (Path is the
	// default one): where it cannot be created (its directory cannot be
	// made or written), Resume says so through Log and the count goes on
	// keeping nothing, rather than failing.
	Optional bool

	st     *State
	units  int
	failed bool
}

// Resume opens the state for a count of u and returns what it holds, as
// count.Keeper describes; its errors are Open's.
func (k *Keeper) Resume(ctx context.Context, u count.Units) (map[int]uint64, error) {
	k.units = u.Len()
	st, err := Open(ctx, k.Path, NewHeader(k.N, k.Shard, u, k.Version), u)
	if ce := (*createError)(nil); k.Optional && errors.As(err, &ce) {
		k.log("the work is not kept for a resume: %v (--state FILE keeps it in another file)", err)
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	k.st = st
	if st.replaced != "" {
		k.log("replacing the state in %s: %s", st.Path(), st.replaced)
	}
	if st.dropped > 0 {
		k.log("dropped %s of the state in %s that failed a checksum or a bound, or contradicted another: their work units are searched again",
			phrase.Plural(st.dropped, "line"), st.Path())
	}
	if st.len_() > 0 {
		k.log("resuming with %s of %s work units kept in %s", phrase.Count(st.len_()), phrase.Count(u.Len()), st.Path())
	}
	return st.Known(), nil
}

// Keep records the solutions of work unit i. After a write fails it
// says so once, through Log, and records nothing more: the count goes on.
func (k *Keeper) Keep(i int, solutions uint64) {
	if k.st == nil || k.failed {
		return
	}
	if err := k.st.Record(i, solutions); err != nil {
		k.failed = true
		k.log("%v: the work from here on is not kept", err)
	}
}

// Len returns the number of work units the state holds: 0 before Resume.
func (k *Keeper) Len() int {
	if k.st == nil {
		return 0
	}
	return k.st.len_()
}

// End ends the count's state once the count is over with err, as
// count.Keeper describes, and returns the error to report: err with what
// became of the state added. With no state opened it returns err.
//   - nil: the state is removed (a failure to remove it is logged).
//   - a *nqueens.KnownError: the state is set aside (SetAside), and the
//     error names it and where it went.
//   - count.ErrOverflow: the state is kept, and the error says it cannot
//     be right and to delete it.
//   - any other: the state is kept, and the error says how much it holds
//     and to run the same count again to resume.
func (k *Keeper) End(err error) error {
	st := k.st
	k.st = nil
	switch {
	case st == nil:
		return err
	case err == nil:
		if err := st.remove(); err != nil {
			k.log("%v", err)
		}
		return nil
	case errors.As(err, new(*nqueens.KnownError)):
		bad, serr := st.setAside()
		if serr != nil {
			return fmt.Errorf("%w; counted with the state in %s, which could not be set aside (%v): delete it", err, st.Path(), serr)
		}
		return fmt.Errorf("%w; counted with the state in %s, set aside as %s", err, st.Path(), bad)
	case errors.Is(err, count.ErrOverflow):
		st.Close()
		return fmt.Errorf("%w; the state in %s cannot be right: delete it to start afresh", err, st.Path())
	}
	st.Close()
	return fmt.Errorf("%w; %s of %s work units kept in %s: run the same count again to resume", err, phrase.Count(st.len_()), phrase.Count(k.units), st.Path())
}

func (k *Keeper) log(format string, args ...any) {
	if k.Log != nil {
		k.Log(fmt.Sprintf(format, args...))
	}
}
