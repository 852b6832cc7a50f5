package store

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/nqueens/nqueens"
)

// Merge writes into the catalog at path, created if missing, the classes
// of every n that parts hold, where parts are the shard catalogs of all K
// shards of n's work units (see BeginShard), and records each n as
// complete with units[n] work units: what a build of the whole board would
// have written. units must name every n the parts hold and nothing else.
//
// It checks first that every part holds a complete shard of each n, that
// the parts agree on K, and that each shard from 0 to K-1 is there exactly
// once; an error names the part or shard at fault. A class found in two
// parts (overlapping shards) is an error too, as is a catalog at path that
// already holds one of the n (ErrComplete if complete). Merge is all or
// nothing: every n is written in one transaction, and a catalog that Merge
// creates appears at path only once complete. On any error, or when ctx is
// cancelled, the catalog at path is left as it was, or not created. It
// returns the builds written, in increasing n.
func Merge(ctx context.Context, path string, units map[int]int, parts []*DB) ([]Build, error) {
	ns := slices.Sorted(maps.Keys(units))
	if len(ns) == 0 {
		return nil, errors.New("merge: no n to merge")
	}
	shards := make(map[int][]Build)
	for _, n := range ns {
		if err := nqueens.CheckN(n); err != nil {
			return nil, err
		}
		s, err := checkShards(ctx, n, parts)
		if err != nil {
			return nil, err
		}
		shards[n] = s
	}
	write := func(db *DB) ([]Build, error) {
		for _, part := range parts {
			if part.path == db.path {
				return nil, fmt.Errorf("merge: %s is both the output and a shard", db.path)
			}
		}
		return db.merge(ctx, ns, units, shards, parts)
	}
	abs, err := resolve(path)
	if err != nil {
		return nil, fmt.Errorf("merge into %s: %w", path, err)
	}
	if _, err := os.Stat(abs); errors.Is(err, os.ErrNotExist) {
		var out []Build
		err := create(ctx, abs, func(db *DB) (err error) {
			out, err = write(db)
			return err
		})
		if err != nil {
			return nil, err
		}
		return out, nil
	}
	db, err := Open(ctx, path, Options{})
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return write(db)
}

// merge writes the classes of each n of ns from parts, whose builds of n
// are shards[n], in one transaction.
func (db *DB) merge(ctx context.Context, ns []int, units map[int]int, shards map[int][]Build, parts []*DB) ([]Build, error) {
	if db.readOnly {
		return nil, fmt.Errorf("merge: %w: %s was opened for reading only", ErrReadOnly, db.path)
	}
	if db.lockPath != "" {
		unlock, err := lockFile(db.lockPath)
		if err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
		defer unlock()
	}
	for _, n := range ns {
		switch b, err := db.Build(ctx, n); {
		case errors.Is(err, ErrNotBuilt):
		case err != nil:
			return nil, err
		case b.Complete && b.Shard.IsWhole():
			return nil, fmt.Errorf("merge n=%d: %s: %w", n, db.path, ErrComplete)
		default:
			return nil, fmt.Errorf("merge n=%d: %s already holds %s of n=%d; merge into another file", n, db.path, describeBuild(b), n)
		}
	}
	tx, err := db.db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("merge: %w", translate(err))
	}
	defer tx.Rollback()
	var out []Build
	for _, n := range ns {
		b, err := mergeN(ctx, tx, n, units[n], shards[n], parts)
		if ctx.Err() != nil {
			return nil, errors.New("merge interrupted: nothing written")
		}
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("merge: commit: %w", translate(err))
	}
	return out, nil
}

// mergeN inserts in tx the classes of n from parts, whose builds of n are
// shards, and its builds row.
func mergeN(ctx context.Context, tx *sqlx.Tx, n, unitsTotal int, shards []Build, parts []*DB) (Build, error) {
	start := time.Now()
	sum := Build{N: n, UnitsDone: unitsTotal, UnitsTotal: unitsTotal, Complete: true, StartedAt: start.UTC()}
	for _, s := range shards {
		sum.Counts.Merge(s.Counts)
		sum.Seconds += s.Seconds
		if !s.StartedAt.IsZero() && s.StartedAt.Before(sum.StartedAt) {
			sum.StartedAt = s.StartedAt
		}
	}
	ins := inserter{ctx: ctx, tx: tx, n: n}
	defer ins.close()
	for i, part := range parts {
		var got nqueens.Counts
		for l, err := range part.Classes(ctx, n) {
			if err != nil {
				return Build{}, fmt.Errorf("merge n=%d: read %s: %w", n, part.path, err)
			}
			got.Add(l.Symmetry)
			if err := ins.add(l); err != nil {
				if isConstraint(err) {
					return Build{}, fmt.Errorf("merge n=%d: shards overlap: a class of %s is in another part too", n, part.path)
				}
				return Build{}, fmt.Errorf("merge n=%d: %w", n, err)
			}
		}
		if got != shards[i].Counts {
			return Build{}, fmt.Errorf("merge n=%d: %s holds %d classes (%d solutions), its build records %d (%d)",
				n, part.path, got.Unique, got.Total, shards[i].Unique, shards[i].Total)
		}
	}
	if err := ins.flush(); err != nil {
		if isConstraint(err) {
			return Build{}, fmt.Errorf("merge n=%d: shards overlap: a class is in two parts", n)
		}
		return Build{}, fmt.Errorf("merge n=%d: %w", n, err)
	}
	sum.FinishedAt = time.Now().UTC()
	sum.Seconds += time.Since(start).Seconds()
	_, err := tx.ExecContext(ctx, `INSERT INTO builds (n, total, unique_count, orbit8, orbit4, orbit2, orbit1,
		complete, units_done, units_total, started_at, finished_at, seconds, shard_index, shard_count)
		VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, 0, 0)`,
		n, sum.Total, sum.Unique, sum.Orbit8, sum.Orbit4, sum.Orbit2, sum.Orbit1,
		sum.UnitsDone, sum.UnitsTotal, sum.StartedAt.Format(time.RFC3339Nano),
		sum.FinishedAt.Format(time.RFC3339Nano), sum.Seconds)
	if err != nil {
		return Build{}, fmt.Errorf("merge n=%d: record build: %w", n, translate(err))
	}
	return sum, nil
}

// checkShards returns the builds of n in parts, in the parts' order, after
// checking that they are complete shards of one K that cover every shard
// exactly once.
func checkShards(ctx context.Context, n int, parts []*DB) ([]Build, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("merge n=%d: no shard catalogs given", n)
	}
	builds := make([]Build, len(parts))
	seen := map[int]string{}
	k := 0
	for i, part := range parts {
		b, err := part.Build(ctx, n)
		if err != nil {
			return nil, fmt.Errorf("merge n=%d: %s: %w", n, part.path, err)
		}
		switch {
		case b.Shard.IsWhole():
			return nil, fmt.Errorf("merge n=%d: %s holds the whole board, not a shard", n, part.path)
		case !b.Complete:
			return nil, fmt.Errorf("merge n=%d: %s holds shard %s unfinished (%d of %d work units): run its build again first",
				n, part.path, b.Shard, b.UnitsDone, b.UnitsTotal)
		case k != 0 && b.Shard.Count != k:
			return nil, fmt.Errorf("merge n=%d: %s holds shard %s, but %s holds one of %d shards", n, part.path, b.Shard, parts[0].path, k)
		}
		k = b.Shard.Count
		if prev, dup := seen[b.Shard.Index]; dup {
			return nil, fmt.Errorf("merge n=%d: shard %s given twice: %s and %s", n, b.Shard, prev, part.path)
		}
		seen[b.Shard.Index] = part.path
		builds[i] = b
	}
	var missing []string
	for i := range k {
		if _, ok := seen[i]; !ok {
			missing = append(missing, fmt.Sprint(i))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("merge n=%d: shards %s of %d missing: n is complete only with all of them", n, strings.Join(missing, ", "), k)
	}
	return builds, nil
}

// describeBuild says what a build holds, for messages.
func describeBuild(b Build) string {
	state := "a complete build"
	if !b.Complete {
		state = fmt.Sprintf("an unfinished build (%d of %d work units)", b.UnitsDone, b.UnitsTotal)
	}
	if b.Shard.IsWhole() {
		return state
	}
	return state + " of shard " + b.Shard.String()
}

// isConstraint reports whether err is SQLite's constraint violation: here,
// a class inserted twice.
func isConstraint(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_CONSTRAINT
}
