// Package export owns every output format of N-Queens, from placements to
// bytes. It writes layouts (a class, its placement, orbit and symmetry) as
// a JSON array of objects, newline-delimited JSON (one object a line), CSV
// with a header row, LeetCode 51's array of string grids, text grids of
// 'Q' and '.' with a blank line after each board, an SVG image of one
// board, an HTML page of small boards, an Apache Parquet file of a row a
// layout (see Format and Formats), or boards drawn in text (Text). Format.WriteSolution writes a bare solution,
// columns with no class, for boards of up to nqueens.MaxConstructN, in the
// same JSON and CSV objects minus the class fields (see SolutionFormats).
// Every writer draws a board from its columns, the column of the queen in
// each row as an int32, as nqueens.Construct returns them and
// nqueens.Placement holds them. Writers stream: each layout is encoded as
// it comes, through a buffer, so an export of millions of layouts holds
// only one at a time. They never touch the catalog; the caller feeds them
// layouts in the order it wants written.
//
// Every writer follows encoding/csv: NewX(w) wraps an io.Writer, Write adds
// one layout, and Close flushes the buffer and ends the document (a JSON
// array's closing bracket). The caller must call Close, even for an empty
// export, and must check its error; Close does not close w.
package export

import (
	"bufio"
	"cmp"
	"context"
	"io"
	"iter"
	"strconv"

	"github.com/nqueens/nqueens"
)

// Writer writes layouts in one format.
type Writer interface {
	// Write encodes one layout. Errors from the underlying writer may be
	// reported here or only by Close.
	Write(l nqueens.Layout) error
	// Close flushes what is buffered and ends the document. It returns the
	// first error met while writing, if any.
	Close() error
}

// ProgressEvery is how often, in layouts, WriteAll calls progress.
const ProgressEvery = 1 << 14

// WriteAll writes every layout of layouts to w and closes w (even for no
// layout), stopping at the first error of either; it returns how many it
// wrote, and calls progress, if not nil, with that number every
// ProgressEvery layouts. If ctx is cancelled it returns ctx.Err() and
// leaves w unclosed: a cut export never ends as a whole document would.
func WriteAll(ctx context.Context, w Writer, layouts iter.Seq2[nqueens.Layout, error], progress func(written uint64)) (uint64, error) {
	var written uint64
	for l, err := range layouts {
		if err = cmp.Or(err, ctx.Err()); err != nil {
			return written, err
		}
		if err := w.Write(l); err != nil {
			return written, err
		}
		if written++; progress != nil && written%ProgressEvery == 0 {
			progress(written)
		}
	}
	if err := ctx.Err(); err != nil {
		return written, err
	}
	return written, w.Close()
}

// base holds what every writer shares: the buffer, the first error, and
// how many layouts were written. With through set, each record is flushed
// as it is put.
type base struct {
	w       *bufio.Writer
	buf     []byte
	count   int64
	err     error
	through bool
}

func newBase(w io.Writer) base {
	return base{w: bufio.NewWriterSize(w, 64<<10), buf: make([]byte, 0, 256)}
}

// put writes b.buf, remembering the first error.
func (b *base) put() error {
	if b.err == nil {
		_, b.err = b.w.Write(b.buf)
	}
	if b.err == nil && b.through {
		b.err = b.w.Flush()
	}
	b.buf = b.buf[:0]
	return b.err
}

// finish writes tail, flushes, and returns the first error.
func (b *base) finish(tail string) error {
	if b.err == nil {
		_, b.err = b.w.WriteString(tail)
	}
	if b.err == nil {
		b.err = b.w.Flush()
	}
	return b.err
}

// columns returns p's columns, row by row, in a.
func columns(a *[nqueens.MaxN]int32, p nqueens.Placement) []int32 {
	for r := range p.N() {
		a[r] = int32(p.Col(r))
	}
	return a[:p.N()]
}

// appendCols appends cols separated by sep. Columns below 100, every
// column of a catalog's boards, are written without strconv.
func appendCols(buf []byte, cols []int32, sep byte) []byte {
	for r, c := range cols {
		if r > 0 {
			buf = append(buf, sep)
		}
		switch {
		case c >= 0 && c < 10:
			buf = append(buf, byte('0'+c))
		case c >= 10 && c < 100:
			buf = append(buf, byte('0'+c/10), byte('0'+c%10))
		default:
			buf = strconv.AppendInt(buf, int64(c), 10)
		}
	}
	return buf
}

// appendRow appends one row of a board of n with its queen in column c:
// 'Q' there and '.' elsewhere, the squares separated by sep.
func appendRow(buf []byte, n, c int, sep string) []byte {
	for k := range n {
		if k > 0 {
			buf = append(buf, sep...)
		}
		if k == c {
			buf = append(buf, 'Q')
		} else {
			buf = append(buf, '.')
		}
	}
	return buf
}

// appendGrid appends the board of cols a row a line (see appendRow).
func appendGrid(buf []byte, cols []int32, sep string) []byte {
	for _, c := range cols {
		buf = append(appendRow(buf, len(cols), int(c), sep), '\n')
	}
	return buf
}

// appendBoard appends the board of cols in LeetCode 51's form: a JSON
// array of its rows, ["..Q.",...].
func appendBoard(buf []byte, cols []int32) []byte {
	buf = append(buf, '[')
	for r, c := range cols {
		if r > 0 {
			buf = append(buf, ',')
		}
		buf = append(appendRow(append(buf, '"'), len(cols), int(c), ""), '"')
	}
	return append(buf, ']')
}

// framed is a writer of one record per value between an opening and a
// closing: the text formats of layouts (and of puzzles) differ only in
// these and in the record.
type framed[T any] struct {
	base
	open, sep, close string // before the first record, between two, after the last
	empty            string // the whole document when no value is written
	record           func(buf []byte, v T) []byte
}

// Write adds one value's record.
func (f *framed[T]) Write(v T) error {
	if f.count == 0 {
		f.buf = append(f.buf, f.open...)
	} else {
		f.buf = append(f.buf, f.sep...)
	}
	f.count++
	f.buf = f.record(f.buf, v)
	return f.put()
}

// Close ends the document and flushes.
func (f *framed[T]) Close() error {
	if f.count == 0 {
		return f.finish(f.empty)
	}
	return f.finish(f.close)
}

// gridWriter writes each board as n lines of 'Q' and '.', top row first, with a
// blank line between two boards, the form programming judges and code-golf
// holes print:
//
//	.Q..
//	...Q
//	Q...
//	..Q.
//
//	..Q.
//	Q...
//	...Q
//	.Q..
//
// Only the boards are written; class numbers and symmetries are not.
type gridWriter struct{ f framed[nqueens.Layout] }

// Write writes the record of one layout.
func (w *gridWriter) Write(l nqueens.Layout) error { return w.f.Write(l) }

// Close ends the document and flushes it, returning the first error of a
// write. The caller must call it.
func (w *gridWriter) Close() error { return w.f.Close() }

// newGrid returns a Grid writer to w. The caller must call Close.
func newGrid(w io.Writer) *gridWriter {
	return &gridWriter{f: framed[nqueens.Layout]{base: newBase(w), sep: "\n", record: func(buf []byte, l nqueens.Layout) []byte {
		var a [nqueens.MaxN]int32
		return appendGrid(buf, columns(&a, l.Placement), "")
	}}}
}

// jsonWriter writes a JSON array with one object per layout, one object per line:
//
//	[
//	{"n":4,"class":1,"placement":[1,3,0,2],"orbit":2,"symmetry":"rot90"}
//	]
//
// placement holds the 0-based columns row by row; class is the class's
// number (see nqueens.Layout); symmetry is one of none, rot180, rot90, full.
// An empty export is "[]".
type jsonWriter struct{ f framed[nqueens.Layout] }

// Write writes the record of one layout.
func (w *jsonWriter) Write(l nqueens.Layout) error { return w.f.Write(l) }

// Close ends the document and flushes it, returning the first error of a
// write. The caller must call it.
func (w *jsonWriter) Close() error { return w.f.Close() }

// newJSON returns a JSON writer to w. The caller must call Close.
func newJSON(w io.Writer) *jsonWriter {
	return &jsonWriter{f: framed[nqueens.Layout]{base: newBase(w), open: "[\n", sep: ",\n", close: "\n]\n", empty: "[]\n", record: appendObject}}
}

// appendObject appends the JSON object of one layout.
func appendObject(buf []byte, l nqueens.Layout) []byte {
	buf = append(buf, `{"n":`...)
	buf = strconv.AppendInt(buf, int64(l.N()), 10)
	if l.Class > 0 { // 0: not known, as for a completion listed without --classes
		buf = append(buf, `,"class":`...)
		buf = strconv.AppendInt(buf, l.Class, 10)
	}
	buf = append(buf, `,"placement":[`...)
	var a [nqueens.MaxN]int32
	buf = appendCols(buf, columns(&a, l.Placement), ',')
	buf = append(buf, `],"orbit":`...)
	buf = strconv.AppendInt(buf, int64(l.Symmetry.Orbit()), 10)
	buf = append(buf, `,"symmetry":"`...)
	buf = append(buf, l.Symmetry.String()...)
	return append(buf, `"}`...)
}

// ndjsonWriter writes newline-delimited JSON: one object per layout, the same
// object as JSON's, each on its own line, with no enclosing array, so that
// other tools can stream it a line at a time:
//
//	{"n":4,"class":1,"placement":[1,3,0,2],"orbit":2,"symmetry":"rot90"}
//
// An empty export is an empty file.
type ndjsonWriter struct{ f framed[nqueens.Layout] }

// Write writes the record of one layout.
func (w *ndjsonWriter) Write(l nqueens.Layout) error { return w.f.Write(l) }

// Close ends the document and flushes it, returning the first error of a
// write. The caller must call it.
func (w *ndjsonWriter) Close() error { return w.f.Close() }

// newNDJSON returns an NDJSON writer to w. The caller must call Close.
func newNDJSON(w io.Writer) *ndjsonWriter {
	return &ndjsonWriter{f: framed[nqueens.Layout]{base: newBase(w), record: func(buf []byte, l nqueens.Layout) []byte {
		return append(appendObject(buf, l), '\n')
	}}}
}

// csvHeader is the first row of a CSV export.
const csvHeader = "n,class,orbit,symmetry,placement"

// csvWriter writes a header row (csvHeader) and one row per layout:
//
//	n,class,orbit,symmetry,placement
//	4,1,2,rot90,1 3 0 2
//
// placement holds the 0-based columns row by row separated by single
// spaces. No field ever needs quoting. An empty export is the header.
type csvWriter struct{ f framed[nqueens.Layout] }

// Write writes the record of one layout.
func (w *csvWriter) Write(l nqueens.Layout) error { return w.f.Write(l) }

// Close ends the document and flushes it, returning the first error of a
// write. The caller must call it.
func (w *csvWriter) Close() error { return w.f.Close() }

// newCSV returns a CSV writer to w. The caller must call Close.
func newCSV(w io.Writer) *csvWriter {
	return &csvWriter{f: framed[nqueens.Layout]{base: newBase(w), open: csvHeader + "\n", empty: csvHeader + "\n", record: appendCSVRow}}
}

// appendCSVRow appends the CSV row of one layout.
func appendCSVRow(buf []byte, l nqueens.Layout) []byte {
	buf = strconv.AppendInt(buf, int64(l.N()), 10)
	buf = append(buf, ',')
	if l.Class > 0 { // 0: not known, an empty field
		buf = strconv.AppendInt(buf, l.Class, 10)
	}
	buf = append(buf, ',')
	buf = strconv.AppendInt(buf, int64(l.Symmetry.Orbit()), 10)
	buf = append(buf, ',')
	buf = append(buf, l.Symmetry.String()...)
	buf = append(buf, ',')
	var a [nqueens.MaxN]int32
	return append(appendCols(buf, columns(&a, l.Placement), ' '), '\n')
}

// leetCodeWriter writes the output form of LeetCode 51 (N-Queens): a JSON array
// of boards, each an array of row strings with 'Q' for the queen and '.'
// for an empty square, on one line followed by a newline:
//
//	[[".Q..","...Q","Q...","..Q."],["..Q.","Q...","...Q",".Q.."]]
//
// Only the boards are written; class numbers and symmetries are not. An
// empty export is "[]".
type leetCodeWriter struct{ f framed[nqueens.Layout] }

// Write writes the record of one layout.
func (w *leetCodeWriter) Write(l nqueens.Layout) error { return w.f.Write(l) }

// Close ends the document and flushes it, returning the first error of a
// write. The caller must call it.
func (w *leetCodeWriter) Close() error { return w.f.Close() }

// newLeetCode returns a LeetCode writer to w. The caller must call Close.
func newLeetCode(w io.Writer) *leetCodeWriter {
	return &leetCodeWriter{f: framed[nqueens.Layout]{base: newBase(w), open: "[", sep: ",", close: "]\n", empty: "[]\n", record: func(buf []byte, l nqueens.Layout) []byte {
		var a [nqueens.MaxN]int32
		return appendBoard(buf, columns(&a, l.Placement))
	}}}
}
