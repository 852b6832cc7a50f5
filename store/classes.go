package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/store/internal/dbfile"
)

// classWriter inserts the classes of one n, batchRows rows a statement,
// numbering them in turn: the classes must come in increasing order of
// their placements, which is the order of their numbers. It writes in one
// transaction at a time (Begin), and remembers the last class of the last
// commit (Commit), so that a failed transaction can be dropped (Abandon).
// Call Close to release its statement before a transaction ends.
type classWriter struct {
	ctx   context.Context
	tx    *sqlx.Tx
	n     int
	class int64             // the number of the last class added
	last  nqueens.Placement // the last class added, zero before the first
	// committed is last as of the last Commit.
	committed nqueens.Placement
	stmt      *sql.Stmt // multi-row insert of batchRows rows
	args      []any
	key       []byte
}

// errOrder is classWriter.Add's error for a class out of order: one stored
// already or one that belongs before the last.
var errOrder = errors.New("class out of order")

// batchRows is the number of rows a statement inserts, at most.
const batchRows = 500

// insertArgs is the number of values bound for each row.
const insertArgs = 3

// newClassWriter returns a classWriter of classes of n, whose statements run in
// ctx. Its first class must follow after (the zero Placement for none).
func newClassWriter(ctx context.Context, n int, after nqueens.Placement) *classWriter {
	return &classWriter{ctx: ctx, n: n, last: after, committed: after}
}

// Begin makes w write into tx, numbering the classes to come after class.
func (w *classWriter) Begin(tx *sqlx.Tx, class int64) {
	w.tx, w.class, w.stmt, w.args = tx, class, nil, w.args[:0]
}

// Add buffers the class l, numbered after the last, inserting the buffer
// once it holds a statement's rows. A class not after the last is an error
// wrapping errOrder. The layout's Class field is ignored.
func (w *classWriter) Add(l nqueens.Layout) error {
	if l.Placement.N() != w.n {
		return fmt.Errorf("placement of size %d", l.Placement.N())
	}
	if w.last.N() != 0 && l.Placement.Compare(w.last) <= 0 {
		return fmt.Errorf("%w: %s after %s", errOrder, l.Placement, w.last)
	}
	w.class++
	w.last = l.Placement
	w.key = l.Placement.AppendKey(w.key[:0])
	w.args = append(w.args, w.class, string(w.key), l.Symmetry.Orbit())
	if len(w.args) == insertArgs*batchRows {
		return w.Flush()
	}
	return nil
}

// Flush inserts the buffered rows.
func (w *classWriter) Flush() error {
	rows := len(w.args) / insertArgs
	if rows == 0 {
		return nil
	}
	var err error
	if rows == batchRows {
		if w.stmt == nil {
			w.stmt, err = w.tx.PrepareContext(w.ctx, insertSQL(w.n, batchRows))
			if err != nil {
				return fmt.Errorf("prepare insert: %w", dbfile.Translate(err))
			}
		}
		_, err = w.stmt.ExecContext(w.ctx, w.args...)
	} else {
		_, err = w.tx.ExecContext(w.ctx, insertSQL(w.n, rows), w.args...)
	}
	if err != nil {
		return fmt.Errorf("insert classes: %w", dbfile.Translate(err))
	}
	w.args = w.args[:0]
	return nil
}

// Close releases the prepared statement.
func (w *classWriter) Close() {
	if w.stmt != nil {
		w.stmt.Close()
		w.stmt = nil
	}
}

// Commit records that the classes added so far are committed.
func (w *classWriter) Commit() { w.committed = w.last }

// Abandon drops what was added since the last Commit, after a failed
// write: the buffered rows, the statement, and the last class added.
func (w *classWriter) Abandon() {
	w.Close()
	w.args = w.args[:0]
	w.last = w.committed
}

// insertSQL returns a statement inserting rows classes of n, each bound as
// class, placement and orbit. n, an int checked by the build, is written
// in the text.
func insertSQL(n, rows int) string {
	var s strings.Builder
	s.WriteString("INSERT INTO classes (n, class, placement, orbit) VALUES ")
	row := fmt.Sprintf("(%d,?,?,?)", n)
	for i := range rows {
		if i > 0 {
			s.WriteByte(',')
		}
		s.WriteString(row)
	}
	return s.String()
}

// rowError is the error of a stored class row that is not what the catalog
// promises: a valid solution of n in its class's canonical form, with the
// orbit its symmetry gives, numbered in turn and in the order of its
// placement. It matches ErrBadRow.
type rowError struct {
	N int
	// Layout is the row as stored; its Placement is zero when the row
	// could not be read (a bad key, or an orbit no class has).
	Layout nqueens.Layout
	// Key is the stored placement, as text; empty for a class that is
	// missing.
	Key string
	// Problems says what is wrong, one phrase each: "is not a solution:
	// ...", "is numbered out of turn: class 3 was due".
	Problems []string
}

// Detail says what is wrong with the row, without n: "class 3 (1 3 5 7 2
// 0 4 6) is not a solution: queens at ...".
func (e *rowError) Detail() string {
	return fmt.Sprintf("class %d%s %s", e.Layout.Class, e.Stored(), strings.Join(e.Problems, "; "))
}

// Stored is the row's placement in parentheses, as columns where it could
// be read and as the stored key where not: " (1 3 5 7 2 0 4 6)", or ""
// for a class that is missing.
func (e *rowError) Stored() string {
	switch {
	case e.Layout.Placement.N() != 0:
		return " (" + e.Layout.Placement.String() + ")"
	case e.Key != "":
		return " (" + e.Key + ")"
	}
	return ""
}

// Error names n, the class and the fault: "n=8 class 3 (1 3 5 7 2 0 4 6)
// is not a solution: ...: the catalog is damaged".
func (e *rowError) Error() string {
	return fmt.Sprintf("n=%d %s: the catalog is damaged", e.N, e.Detail())
}

// Is reports whether target is ErrBadRow.
func (e *rowError) Is(target error) bool { return target == ErrBadRow }

// decodeClass turns a stored row of class k of n, its placement's key and its
// orbit, into a layout, and checks it as far as one row can tell: the
// placement has n rows and is a solution, the canonical representative of
// its class (canonical.Classify), with the orbit its symmetry gives. It
// costs O(n). A row that fails is a *RowError.
func decodeClass(n int, k int64, key string, orbit int) (nqueens.Layout, error) {
	l := nqueens.Layout{Class: k}
	fail := func(format string, args ...any) (nqueens.Layout, error) {
		return l, &rowError{N: n, Layout: l, Key: key, Problems: []string{fmt.Sprintf(format, args...)}}
	}
	p, err := nqueens.ParseKey(key)
	switch {
	case err != nil:
		return fail("cannot be read: %v", err)
	case p.N() != n:
		return fail("cannot be read: it has %d rows", p.N())
	}
	sym, err := nqueens.SymmetryOfOrbit(orbit)
	if err != nil {
		return fail("cannot be read: %v", err)
	}
	l.Placement, l.Symmetry = p, sym
	if err := p.Valid(); err != nil {
		return fail("is not a solution: %v", err)
	}
	got, ok := canonical.Classify(p)
	if !ok {
		return fail("is not canonical: its class's representative is %s", canonical.Fold(p))
	}
	if got != sym {
		return fail("has orbit %d recorded, but its orbit is %d", orbit, got.Orbit())
	}
	return l, nil
}

// sequence checks that the rows of one n, read in class order, follow
// each other as the catalog promises: placements increasing (so none is
// repeated), and class numbers increasing with them, in turn where the
// reader reads every class of a range. The zero sequence checks the order
// alone.
type sequence struct {
	N int
	// Next is the class number due next, 0 for any: a reader of every
	// class from class K on sets it to K; Check keeps it, and sets it to 0
	// after a row it cannot read.
	Next int64
	// Turns is set when the rows read are every class of a range, so
	// that each must be numbered one more than the last.
	Turns bool
	prev  nqueens.Layout
}

// Check checks the row l, as decodeClass returned it with err, against the
// rows before it, and returns nil or a *RowError naming every fault found
// in the row (decodeClass's first). Every row read must be given, bad ones too.
// An err that is no *RowError is returned as it is.
func (s *sequence) Check(l nqueens.Layout, key string, err error) error {
	var re *rowError
	if err != nil && !errors.As(err, &re) {
		return err
	}
	if re != nil && l.Placement.N() == 0 {
		s.Next = 0 // its number says nothing of the turn
		return err
	}
	var problems []string
	switch {
	case s.Turns && s.Next != 0 && l.Class != s.Next:
		problems = append(problems, fmt.Sprintf("is numbered out of turn: class %d was due", s.Next))
	case !s.Turns && s.prev.Class != 0 && l.Class <= s.prev.Class:
		problems = append(problems, fmt.Sprintf("is numbered out of order after class %d", s.prev.Class))
	}
	if re != nil {
		problems = append(problems, re.Problems...)
	}
	if s.prev.Placement.N() != 0 && l.Placement.Compare(s.prev.Placement) <= 0 {
		problems = append(problems, fmt.Sprintf("is out of order or repeated after %s", s.prev.Placement))
	}
	s.prev, s.Next = l, l.Class+1
	if len(problems) == 0 {
		return nil
	}
	return &rowError{N: s.N, Layout: l, Key: key, Problems: problems}
}
