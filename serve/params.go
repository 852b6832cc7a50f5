package serve

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/store"
)

// paramError is a bad parameter of a request: status 400.
type paramError string

func (e paramError) Error() string { return string(e) }

// badParam returns a paramError with the text of err.
func badParam(err error) error { return paramError(err.Error()) }

// errNotServed is wrapped by the error for an n the catalog does not hold
// complete: status 404.
var errNotServed = errors.New("not served")

// notServed is an error that reads as its text and matches errNotServed.
type notServed string

func (e notServed) Error() string        { return string(e) }
func (e notServed) Is(target error) bool { return target == errNotServed }

// build returns the build of n if db holds n complete and whole, and an
// error matching errNotServed otherwise. It reads the catalog on every
// call, so an n appears as soon as its build completes.
func build(ctx context.Context, db *store.DB, n int) (store.Build, error) {
	b, err := db.Complete(ctx, n)
	switch {
	case errors.Is(err, store.ErrNotBuilt):
		return b, notServed(fmt.Sprintf("n=%d is not in the catalog", n))
	case errors.Is(err, store.ErrIncomplete) && !b.Shard.IsWhole():
		return b, notServed(fmt.Sprintf("n=%d is in the catalog as shard %s of a sharded build, not the whole board", n, b.Shard))
	case errors.Is(err, store.ErrIncomplete):
		return b, notServed(fmt.Sprintf("n=%d is being built: %s of %s work units so far", n, phrase.Count(b.UnitsDone), phrase.Count(b.UnitsTotal)))
	}
	return b, err
}

// selection reads what every view of the classes of one n starts from:
// n, written as v (a path value or parameter), the parameters of q that
// the view alone takes (read by more, if not nil), the symmetry and
// square filters of q, and, once all of those parse, the build of n in db
// (build), which must be able to filter by the square (store.Filter.Check:
// a square on its board) and, if that is a search of every class, have no
// more classes than Options.MaxSquareSearch. The first error is returned,
// of the parameter read first.
func (s *Server) selection(ctx context.Context, db *store.DB, v string, q url.Values, more func() error) (store.Build, store.Filter, error) {
	n, err := parseN(v)
	if err == nil && more != nil {
		err = more()
	}
	if err != nil {
		return store.Build{}, store.Filter{}, err
	}
	var f store.Filter
	if f.Symmetry, err = parseSymmetry(q.Get("symmetry")); err != nil {
		return store.Build{}, store.Filter{}, err
	}
	if f.Square, err = parseSquare(q.Get("square")); err != nil {
		return store.Build{}, store.Filter{}, err
	}
	b, err := build(ctx, db, n)
	if err == nil && f.Square != nil {
		// A square off the board, or one the build cannot filter by.
		if err := f.Check(b); err != nil {
			return b, f, badParam(err)
		}
	}
	if err == nil && f.Searches(b) && b.Unique > s.opts.MaxSquareSearch {
		return b, f, squareSearch{b: b, sq: *f.Square, max: s.opts.MaxSquareSearch}
	}
	return b, f, err
}

// squareSearch is the error of a square filter on an index that the server
// does not search (Options.MaxSquareSearch): answered 422, its text
// completed with the command that gives it (Advice.Square).
type squareSearch struct {
	b   store.Build
	sq  nqueens.Square
	max uint64
}

func (e squareSearch) Error() string {
	return fmt.Sprintf("n=%d is stored as an index whose prefixes fix rows 0 to %d: a queen on row %d is found by searching all %s, which this server does up to %s",
		e.b.N, e.b.IndexDepth-1, e.sq.Row, phrase.Plural(e.b.Unique, "class"), phrase.Plural(e.max, "class"))
}

// params returns the query parameters of r, or an error if the query does
// not parse, names a parameter not in allowed, or names one twice.
func params(r *http.Request, allowed ...string) (url.Values, error) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, paramError(fmt.Sprintf("query %s does not parse: %v", phrase.Quote(r.URL.RawQuery), err))
	}
	for key, values := range q {
		if !slices.Contains(allowed, key) {
			want := "none"
			if len(allowed) > 0 {
				want = strings.Join(allowed, ", ")
			}
			return nil, paramError(fmt.Sprintf("unknown parameter %s: this page takes %s", phrase.Quote(key), want))
		}
		if len(values) > 1 {
			return nil, paramError(fmt.Sprintf("parameter %s given %d times: give it once", key, len(values)))
		}
	}
	return q, nil
}

// builds returns every build the catalog records (store.DB.Builds), for
// a request that takes no parameters.
func (s *Server) builds(r *http.Request) ([]store.Build, error) {
	if _, err := params(r); err != nil {
		return nil, err
	}
	var builds []store.Build
	err := s.cat.Read(r.Context(), func(db *store.DB) (err error) {
		builds, err = db.Builds(r.Context())
		return err
	})
	return builds, err
}

// parseN reads the n of a path or parameter (nqueens.ParseN, which reads
// whole numbers as nqueens.ParseWhole does: "8", not "08").
func parseN(v string) (int, error) {
	n, err := nqueens.ParseN(v)
	if err != nil {
		return 0, badParam(err)
	}
	return n, nil
}

// parseWhole reads the parameter name as a whole number from lo to hi, as
// nqueens.ParseWhole reads whole numbers: decimal digits, no sign, no
// leading zero.
func parseWhole(name, v string, lo, hi int64) (int64, error) {
	k, err := nqueens.ParseWhole(v)
	if err != nil || k < uint64(lo) || k > uint64(hi) {
		return 0, paramError(fmt.Sprintf("%s must be a whole number from %s to %s, got %s%s", name, phrase.Count(uint64(lo)), phrase.Count(uint64(hi)), phrase.Quote(v), nqueens.WholeHint(v)))
	}
	return int64(k), nil
}

// maxClass bounds a class number parameter before it is checked against
// the classes of its n.
const maxClass = 1 << 53

// parseClass reads the class number v of the build b: a 400 if it is not a
// whole number, and a 404 (an error wrapping store.ErrNoClass) if b has no
// such class.
func parseClass(b store.Build, v string) (int64, error) {
	k, err := parseWhole("class", v, 0, maxClass)
	if err != nil {
		return 0, paramError(fmt.Sprintf("class %s: want a class number, from 1 to %s for n=%d%s", phrase.Quote(v), phrase.Count(b.Unique), b.N, nqueens.WholeHint(v)))
	}
	if k < 1 || uint64(k) > b.Unique {
		return 0, fmt.Errorf("n=%d has %s, no class %d: %w", b.N, phrase.Plural(b.Unique, "class"), k, store.ErrNoClass)
	}
	return k, nil
}

// parseSymmetry reads a symmetry filter: empty for none, else a symmetry
// or a comma list of them (nqueens.ParseSymmetries).
func parseSymmetry(v string) ([]nqueens.Symmetry, error) {
	if v == "" {
		return nil, nil
	}
	syms, err := nqueens.ParseSymmetries(v)
	if err != nil {
		return nil, badParam(err)
	}
	if symmetryParam(syms) != v {
		return nil, paramError(fmt.Sprintf("symmetry %s: write it as %s", phrase.Quote(v), symmetryParam(syms)))
	}
	return syms, nil
}

// symmetryParam writes a symmetry filter as parseSymmetry reads it.
func symmetryParam(syms []nqueens.Symmetry) string {
	names := make([]string, len(syms))
	for i, s := range syms {
		names[i] = s.String()
	}
	return strings.Join(names, ",")
}

// parseSquare reads a square filter: empty for none, else "r,c", the row
// and column of a queen from 0 (nqueens.ParseSquare), written as the
// server writes it.
func parseSquare(v string) (*nqueens.Square, error) {
	if v == "" {
		return nil, nil
	}
	sq, err := nqueens.ParseSquare(v)
	if err != nil {
		return nil, badParam(err)
	}
	if sq.String() != v {
		return nil, paramError(fmt.Sprintf("square %s: write it as %s", phrase.Quote(v), sq))
	}
	return &sq, nil
}

// squareParam writes a square filter as parseSquare reads it, "" for none.
func squareParam(sq *nqueens.Square) string {
	if sq == nil {
		return ""
	}
	return sq.String()
}
