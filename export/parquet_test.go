package export

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/testutil"
	"github.com/nqueens/nqueens/internal/testutil/parquetrows"
)

// layoutSchema is the schema of a Parquet file of layouts, as its footer
// states it.
const layoutSchema = `required int32 n (INT(32,true))
optional int64 class (INT(64,true))
required group placement (LIST)
  repeated group list
    required int32 element (INT(32,true))
required int32 orbit (INT(32,true))
required byte_array symmetry (STRING)
`

// readParquet reads the Parquet file data back with an independent
// reader, checking its schema, and returns its rows as JSON values.
func readParquet(t *testing.T, data []byte, schema string) *parquetrows.File {
	t.Helper()
	f, err := parquetrows.Read(data)
	if err != nil {
		t.Fatalf("read the parquet file back: %v", err)
	}
	if f.Schema != schema {
		t.Fatalf("parquet schema:\n%s\nwant:\n%s", f.Schema, schema)
	}
	return f
}

// ndjsonRows returns the objects of the NDJSON data, a line each.
func ndjsonRows(t *testing.T, data []byte) []map[string]any {
	t.Helper()
	var rows []map[string]any
	for line := range strings.Lines(string(data)) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("ndjson line %q: %v", line, err)
		}
		rows = append(rows, m)
	}
	return rows
}

// sameRows fails the test at the first row of got that differs from
// want's, and if they hold different numbers of rows.
func sameRows(t *testing.T, got, want []map[string]any) {
	t.Helper()
	for i := range min(len(got), len(want)) {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("row %d: parquet %v, ndjson %v", i, got[i], want[i])
		}
	}
	if len(got) != len(want) {
		t.Fatalf("parquet holds %d rows, ndjson %d", len(got), len(want))
	}
}

// TestParquetLayouts writes the classes, and every solution, of several
// n in parquet and in ndjson, reads the Parquet file back with a reader
// of its own and finds each row equal to the NDJSON object of the same
// layout: the same columns, typed, and a null class where the object
// leaves it out (a class not known).
func TestParquetLayouts(t *testing.T) {
	unknown := []nqueens.Layout{
		{Placement: nqueens.MustNew(1, 3, 0, 2), Symmetry: nqueens.SymRot90},
		{Class: 1, Placement: nqueens.MustNew(2, 0, 3, 1), Symmetry: nqueens.SymRot90},
		{Placement: nqueens.MustNew(0), Symmetry: nqueens.SymFull},
	}
	for name, ls := range map[string][]nqueens.Layout{
		"none": nil, "1": layouts(1, false), "8": layouts(8, false), "8-all": layouts(8, true),
		"10-all": layouts(10, true), "12": layouts(12, false), "class unknown": unknown,
	} {
		t.Run(name, func(t *testing.T) {
			f := readParquet(t, write(t, FormatParquet, ls), layoutSchema)
			sameRows(t, f.Rows, ndjsonRows(t, write(t, FormatNDJSON, ls)))
			if want := min(len(ls), 1); f.RowGroups != want {
				t.Errorf("%d row groups, want %d", f.RowGroups, want)
			}
		})
	}
}

// TestParquetRowGroups writes two row groups and a part of one, and reads
// every row back in order, each equal to its NDJSON object.
func TestParquetRowGroups(t *testing.T) {
	// A row group flushed whole and one cut short are written by default
	// (TestParquetCutHasNoFooter).
	testutil.LongOnly(t)
	some := layouts(10, true)
	ls := make([]nqueens.Layout, 2*ParquetRowGroup+1000)
	for i := range ls {
		ls[i] = some[i%len(some)]
	}
	f := readParquet(t, write(t, FormatParquet, ls), layoutSchema)
	if f.RowGroups != 3 {
		t.Errorf("%d row groups of %d rows, want 3", f.RowGroups, len(ls))
	}
	sameRows(t, f.Rows, ndjsonRows(t, write(t, FormatNDJSON, ls)))
}

// TestParquetWriteAllocates checks that writing a layout to a Parquet
// file allocates nothing: the rows are batched in one slice, used again.
func TestParquetWriteAllocates(t *testing.T) {
	ls := layouts(10, true)
	w := FormatParquet.New(&bytes.Buffer{}, ClassBoards)
	i := 0
	allocs := testing.AllocsPerRun(20_000, func() {
		if err := w.Write(ls[i%len(ls)]); err != nil {
			t.Fatal(err)
		}
		i++
	})
	if allocs > 0 {
		t.Errorf("%.2f allocations a layout, want none", allocs)
	}
}

// puzzleSchema is the schema of a Parquet file of puzzles.
const puzzleSchema = `required int32 n (INT(32,true))
optional group given (LIST)
  repeated group list
    required group element
      required int32 row (INT(32,true))
      required int32 column (INT(32,true))
optional group solution (LIST)
  repeated group list
    required int32 element (INT(32,true))
optional int64 class (INT(64,true))
optional byte_array symmetry (STRING)
optional int32 givens (INT(32,true))
optional byte_array difficulty (STRING)
optional int64 nodes (INT(64,true))
`

// TestParquetPuzzles writes puzzles with each choice of answers in
// parquet and in ndjson and finds each row of the Parquet file, read back
// with a reader of its own, equal to the NDJSON object of the same
// puzzle: the given queens a list of (row, column) pairs where the object
// has [row, column] arrays, and a null where the object leaves a key out.
func TestParquetPuzzles(t *testing.T) {
	all := append(puzzles, Puzzle{N: 1, Solution: nqueens.MustNew(0), Class: 1, Symmetry: nqueens.SymFull, Difficulty: "easy", Nodes: 1, Seed: 1, Index: 2})
	for _, name := range AnswerChoices {
		answers, err := ParseAnswers(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, ps := range [][]Puzzle{nil, all} {
			write := func(f Format) []byte {
				var buf bytes.Buffer
				w := f.NewPuzzles(&buf, answers)
				for _, p := range ps {
					if err := w.Write(p); err != nil {
						t.Fatal(err)
					}
				}
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				return buf.Bytes()
			}
			f := readParquet(t, write(FormatParquet), puzzleSchema)
			for _, r := range f.Rows {
				given, ok := r["given"].([]any)
				if !ok {
					continue
				}
				for i, q := range given {
					q := q.(map[string]any)
					given[i] = []any{q["row"], q["column"]}
				}
			}
			sameRows(t, f.Rows, ndjsonRows(t, write(FormatNDJSON)))
		}
	}
}

// TestParquetCutHasNoFooter checks that an export cancelled part way
// leaves no Parquet file: what was written lacks the footer and its magic
// number, and a reader refuses it.
func TestParquetCutHasNoFooter(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ls := layouts(10, true)
	layouts := func(yield func(nqueens.Layout, error) bool) {
		for i := range ParquetRowGroup + 10_000 {
			if i == ParquetRowGroup+9_000 {
				cancel()
			}
			if !yield(ls[i%len(ls)], nil) {
				return
			}
		}
	}
	var buf bytes.Buffer
	written, err := WriteAll(ctx, FormatParquet.New(&buf, ClassBoards), layouts, nil)
	if !errors.Is(err, context.Canceled) || written != ParquetRowGroup+9_000 {
		t.Fatalf("WriteAll = %d, %v; want %d, %v", written, err, ParquetRowGroup+9_000, context.Canceled)
	}
	if buf.Len() == 0 || bytes.HasSuffix(buf.Bytes(), []byte("PAR1")) {
		t.Errorf("a cancelled export wrote %d bytes, ending %q: want the first row group, and no footer", buf.Len(), buf.Bytes()[max(0, buf.Len()-4):])
	}
	if _, err := parquetrows.Read(buf.Bytes()); err == nil {
		t.Error("a cancelled export reads as a Parquet file")
	}
}

// TestParquetMemoryFlat checks that a Parquet writer's memory does not
// grow with its rows: the heap live after 2.5 row groups of layouts and
// after 8.5 (each time half a row group buffered) differs by less than
// 1 MB (it shrinks by 0.8 MB, measured): the row groups go out as they
// fill. A writer that kept every row in one row group holds 7 MB more.
func TestParquetMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 1.1 million layouts")
	}
	ls := layouts(12, true)
	w := FormatParquet.New(io.Discard, ClassBoards)
	written := 0
	live := func(rows int) uint64 {
		for ; written < rows; written++ {
			if err := w.Write(ls[written%len(ls)]); err != nil {
				t.Fatal(err)
			}
		}
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	few, many := live(5*ParquetRowGroup/2), live(17*ParquetRowGroup/2)
	if many > few+1<<20 {
		t.Errorf("live heap %.1f MB after %d layouts, %.1f MB after %d: want within 1 MB", float64(many)/(1<<20), written, float64(few)/(1<<20), 5*ParquetRowGroup/2)
	}
	t.Logf("live heap %.2f MB after %d layouts, %.2f MB after %d", float64(many)/(1<<20), written, float64(few)/(1<<20), 5*ParquetRowGroup/2)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
