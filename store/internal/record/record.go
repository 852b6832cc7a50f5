// Package record is how the catalog records what it holds, row by row: a
// row of builds as a Build (read, started, saved as a build progresses,
// written whole by a merge), and the rows of classes, one a class of n
// numbered in placement order with its canonical placement as a key and
// its orbit (written in order by Writer, read back by Decode). Which rows
// to write or read is the business of the packages above it: build, merge
// and query; store re-exports Build and the errors.
package record

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
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/store/internal/dbfile"
)

// Build is what the catalog records of one board size.
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
}

// MarshalJSON writes b as one object of nqueens stats --json: n, the
// counts (total, unique, orbit8 to orbit1), complete, units_done,
// units_total, started_at and finished_at in RFC 3339 to the second
// (finished_at left out while incomplete), seconds (to the millisecond),
// and, for a shard build only, shard.
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
	}{N: b.N, Counts: b.Counts, Complete: b.Complete, UnitsDone: b.UnitsDone, UnitsTotal: b.UnitsTotal,
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
		state = fmt.Sprintf("an unfinished build (%d of %d work units)", b.UnitsDone, b.UnitsTotal)
	}
	if b.Shard.IsWhole() {
		return state
	}
	return state + " of shard " + b.Shard.String()
}

// row is the scan target for a builds row.
type row struct {
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
}

const allColumns = `n, total, unique_count, orbit8, orbit4, orbit2, orbit1, complete, units_done, units_total, started_at, finished_at, seconds, shard_index, shard_count`

// columns returns the columns of a builds row as a catalog of the given
// schema version holds them: a catalog opened read-only keeps its older
// schema, and before version 2 every build was of the whole board.
func columns(version int64) string {
	if version < 2 {
		return strings.Replace(allColumns, "shard_index, shard_count", "0 AS shard_index, 0 AS shard_count", 1)
	}
	return allColumns
}

func (r row) build() Build {
	b := Build{
		N: r.N,
		Counts: nqueens.Counts{Total: r.Total, Unique: r.Unique,
			Orbit8: r.Orbit8, Orbit4: r.Orbit4, Orbit2: r.Orbit2, Orbit1: r.Orbit1},
		Complete: r.Complete, UnitsDone: r.UnitsDone, UnitsTotal: r.UnitsTotal,
		Seconds: r.Seconds,
		Shard:   nqueens.Shard{Index: r.ShardIndex, Count: r.ShardCount},
	}
	b.StartedAt, _ = time.Parse(time.RFC3339Nano, r.StartedAt)
	if r.FinishedAt.Valid {
		b.FinishedAt, _ = time.Parse(time.RFC3339Nano, r.FinishedAt.String)
	}
	return b
}

// Errors of the state of a build, re-exported by store under the same
// names.
var (
	// ErrNotBuilt: the catalog holds no build of the requested n.
	ErrNotBuilt = errors.New("not in the catalog")
	// ErrIncomplete: the catalog holds n only in part (see Complete).
	ErrIncomplete = errors.New("not complete")
	// ErrComplete: the requested n is already completely built.
	ErrComplete = errors.New("already built")
)

// List returns the builds row of every n the catalog h has started, in
// increasing n.
func List(ctx context.Context, h *dbfile.Handle) ([]Build, error) {
	var rows []row
	if err := h.DB.SelectContext(ctx, &rows, `SELECT `+columns(h.Version)+` FROM builds ORDER BY n`); err != nil {
		return nil, fmt.Errorf("read builds: %w", dbfile.Translate(err))
	}
	out := make([]Build, len(rows))
	for i, r := range rows {
		out[i] = r.build()
	}
	return out, nil
}

// Get returns the builds row of n, read through q (the catalog's pool or a
// transaction) from a catalog of the given schema version, or an error
// wrapping ErrNotBuilt if there is none.
func Get(ctx context.Context, q sqlx.QueryerContext, version int64, n int) (Build, error) {
	var r row
	err := sqlx.GetContext(ctx, q, &r, `SELECT `+columns(version)+` FROM builds WHERE n = ?`, n)
	if errors.Is(err, sql.ErrNoRows) {
		return Build{}, fmt.Errorf("n=%d: %w", n, ErrNotBuilt)
	}
	if err != nil {
		return Build{}, fmt.Errorf("read build n=%d: %w", n, dbfile.Translate(err))
	}
	return r.build(), nil
}

// Complete returns the build of n in h if it is Finished. Otherwise it
// returns the build, if any, with an error wrapping ErrNotBuilt when the
// catalog has no build of n, or ErrIncomplete when it holds a build in
// progress, an interrupted one, or one shard of a sharded build. A
// finished build whose counts are not the published ones (for n <= 27)
// is an error wrapping ErrBadRow.
func Complete(ctx context.Context, h *dbfile.Handle, n int) (Build, error) {
	b, err := Get(ctx, h.DB, h.Version, n)
	switch {
	case err != nil:
		return b, err
	case !b.Shard.IsWhole():
		return b, fmt.Errorf("n=%d is shard %s of a sharded build: %w", n, b.Shard, ErrIncomplete)
	case !b.Complete:
		return b, fmt.Errorf("n=%d is built %d of %d work units: %w", n, b.UnitsDone, b.UnitsTotal, ErrIncomplete)
	}
	// Rows deleted or added by hand, with the counts made to agree, can
	// be told only from the published counts.
	if k, ok := nqueens.KnownCounts(n); ok && (b.Total != k.Total || b.Unique != k.Unique) {
		return b, fmt.Errorf("n=%d: the build records %s in %s, OEIS A000170/A002562 count %d in %d: classes were removed or added; the catalog is damaged (nqueens verify lists every fault): %w",
			n, phrase.Plural(b.Total, "solution"), phrase.Plural(b.Unique, "class"), k.Total, k.Unique, ErrBadRow)
	}
	return b, nil
}

// Start inserts in tx the row of a new build, b, with nothing done yet.
func Start(ctx context.Context, tx *sqlx.Tx, b Build) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO builds (n, units_total, started_at, shard_index, shard_count) VALUES (?, ?, ?, ?, ?)`,
		b.N, b.UnitsTotal, b.StartedAt.Format(time.RFC3339Nano), b.Shard.Index, b.Shard.Count)
	return err
}

// Save writes b's counts and progress to the builds row of its n inside
// tx, marking it complete, with b.FinishedAt, if complete is set.
func Save(ctx context.Context, tx *sqlx.Tx, b Build, complete bool) error {
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

// Insert inserts in tx the row of b, a complete build of the whole board
// (as a merge writes it).
func Insert(ctx context.Context, tx *sqlx.Tx, b Build) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO builds (n, total, unique_count, orbit8, orbit4, orbit2, orbit1,
		complete, units_done, units_total, started_at, finished_at, seconds, shard_index, shard_count)
		VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, 0, 0)`,
		b.N, b.Total, b.Unique, b.Orbit8, b.Orbit4, b.Orbit2, b.Orbit1,
		b.UnitsDone, b.UnitsTotal, b.StartedAt.Format(time.RFC3339Nano),
		b.FinishedAt.Format(time.RFC3339Nano), b.Seconds)
	return err
}

// OrphanFix says how to remove the classes of n in the catalog at path
// that have no builds row.
func OrphanFix(path string, n int) string {
	return fmt.Sprintf(`remove them with: sqlite3 %q "DELETE FROM classes WHERE n = %d", then build n=%d again`, path, n, n)
}
