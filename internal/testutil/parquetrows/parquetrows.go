// Package parquetrows reads a Parquet file back for tests, with a reader
// that shares no code with the writer export uses
// (github.com/xitongsys/parquet-go, not github.com/parquet-go/parquet-go),
// so that a test of what export writes checks the file, not one library
// against itself. Only tests import it.
//
// It reads the shapes export writes: top-level columns, each a required
// or optional primitive, or a list (the three-level LIST of the Parquet
// format) of primitives or of groups of primitives.
package parquetrows

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/xitongsys/parquet-go/parquet"
	"github.com/xitongsys/parquet-go/reader"
	"github.com/xitongsys/parquet-go/source"
)

// File is what Read finds in a Parquet file.
type File struct {
	// Schema is the file's schema as its footer states it, a line a
	// column from the top down, children indented by two spaces:
	// "optional group given (LIST)", "  repeated group list", "required
	// int32 n (INT(32,true))".
	Schema string
	// Rows holds each row as a map from a top-level column's name to its
	// value as encoding/json decodes a JSON object into an any: numbers
	// as float64, byte arrays as strings, a list as []any, a group as
	// map[string]any; a null is left out.
	Rows []map[string]any
	// RowGroups is the number of row groups.
	RowGroups int
}

// Read reads the whole Parquet file data.
func Read(data []byte) (*File, error) {
	r, err := reader.NewParquetColumnReader(&memFile{bytes.NewReader(data), data}, 1)
	if err != nil {
		return nil, fmt.Errorf("parquet footer: %w", err)
	}
	elems := r.Footer.GetSchema()
	if len(elems) == 0 {
		return nil, errors.New("parquet footer: no schema")
	}
	// The reader renames the footer's fields to Go names: the file's
	// names are its external names.
	names := make([]string, len(elems))
	for i := range elems {
		names[i] = r.SchemaHandler.GetExName(i)
	}
	var b strings.Builder
	root, used, err := parse(elems, names, -1, &b)
	if err != nil {
		return nil, err
	}
	if used != len(elems) {
		return nil, fmt.Errorf("parquet schema: %d elements after the root's children", len(elems)-used)
	}
	f := &File{Schema: b.String(), RowGroups: len(r.Footer.GetRowGroups())}
	rows := r.GetNumRows()
	f.Rows = make([]map[string]any, rows)
	for i := range f.Rows {
		f.Rows[i] = map[string]any{}
	}
	leaves := r.SchemaHandler.ValueColumns
	k := 0
	for _, top := range root.children {
		vals := make([]any, rows)
		switch {
		case top.leaf():
			if top.rep == parquet.FieldRepetitionType_REPEATED {
				return nil, fmt.Errorf("parquet column %s: a repeated field outside a LIST", top.name)
			}
			col, err := readColumn(r, leaves, &k, rows)
			if err != nil {
				return nil, err
			}
			if err := scalars(col, top, vals); err != nil {
				return nil, err
			}
		case top.logical == "LIST":
			if err := list(r, leaves, &k, rows, top, vals); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("parquet column %s: a group that is no LIST", top.name)
		}
		for i, v := range vals {
			if v != nil {
				f.Rows[i][top.name] = v
			}
		}
	}
	if k != len(leaves) {
		return nil, fmt.Errorf("parquet schema: read %d of %d leaf columns", k, len(leaves))
	}
	return f, nil
}

// node is one element of a schema, with its children.
type node struct {
	name     string
	rep      parquet.FieldRepetitionType
	typ      string // physical type of a leaf, "" for a group
	logical  string // "LIST", "STRING", "INT(32,true)", or ""
	children []*node
}

func (n *node) leaf() bool { return n.typ != "" }

// parse builds the node of elems[0], named names[0], whose children
// follow it, writing its line (at depth, -1 for the root, which has none)
// to b; it returns how many elements it and its children take.
func parse(elems []*parquet.SchemaElement, names []string, depth int, b *strings.Builder) (*node, int, error) {
	e := elems[0]
	n := &node{name: names[0], rep: e.GetRepetitionType()}
	if e.IsSetType() {
		n.typ = strings.ToLower(e.GetType().String())
	}
	switch l := e.GetLogicalType(); {
	case l != nil && l.IsSetLIST():
		n.logical = "LIST"
	case l != nil && l.IsSetSTRING():
		n.logical = "STRING"
	case l != nil && l.IsSetINTEGER():
		n.logical = fmt.Sprintf("INT(%d,%t)", l.GetINTEGER().GetBitWidth(), l.GetINTEGER().GetIsSigned())
	case l != nil:
		n.logical = l.String()
	case e.IsSetConvertedType():
		n.logical = e.GetConvertedType().String()
	}
	if depth >= 0 {
		kind := n.typ
		if !n.leaf() {
			kind = "group"
		}
		line := fmt.Sprintf("%s%s %s %s", strings.Repeat("  ", depth), strings.ToLower(n.rep.String()), kind, n.name)
		if n.logical != "" {
			line += " (" + n.logical + ")"
		}
		b.WriteString(line + "\n")
	}
	used := 1
	for range e.GetNumChildren() {
		if used >= len(elems) {
			return nil, 0, fmt.Errorf("parquet schema: %s lacks children", n.name)
		}
		c, k, err := parse(elems[used:], names[used:], depth+1, b)
		if err != nil {
			return nil, 0, err
		}
		n.children = append(n.children, c)
		used += k
	}
	return n, used, nil
}

// column is the values of one leaf column with their levels.
type column struct {
	values   []any
	rep, def []int32
}

// readColumn reads leaf column *k of rows rows and moves *k to the next.
func readColumn(r *reader.ParquetReader, leaves []string, k *int, rows int64) (column, error) {
	if *k >= len(leaves) {
		return column{}, errors.New("parquet schema: more columns than leaves")
	}
	path := leaves[*k]
	*k++
	vals, rep, def, err := r.ReadColumnByPath(path, rows)
	if err != nil {
		return column{}, fmt.Errorf("parquet column %s: %w", path, err)
	}
	if len(rep) != len(vals) || len(def) != len(vals) {
		return column{}, fmt.Errorf("parquet column %s: %d values, %d repetition and %d definition levels", path, len(vals), len(rep), len(def))
	}
	return column{vals, rep, def}, nil
}

// scalars puts the values of the top-level primitive column col, of the
// field n, in vals, a row each.
func scalars(col column, n *node, vals []any) error {
	if len(col.values) != len(vals) {
		return fmt.Errorf("parquet column %s: %d values for %d rows", n.name, len(col.values), len(vals))
	}
	for i, v := range col.values {
		if col.def[i] == 0 && n.rep == parquet.FieldRepetitionType_OPTIONAL {
			continue
		}
		j, err := jsonValue(v, n)
		if err != nil {
			return err
		}
		vals[i] = j
	}
	return nil
}

// list puts the lists of the LIST column top in vals, a row each: a
// list of its element's values, or of maps when the element is a group.
func list(r *reader.ParquetReader, leaves []string, k *int, rows int64, top *node, vals []any) error {
	if len(top.children) != 1 || top.children[0].rep != parquet.FieldRepetitionType_REPEATED || len(top.children[0].children) != 1 {
		return fmt.Errorf("parquet column %s: a LIST not of the three-level form", top.name)
	}
	elem := top.children[0].children[0]
	if elem.rep == parquet.FieldRepetitionType_OPTIONAL {
		return fmt.Errorf("parquet column %s: optional elements", top.name)
	}
	fields := []*node{elem}
	if !elem.leaf() {
		fields = elem.children
	}
	// The definition level of a present element: 1 for the repeated
	// group, 1 more if the list itself is optional.
	present := int32(1)
	if top.rep == parquet.FieldRepetitionType_OPTIONAL {
		present = 2
	}
	var lists [][]any // of each row, nil for a null list
	for fi, field := range fields {
		if !field.leaf() || field.rep != parquet.FieldRepetitionType_REQUIRED {
			return fmt.Errorf("parquet column %s: element field %s is not a required primitive", top.name, field.name)
		}
		col, err := readColumn(r, leaves, k, rows)
		if err != nil {
			return err
		}
		row, at := -1, 0
		for i, v := range col.values {
			if col.rep[i] == 0 {
				row, at = row+1, 0
				if row >= len(vals) {
					return fmt.Errorf("parquet column %s: more than %d rows", top.name, len(vals))
				}
				if fi == 0 {
					lists = append(lists, nil)
					if col.def[i] >= present-1 {
						lists[row] = []any{}
					}
				}
			}
			if row < 0 {
				return fmt.Errorf("parquet column %s: the first value continues a row", top.name)
			}
			if col.def[i] < present {
				continue // a null or empty list
			}
			j, err := jsonValue(v, field)
			if err != nil {
				return err
			}
			if elem.leaf() {
				lists[row] = append(lists[row], j)
				continue
			}
			if fi == 0 {
				lists[row] = append(lists[row], map[string]any{})
			}
			if at >= len(lists[row]) {
				return fmt.Errorf("parquet column %s: field %s has more elements than %s in row %d", top.name, field.name, fields[0].name, row)
			}
			lists[row][at].(map[string]any)[field.name] = j
			at++
		}
		if row+1 != len(vals) {
			return fmt.Errorf("parquet column %s: %d rows, want %d", top.name, row+1, len(vals))
		}
	}
	for i, l := range lists {
		if l != nil {
			vals[i] = l
		}
	}
	return nil
}

// jsonValue returns the value v of the leaf n as encoding/json decodes
// its JSON: a number as float64, a string as a string.
func jsonValue(v any, n *node) (any, error) {
	switch v := v.(type) {
	case int32:
		return float64(v), nil
	case int64:
		return float64(v), nil
	case string:
		if n.logical != "STRING" {
			return nil, fmt.Errorf("parquet column %s: bytes that are no STRING", n.name)
		}
		return v, nil
	}
	return nil, fmt.Errorf("parquet column %s: a value %v of type %T", n.name, v, v)
}

// memFile is a Parquet file held in memory, as the reader reads it: each
// Open reads it afresh from the start.
type memFile struct {
	*bytes.Reader
	data []byte
}

func (m *memFile) Open(string) (source.ParquetFile, error) {
	return &memFile{bytes.NewReader(m.data), m.data}, nil
}

func (m *memFile) Create(string) (source.ParquetFile, error) {
	return nil, errors.New("parquetrows: read only")
}

func (m *memFile) Write([]byte) (int, error) { return 0, errors.New("parquetrows: read only") }

func (m *memFile) Close() error { return nil }
