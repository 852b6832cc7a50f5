package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/store/internal/dbfile"
)

// Build is what the catalog records of one board size: n, its counts so
// far, whether it is complete, its work units done and in all, when it
// started and finished, the seconds spent, and the shard it holds.
// Build.Finished tells whether it holds every class of n; Build.MarshalJSON
// writes it as nqueens stats --json does.
type Build struct {
	N int
	nqueens.Counts
	// Complete is true once every work unit's classes are stored; until
	// then the counts cover only the first UnitsDone units.
	Complete   bool
	UnitsDone  int
	UnitsTotal int
	// StartedAt is when the first run of the build started, FinishedAt when
	// it completed (zero while incomplete).
	StartedAt  time.Time
	FinishedAt time.Time
	// Seconds is the time spent building, summed over the runs.
	Seconds float64
	// Shard says which shard of n's work units the build holds; it is the
	// zero Shard for a build of the whole board.
	Shard nqueens.Shard
	// Form says how the catalog holds the classes: a row each, or the
	// index of the class search (see Form).
	Form Form
	// IndexDepth is the rows the prefixes of an index fix
	// (canonical.IndexDepth when it was built); 0 for rows.
	IndexDepth int
}

// Form is how a catalog holds the classes of an n. Every reader of the
// store (Class, Classes, Count, Layouts, Lookup, Finder, Numbers,
// ClassTable) gives the same answers of both.
type Form int

const (
	// FormRows is a row per class in the classes table: class K is one
	// seek. The command builds n up to its max_rows_n in this form.
	FormRows Form = iota
	// FormIndex is the index of the class search: the counts of classes
	// and solutions under each prefix of the search, cumulated, in
	// blocks, and the few symmetric classes; class K is a seek for its
	// block and a search of one prefix's subtree (canonical.UnitClass).
	// A few megabytes hold n = 18.
	FormIndex
)

// String returns "rows" or "index", as builds.form holds them.
func (f Form) String() string {
	if f == FormIndex {
		return "index"
	}
	return "rows"
}

// MarshalJSON writes b as one object of nqueens stats --json: n, the
// counts (total, unique, orbit8 to orbit1), complete, units_done,
// units_total, started_at and finished_at in RFC 3339 to the second
// (finished_at left out while incomplete), seconds (to the millisecond),
// for a shard build only, shard, and form ("rows" or "index").
func (b Build) MarshalJSON() ([]byte, error) {
	o := struct {
		N int `json:"n"`
		nqueens.Counts
		Complete   bool           `json:"complete"`
		UnitsDone  int            `json:"units_done"`
		UnitsTotal int            `json:"units_total"`
		StartedAt  string         `json:"started_at"`
		FinishedAt string         `json:"finished_at,omitempty"`
		Seconds    float64        `json:"seconds"`
		Shard      *nqueens.Shard `json:"shard,omitempty"`
		Form       string         `json:"form"`
	}{Form: b.Form.String(), N: b.N, Counts: b.Counts, Complete: b.Complete, UnitsDone: b.UnitsDone, UnitsTotal: b.UnitsTotal,
		StartedAt: b.StartedAt.Format(time.RFC3339), Seconds: math.Round(b.Seconds*1000) / 1000}
	if !b.FinishedAt.IsZero() {
		o.FinishedAt = b.FinishedAt.Format(time.RFC3339)
	}
	if !b.Shard.IsWhole() {
		o.Shard = &b.Shard
	}
	return json.Marshal(o)
}

// Finished reports whether b is complete and of the whole board: its
// classes are all the classes of its n, and readers may take them as such.
func (b Build) Finished() bool { return b.Complete && b.Shard.IsWhole() }

// Describe says what b holds, for messages: "a complete build", "an
// unfinished build (3 of 9 work units) of shard 1/2".
func (b Build) Describe() string {
	state := "a complete build"
	if !b.Complete {
		state = fmt.Sprintf("an unfinished build (%s of %s work units)", phrase.Count(b.UnitsDone), phrase.Count(b.UnitsTotal))
	}
	if b.Shard.IsWhole() {
		return state
	}
	return state + " of shard " + b.Shard.String()
}

// buildRow is the scan target for a builds row.
type buildRow struct {
	N          int            `db:"n"`
	Total      uint64         `db:"total"`
	Unique     uint64         `db:"unique_count"`
	Orbit8     uint64         `db:"orbit8"`
	Orbit4     uint64         `db:"orbit4"`
	Orbit2     uint64         `db:"orbit2"`
	Orbit1     uint64         `db:"orbit1"`
	Complete   bool           `db:"complete"`
	UnitsDone  int            `db:"units_done"`
	UnitsTotal int            `db:"units_total"`
	StartedAt  string         `db:"started_at"`
	FinishedAt sql.NullString `db:"finished_at"`
	Seconds    float64        `db:"seconds"`
	ShardIndex int            `db:"shard_index"`
	ShardCount int            `db:"shard_count"`
	Form       string         `db:"form"`
	IndexDepth int            `db:"index_depth"`
}

const allBuildColumns = `n, total, unique_count, orbit8, orbit4, orbit2, orbit1, complete, units_done, units_total, started_at, finished_at, seconds, shard_index, shard_count, form, index_depth`

// buildColumns returns the columns of a builds row as a catalog of the given
// schema version holds them: a catalog opened read-only keeps its older
// schema; before version 2 every build was of the whole board, and before
// version 4 every build was rows.
func buildColumns(version int64) string {
	cols := allBuildColumns
	if version < 4 {
		cols = strings.Replace(cols, "form, index_depth", "'rows' AS form, 0 AS index_depth", 1)
	}
	if version < 2 {
		cols = strings.Replace(cols, "shard_index, shard_count", "0 AS shard_index, 0 AS shard_count", 1)
	}
	return cols
}

// build turns the row into a Build. A time that does not parse (the row
// changed by hand) is an error wrapping ErrBadRow.
func (r buildRow) build() (Build, error) {
	b := Build{
		N: r.N,
		Counts: nqueens.Counts{Total: r.Total, Unique: r.Unique,
			Orbit8: r.Orbit8, Orbit4: r.Orbit4, Orbit2: r.Orbit2, Orbit1: r.Orbit1},
		Complete: r.Complete, UnitsDone: r.UnitsDone, UnitsTotal: r.UnitsTotal,
		Seconds:    r.Seconds,
		Shard:      nqueens.Shard{Index: r.ShardIndex, Count: r.ShardCount},
		IndexDepth: r.IndexDepth,
	}
	switch r.Form {
	case "rows":
	case "index":
		b.Form = FormIndex
	default:
		return b, damage(fmt.Sprintf("read build n=%d: form %s is neither rows nor index", r.N, phrase.Quote(r.Form)))
	}
	if b.Form == FormIndex && (r.IndexDepth < 1 || r.IndexDepth > min(r.N, canonical.MaxIndexDepth)) {
		return b, damage(fmt.Sprintf("read build n=%d: an index of prefixes of %d rows, which no board of %d has", r.N, r.IndexDepth, r.N))
	}
	var err error
	if b.StartedAt, err = time.Parse(time.RFC3339Nano, r.StartedAt); err != nil {
		return b, damage(fmt.Sprintf("read build n=%d: started_at %s is no RFC 3339 time", r.N, phrase.Quote(r.StartedAt)))
	}
	if r.FinishedAt.Valid {
		if b.FinishedAt, err = time.Parse(time.RFC3339Nano, r.FinishedAt.String); err != nil {
			return b, damage(fmt.Sprintf("read build n=%d: finished_at %s is no RFC 3339 time", r.N, phrase.Quote(r.FinishedAt.String)))
		}
	}
	return b, nil
}

// Builds returns what the catalog records of every n it has started, in
// increasing n.
func (db *DB) Builds(ctx context.Context) ([]Build, error) {
	var rows []buildRow
	if err := db.h.DB.SelectContext(ctx, &rows, `SELECT `+buildColumns(db.h.Version)+` FROM builds ORDER BY n`); err != nil {
		return nil, fmt.Errorf("read builds: %w", dbfile.Translate(err))
	}
	out := make([]Build, len(rows))
	for i, r := range rows {
		var err error
		if out[i], err = r.build(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Build returns what the catalog records of n, or an error wrapping
// ErrNotBuilt if no build of n was ever started.
func (db *DB) Build(ctx context.Context, n int) (Build, error) {
	return getBuild(ctx, db.h.DB, db.h.Version, n)
}

// getBuild returns the builds row of n, read through q (the catalog's pool
// or a transaction) from a catalog of the given schema version, or an
// error wrapping ErrNotBuilt if there is none.
func getBuild(ctx context.Context, q sqlx.QueryerContext, version int64, n int) (Build, error) {
	var r buildRow
	err := sqlx.GetContext(ctx, q, &r, `SELECT `+buildColumns(version)+` FROM builds WHERE n = ?`, n)
	if errors.Is(err, sql.ErrNoRows) {
		return Build{}, fmt.Errorf("n=%d: %w", n, ErrNotBuilt)
	}
	if err != nil {
		return Build{}, fmt.Errorf("read build n=%d: %w", n, dbfile.Translate(err))
	}
	return r.build()
}

// Complete returns the build of n if it is Finished. Otherwise it returns
// the build, if any, with an *IncompleteError that says why, wrapping
// ErrNotBuilt when the catalog has no build of n, or ErrIncomplete when it
// holds a build in progress, an interrupted one, or one shard of a sharded
// build (the build's Shard, UnitsDone and UnitsTotal say which and how far
// it got); or with a read error. A finished build whose counts are not the
// published ones (for n <= 27) is an error wrapping ErrBadRow.
func (db *DB) Complete(ctx context.Context, n int) (Build, error) {
	b, err := getBuild(ctx, db.h.DB, db.h.Version, n)
	switch {
	case errors.Is(err, ErrNotBuilt):
		return b, &IncompleteError{Path: db.Path(), N: n, Build: b, Err: ErrNotBuilt}
	case err != nil:
		return b, err
	case !b.Finished():
		return b, &IncompleteError{Path: db.Path(), N: n, Build: b, Err: ErrIncomplete}
	}
	// Rows deleted or added by hand, with the counts made to agree, can
	// be told only from the published counts.
	if err := nqueens.CheckKnown(n, b.Counts); err != nil {
		return b, damage(fmt.Sprintf("n=%d: the build records %v: classes were removed or added", n, err))
	}
	return b, nil
}

// startBuild inserts in tx the row of a new build, b, with nothing done yet.
func startBuild(ctx context.Context, tx *sqlx.Tx, b Build) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO builds (n, units_total, started_at, shard_index, shard_count, form, index_depth) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		b.N, b.UnitsTotal, b.StartedAt.Format(time.RFC3339Nano), b.Shard.Index, b.Shard.Count, b.Form.String(), b.IndexDepth)
	return err
}

// saveBuild writes b's counts and progress to the builds row of its n inside
// tx, marking it complete, with b.FinishedAt, if complete is set.
func saveBuild(ctx context.Context, tx *sqlx.Tx, b Build, complete bool) error {
	var finished any
	if complete {
		finished = b.FinishedAt.Format(time.RFC3339Nano)
	}
	_, err := tx.ExecContext(ctx, `UPDATE builds SET total = ?, unique_count = ?, orbit8 = ?, orbit4 = ?,
		orbit2 = ?, orbit1 = ?, complete = ?, units_done = ?, units_total = ?, finished_at = ?, seconds = ?
		WHERE n = ?`,
		b.Total, b.Unique, b.Orbit8, b.Orbit4, b.Orbit2, b.Orbit1, complete,
		b.UnitsDone, b.UnitsTotal, finished, b.Seconds, b.N)
	return err
}

// insertBuild inserts in tx the row of b, a complete build of the whole board
// (as a merge writes it).
func insertBuild(ctx context.Context, tx *sqlx.Tx, b Build) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO builds (n, total, unique_count, orbit8, orbit4, orbit2, orbit1,
		complete, units_done, units_total, started_at, finished_at, seconds, shard_index, shard_count, form, index_depth)
		VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, 0, 0, ?, ?)`,
		b.N, b.Total, b.Unique, b.Orbit8, b.Orbit4, b.Orbit2, b.Orbit1,
		b.UnitsDone, b.UnitsTotal, b.StartedAt.Format(time.RFC3339Nano),
		b.FinishedAt.Format(time.RFC3339Nano), b.Seconds, b.Form.String(), b.IndexDepth)
	return err
}

// orphanFix says how to remove the classes of n in the catalog at path
// that have no builds row.
func orphanFix(path string, n int) string {
	return fmt.Sprintf(`remove them with: sqlite3 %q "DELETE FROM classes WHERE n = %d", then build n=%d again`, path, n, n)
}

// problem is one thing Audit finds wrong with a catalog: of board size N,
// or of the catalog as a whole when N is 0.
type problem struct {
	N    int
	Text string // one sentence, saying how to mend it where it can
}

// Audit returns what is wrong with the catalog beyond what its builds and
// classes rows say of themselves: classes of an n that has no builds row
// (its row was deleted: Begin refuses to build such an n, see ErrOrphans),
// an index of such an n (which a build replaces), and a table or view of
// the schema that is missing. A catalog in good
// order gives none.
func (db *DB) Audit(ctx context.Context) ([]problem, error) {
	var problems []problem
	rows, err := db.h.DB.QueryContext(ctx, `SELECT n, count(*) FROM classes WHERE n NOT IN (SELECT n FROM builds) GROUP BY n ORDER BY n`)
	if err != nil {
		return nil, fmt.Errorf("audit: %w", dbfile.Translate(err))
	}
	defer rows.Close()
	for rows.Next() {
		var n, k int64
		if err := rows.Scan(&n, &k); err != nil {
			return nil, fmt.Errorf("audit: %w", dbfile.Translate(err))
		}
		problems = append(problems, problem{int(n), fmt.Sprintf("%s stored with no record of their build (its builds row was deleted?); %s", phrase.Plural(k, "class"), orphanFix(db.h.Path, int(n)))})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("audit: %w", dbfile.Translate(err))
	}
	if db.h.Version >= 4 {
		var ns []int
		if err := db.h.DB.SelectContext(ctx, &ns, `SELECT DISTINCT n FROM index_blocks WHERE n NOT IN (SELECT n FROM builds) ORDER BY n`); err != nil {
			return nil, fmt.Errorf("audit: %w", dbfile.Translate(err))
		}
		for _, n := range ns {
			problems = append(problems, problem{n, fmt.Sprintf("an index with no record of its build (its builds row was deleted?); build n=%d again, which replaces it", n)})
		}
	}
	objects := []struct{ kind, name string }{{"table", "builds"}, {"table", "classes"}, {"view", "class_list"}}
	if db.h.Version >= 3 {
		// The queries of symmetric classes name it.
		objects = append(objects, struct{ kind, name string }{"index", "classes_symmetric"})
	}
	if db.h.Version >= 4 {
		objects = append(objects, []struct{ kind, name string }{{"table", "index_blocks"}, {"table", "index_symmetric"},
			{"index", "index_blocks_classes"}, {"index", "index_blocks_prefix"}}...)
	}
	if db.h.Version == 4 || db.h.Version == 5 {
		objects = append(objects, struct{ kind, name string }{"index", "index_blocks_solutions"})
	}
	if db.h.Version >= 5 {
		// SQL users read the boards through it.
		objects = append(objects, struct{ kind, name string }{"view", "class_boards"})
	}
	for _, obj := range objects {
		var k int
		err := db.h.DB.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = ? AND name = ?`, obj.kind, obj.name).Scan(&k)
		if err != nil {
			return nil, fmt.Errorf("audit: %w", dbfile.Translate(err))
		}
		if k == 0 {
			problems = append(problems, problem{0, fmt.Sprintf("the %s %s is missing from the schema (dropped by hand?)", obj.kind, obj.name)})
		}
	}
	return problems, nil
}

// damage is the error of a builds row that is not what the catalog
// promises: its text, then what that means. It matches ErrBadRow.
type damage string

func (d damage) Error() string {
	return string(d) + ": the catalog is damaged"
}

func (d damage) Is(target error) bool { return target == ErrBadRow }
