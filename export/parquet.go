package export

import (
	"io"
	"slices"

	"github.com/klauspost/compress/s2"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/snappy"

	"github.com/nqueens/nqueens"
)

// Parquet: layouts and puzzles as an Apache Parquet file, one row a
// record, with the columns and names of the NDJSON objects, typed. A key
// the NDJSON object leaves out (class when not known; the puzzle's fields
// that --answers leaves out) is a null in its column, so that every file
// of one kind has the same schema. The rows go out in row groups of
// parquetRowGroup rows, each written when full: memory holds one row
// group, whatever the number of rows. A Parquet file is whole only once
// its footer, written by Close, is: a cut export is no Parquet file.

// parquetRowGroup is the most rows a row group of a Parquet file holds:
// about 2 MB of encoded rows of n = 16, written as it fills.
const parquetRowGroup = 1 << 17

// parquetBatch is how many rows the writers hand to parquet-go at once.
const parquetBatch = 1 << 12

// layoutRow is the Parquet row of a layout: the object of JSON and NDJSON,
// its columns typed (class, 0 when not known, is a null). The optional
// columns are pointers, nil for a null, the way parquet-go documents: of
// an optional field of a value type, parquet-go v0.32.1 writes some zeros
// as nulls and others as zeros (class 0, 1, 0 comes out null, 1, 0), and
// whether a zero is a null has changed between its releases. The
// placement's columns are delta-encoded: small numbers close together,
// they pack into a few bits each, which writes n = 16 in less than half
// the time of plain 32-bit values compressed, and a quarter smaller.
type layoutRow struct {
	N         int32   `parquet:"n"`
	Class     *int64  `parquet:"class,optional"`
	Placement []int32 `parquet:"placement,list" parquet-element:",delta"`
	Orbit     int32   `parquet:"orbit"`
	Symmetry  string  `parquet:"symmetry,dict"`
}

// parquetOptions are the options of every Parquet file written.
func parquetOptions() []parquet.WriterOption {
	return []parquet.WriterOption{
		parquet.Compression(&fastSnappy{}),
		parquet.MaxRowsPerRowGroup(parquetRowGroup),
	}
}

// rowWriter writes rows of type T in batches of parquetBatch, through a
// slice of rows it reuses.
type rowWriter[T any] struct {
	w    *parquet.GenericWriter[T]
	rows []T
	err  error
}

func newRowWriter[T any](w io.Writer) rowWriter[T] {
	return rowWriter[T]{w: parquet.NewGenericWriter[T](w, parquetOptions()...), rows: make([]T, 0, parquetBatch)}
}

// next returns the row to fill next, writing the batch first if it is
// full.
func (r *rowWriter[T]) next() *T {
	if len(r.rows) == cap(r.rows) {
		r.flush()
	}
	r.rows = r.rows[:len(r.rows)+1]
	return &r.rows[len(r.rows)-1]
}

// flush writes the rows of the batch, remembering the first error.
func (r *rowWriter[T]) flush() {
	if r.err == nil && len(r.rows) > 0 {
		_, r.err = r.w.Write(r.rows)
	}
	r.rows = r.rows[:0]
}

// close writes the rows left and the footer, returning the first error.
func (r *rowWriter[T]) close() error {
	r.flush()
	if r.err == nil {
		r.err = r.w.Close()
	}
	return r.err
}

// parquetLayouts writes layouts as a Parquet file of layoutRow.
type parquetLayouts struct {
	rows    rowWriter[layoutRow]
	cols    [][nqueens.MaxN]int32 // the placements of the batch's rows
	classes []int64               // and their classes
}

func newParquetLayouts(w io.Writer) *parquetLayouts {
	return &parquetLayouts{rows: newRowWriter[layoutRow](w), cols: make([][nqueens.MaxN]int32, parquetBatch), classes: make([]int64, parquetBatch)}
}

// Write adds the row of one layout.
func (p *parquetLayouts) Write(l nqueens.Layout) error {
	r := p.rows.next()
	i := len(p.rows.rows) - 1
	*r = layoutRow{
		N:         int32(l.N()),
		Placement: columns(&p.cols[i], l.Placement),
		Orbit:     int32(l.Symmetry.Orbit()),
		Symmetry:  l.Symmetry.String(),
	}
	if l.Class > 0 {
		p.classes[i] = l.Class
		r.Class = &p.classes[i]
	}
	return p.rows.err
}

// Close writes the rows left and the file's footer.
func (p *parquetLayouts) Close() error { return p.rows.close() }

// fastSnappy is parquet-go's snappy codec with the quicker of the two
// snappy encoders of klauspost/compress: the same format, and a file of
// every solution of n = 16 2% larger, for a compression that takes a
// twentieth of the writer's time where the other encoder took a sixth.
type fastSnappy struct{ snappy.Codec }

func (*fastSnappy) Encode(dst, src []byte) ([]byte, error) {
	return s2.EncodeSnappy(dst[:cap(dst)], src), nil
}

// puzzleRow is the Parquet row of a puzzle: the object of the json and
// ndjson puzzle formats, its columns typed. A key that object leaves out
// is a null: given, givens, difficulty and nodes with AnswersOnly; solution,
// class and symmetry with NoAnswers; class when not known. The optional
// columns are pointers and nil slices, as in layoutRow.
type puzzleRow struct {
	N          int32   `parquet:"n"`
	Given      []queen `parquet:"given,optional,list"`
	Solution   []int32 `parquet:"solution,optional,list"`
	Class      *int64  `parquet:"class,optional"`
	Symmetry   *string `parquet:"symmetry,optional"`
	Givens     *int32  `parquet:"givens,optional"`
	Difficulty *string `parquet:"difficulty,optional"`
	Nodes      *int64  `parquet:"nodes,optional"`
}

// queen is a given queen of a puzzle's row: its row and column, from 0.
type queen struct {
	Row    int32 `parquet:"row"`
	Column int32 `parquet:"column"`
}

// parquetPuzzles writes puzzles as a Parquet file of puzzleRow.
type parquetPuzzles struct {
	rows    rowWriter[puzzleRow]
	answers Answers
}

func newParquetPuzzles(w io.Writer, answers Answers) *parquetPuzzles {
	return &parquetPuzzles{rows: newRowWriter[puzzleRow](w), answers: answers}
}

// Write adds the row of one puzzle.
func (p *parquetPuzzles) Write(z Puzzle) error {
	var r puzzleRow
	r.N = int32(z.N)
	if p.answers != AnswersOnly {
		r.Given = make([]queen, len(z.Given))
		for i, g := range z.Given {
			r.Given[i] = queen{Row: int32(g[0]), Column: int32(g[1])}
		}
		givens, difficulty, nodes := int32(len(z.Given)), z.Difficulty, int64(z.Nodes)
		r.Givens, r.Difficulty, r.Nodes = &givens, &difficulty, &nodes
	}
	if p.answers != NoAnswers {
		var a [nqueens.MaxN]int32
		r.Solution = slices.Clone(columns(&a, z.Solution))
		if z.Class > 0 {
			r.Class = &z.Class
		}
		symmetry := z.Symmetry.String()
		r.Symmetry = &symmetry
	}
	*p.rows.next() = r
	return p.rows.err
}

// Close writes the rows left and the file's footer.
func (p *parquetPuzzles) Close() error { return p.rows.close() }
