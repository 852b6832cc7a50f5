package main

// The advice the command adds to errors and messages: each is a command
// that works as printed, on the same catalog (a test runs each one).

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/config"
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/store"
)

// advice words the commands the program advises for the catalog db: with
// --db when db is not the default catalog, so that a command copied from
// a message works on the catalog the message is about.
type advice struct {
	db       string
	maxRowsN int // the largest n build stores as rows (max_rows_n)
}

// advice returns the advice for a's catalog.
func (a *app) advice() advice { return advice{db: a.cfg.DB, maxRowsN: a.cfg.MaxRowsN} }

// command returns "nqueens" and args, then --db and the catalog's path,
// quoted for a shell where it needs it, unless the catalog is the default.
func (v advice) command(args ...string) string {
	s := "nqueens " + strings.Join(args, " ")
	if v.db != "" && v.db != config.Defaults.DB {
		s += " --db " + shellQuote(v.db)
	}
	return s
}

// plainWord matches a word a shell reads as it is.
var plainWord = regexp.MustCompile(`^[A-Za-z0-9_./:@%+=,-]+$`)

// shellQuote quotes s for a POSIX shell, in single quotes unless every
// character of it is plain.
func shellQuote(s string) string {
	if plainWord.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// build returns the command that builds the n of ns into the catalog in
// the form a new build of them takes.
func (v advice) build(ns ...int) string {
	return v.command("build", nqueens.FormatNList(ns))
}

// defaultStart is the build advised to make a catalog when no n is named:
// a few seconds' work.
const defaultStart = "1-14"

// advise adds to a store.IncompleteError the command that completes n: a
// build of n that goes on in the form it was started in (rows above
// max_rows_n with --max-rows-n, an index below it with --index), or, for one
// shard of a sharded build, the merge of the shard catalogs. Before the
// build of an n not in the catalog it says how long that build would take
// where it is long (buildTime). Other errors it returns as they are.
func (a *app) advise(ctx context.Context, err error) error {
	var ie *store.IncompleteError
	v := a.advice()
	switch {
	case !errors.As(err, &ie):
		return err
	case ie.Sharded():
		return fmt.Errorf("%w: merge the shard catalogs into a whole one first (nqueens merge WHOLE.db %s OTHER-SHARDS.db...)", err, shellQuote(ie.Path))
	case errors.Is(err, store.ErrNotBuilt) && ie.N > v.maxRowsN:
		return fmt.Errorf("%w: %s%s", err, a.buildTime(ctx, ie.N), v.index(ie.N))
	case errors.Is(err, store.ErrNotBuilt):
		return fmt.Errorf("%w: %srun %s first", err, a.buildTime(ctx, ie.N), v.build(ie.N))
	}
	return fmt.Errorf("%w: run %s to finish it", err, v.finish(ie.N, ie.Build.Form))
}

// finish returns the command that resumes an unfinished build of n held
// in form f, which a build of n must be given when its default form for
// n is the other one.
func (v advice) finish(n int, f store.Form) string {
	switch {
	case f == store.FormIndex && n <= v.maxRowsN:
		return v.command("build", strconv.Itoa(n), "--index")
	case f == store.FormRows && n > v.maxRowsN:
		return v.command("build", strconv.Itoa(n), "--max-rows-n", strconv.Itoa(n))
	}
	return v.build(n)
}

// buildAdvice names the command that puts n in the catalog, after how
// long it would take where that is long (buildTime).
func (a *app) buildAdvice(ctx context.Context, n int) string {
	v := a.advice()
	if n > v.maxRowsN {
		return a.buildTime(ctx, n) + v.index(n)
	}
	return a.buildTime(ctx, n) + v.build(n) + " makes it"
}

// buildTime says how long building n would take on this machine, where
// count --estimate puts it at a minute or more (estimate.Long), and ends
// with "; " to go before the command that builds it: "building it would
// take longer than counting it by constellations, about 26 years on 2
// cores (nqueens count 25 --estimate --engine cpu); ". A build runs the
// class search, which is slower than the count by constellations (about
// 1.4 times; count --class-search runs it), so that estimate is its
// floor. The count it names has no --db (count reads no catalog) and
// has the estimate's --workers where they are set. For a build of
// seconds, and where the machine's rate cannot be measured (ctx
// cancelled), it says nothing: "". It measures the rate only for an n
// whose count may be long (above 17).
func (a *app) buildTime(ctx context.Context, n int) string {
	e, long, err := a.estimator().Long(ctx, n, false)
	if err != nil || !long {
		return ""
	}
	workers := ""
	if a.cfg.Workers > 0 {
		workers = fmt.Sprintf(" --workers %d", a.cfg.Workers)
	}
	return fmt.Sprintf("building it would take longer than counting it by constellations, %s (nqueens count %d --estimate --engine cpu%s); ", e.Time(), n, workers)
}

// index says, for an n above max_rows_n, that build makes its index, not
// its rows, and why.
func (v advice) index(n int) string {
	return fmt.Sprintf("%s makes its index, %s, as n=%d is above max_rows_n %d", v.build(n), notRows(n), n, v.maxRowsN)
}

// notRows says what the rows of n would take, for a build that stores
// its index instead: "not its 9,233 rows (about 234.4 KiB)".
func notRows(n int) string {
	rows, bytes, ok := store.RowsSize(n)
	if !ok {
		return "not its rows (more than OEIS has counted)"
	}
	return fmt.Sprintf("not its %s (about %s)", phrase.Plural(rows, "row"), phrase.Bytes(bytes))
}

// verify returns the command that verifies n.
func (v advice) verify(n int) string { return v.command("verify", strconv.Itoa(n)) }

// openAdvice adds to the error of a catalog that cannot be opened for
// reading what to do about it: for a path that holds no catalog
// (store.ErrNoCatalog: a missing file, or store.ErrEmptyCatalog: an empty
// one), how to make one; for a write that a killed process left
// unfinished and only the catalog's owner may roll back
// (store.ErrHotJournal), how to roll it back. The build it advises is
// of ns, the board sizes the caller reads, if it names them, else of
// 1-14. Other errors, and nil, it returns as they are. nqueens serve adds
// the same to the errors its pages show, with the default advice.
func openAdvice(err error, ns ...int) error { return advice{}.open(err, ns...) }

// open is openAdvice for v's catalog.
func (v advice) open(err error, ns ...int) error {
	build := v.command("build", defaultStart)
	if len(ns) > 0 {
		build = v.build(ns...)
	}
	switch {
	case errors.Is(err, store.ErrEmptyCatalog):
		return fmt.Errorf("%w (run %s to make it a catalog)", err, build)
	case errors.Is(err, store.ErrNoCatalog):
		return fmt.Errorf("%w (run %s to make one)", err, build)
	case errors.Is(err, store.ErrHotJournal):
		return fmt.Errorf("%w; run a writing command such as nqueens build as the catalog's owner to roll it back", err)
	}
	return err
}
