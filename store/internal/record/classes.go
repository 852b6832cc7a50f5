package record

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/store/internal/dbfile"
)

// Writer inserts the classes of one n, batchRows rows a statement,
// numbering them in turn: the classes must come in increasing order of
// their placements, which is the order of their numbers. It writes in one
// transaction at a time (Begin), and remembers the last class of the last
// commit (Commit), so that a failed transaction can be dropped (Abandon).
// Call Close to release its statement before a transaction ends.
type Writer struct {
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

// ErrOrder is Writer.Add's error for a class out of order: one stored
// already or one that belongs before the last.
var ErrOrder = errors.New("class out of order")

// batchRows is the number of rows a statement inserts, at most.
const batchRows = 500

// insertArgs is the number of values bound for each row.
const insertArgs = 3

// NewWriter returns a Writer of classes of n, whose statements run in
// ctx. Its first class must follow after (the zero Placement for none).
func NewWriter(ctx context.Context, n int, after nqueens.Placement) *Writer {
	return &Writer{ctx: ctx, n: n, last: after, committed: after}
}

// Begin makes w write into tx, numbering the classes to come after class.
func (w *Writer) Begin(tx *sqlx.Tx, class int64) {
	w.tx, w.class, w.stmt, w.args = tx, class, nil, w.args[:0]
}

// Add buffers the class l, numbered after the last, inserting the buffer
// once it holds a statement's rows. A class not after the last is an error
// wrapping ErrOrder. The layout's Class field is ignored.
func (w *Writer) Add(l nqueens.Layout) error {
	if l.Placement.N() != w.n {
		return fmt.Errorf("placement of size %d", l.Placement.N())
	}
	if w.last.N() != 0 && l.Placement.Compare(w.last) <= 0 {
		return fmt.Errorf("%w: %s after %s", ErrOrder, l.Placement, w.last)
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
func (w *Writer) Flush() error {
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
func (w *Writer) Close() {
	if w.stmt != nil {
		w.stmt.Close()
		w.stmt = nil
	}
}

// Commit records that the classes added so far are committed.
func (w *Writer) Commit() { w.committed = w.last }

// Abandon drops what was added since the last Commit, after a failed
// write: the buffered rows, the statement, and the last class added.
func (w *Writer) Abandon() {
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

// Decode turns a stored row of class k of n, its placement's key and its
// orbit, into a layout, checking what the schema cannot.
func Decode(n int, k int64, key string, orbit int) (nqueens.Layout, error) {
	p, err := nqueens.ParseKey(key)
	if err == nil && p.N() != n {
		err = fmt.Errorf("placement %q has %d rows", key, p.N())
	}
	if err != nil {
		return nqueens.Layout{}, fmt.Errorf("n=%d class %d: %w", n, k, err)
	}
	sym, err := nqueens.SymmetryOfOrbit(orbit)
	if err != nil {
		return nqueens.Layout{}, fmt.Errorf("n=%d class %d: %w", n, k, err)
	}
	return nqueens.Layout{Class: k, Placement: p, Symmetry: sym}, nil
}
