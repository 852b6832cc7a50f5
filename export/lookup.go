package export

import (
	"fmt"
	"io"
	"strconv"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
)

// Found is what a lookup says of one placement: whether it is a solution
// and, if it is, its class.
type Found struct {
	Placement nqueens.Placement
	// NotSolution says why the placement is not a solution (two queens
	// that attack each other); nil for a solution. The fields below are
	// set only for a solution.
	NotSolution error
	// Canonical is the canonical placement of the solution's class, and
	// Symmetry its symmetry.
	Canonical nqueens.Placement
	Symmetry  nqueens.Symmetry
	// Transform names the symmetry of the board that maps Canonical to
	// Placement ("identity", "rot90", ..., see canonical.Transform).
	Transform string
	// Class is the class's number in the catalog, 0 when unknown.
	Class int64
}

// Identify says what p is: a Found with whether it is a solution and, if
// it is, its class (canonical.Identify) and the class's number from
// number, which may be nil (the number unknown) and may return 0 for an n
// it does not know.
func Identify(p nqueens.Placement, number func(canonical nqueens.Placement) (int64, error)) (Found, error) {
	f := Found{Placement: p, NotSolution: p.Valid()}
	if f.NotSolution != nil {
		return f, nil
	}
	id := canonical.Identify(p)
	f.Canonical, f.Symmetry, f.Transform = id.Canonical, id.Symmetry, id.Transform.String()
	if number == nil {
		return f, nil
	}
	var err error
	f.Class, err = number(id.Canonical)
	return f, err
}

// WriteFound writes found to w as one line: in json an object with n,
// placement, valid, and either error, or canonical, class (when known),
// orbit, symmetry and transform; in text the same in words:
//
//	n=8 4 6 1 5 2 0 7 3: class 9, canonical 1 6 4 7 0 3 5 2, orbit 8 (symmetry none), transform antitranspose
//	n=4 0 1 2 3: not a solution: queens at row 0 column 0 and row 1 column 1 attack each other
//
// It returns the error of w. It panics if f is not one of LookupFormats.
func (f Format) WriteFound(w io.Writer, found Found) error {
	var buf []byte
	switch f {
	case FormatJSON:
		buf = appendFoundJSON(buf, found)
	case FormatText:
		buf = appendFoundText(buf, found)
	default:
		panic(fmt.Sprintf("export: %v is not a format of lookups", f))
	}
	_, err := w.Write(append(buf, '\n'))
	return err
}

// appendFoundJSON appends f's JSON object.
func appendFoundJSON(buf []byte, f Found) []byte {
	var a [nqueens.MaxN]int32
	buf = append(buf, `{"n":`...)
	buf = strconv.AppendInt(buf, int64(f.Placement.N()), 10)
	buf = append(buf, `,"placement":[`...)
	buf = appendCols(buf, columns(&a, f.Placement), ',')
	if f.NotSolution != nil {
		buf = append(buf, `],"valid":false,"error":`...)
		buf = strconv.AppendQuote(buf, f.NotSolution.Error())
		return append(buf, '}')
	}
	buf = append(buf, `],"valid":true,"canonical":[`...)
	buf = appendCols(buf, columns(&a, f.Canonical), ',')
	buf = append(buf, ']')
	if f.Class > 0 {
		buf = append(buf, `,"class":`...)
		buf = strconv.AppendInt(buf, f.Class, 10)
	}
	buf = append(buf, `,"orbit":`...)
	buf = strconv.AppendInt(buf, int64(f.Symmetry.Orbit()), 10)
	buf = append(buf, `,"symmetry":"`...)
	buf = append(buf, f.Symmetry.String()...)
	buf = append(buf, `","transform":"`...)
	buf = append(buf, f.Transform...)
	return append(buf, `"}`...)
}

// appendFoundText appends f's line of text.
func appendFoundText(buf []byte, f Found) []byte {
	var a [nqueens.MaxN]int32
	buf = append(buf, "n="...)
	buf = strconv.AppendInt(buf, int64(f.Placement.N()), 10)
	buf = append(buf, ' ')
	buf = appendCols(buf, columns(&a, f.Placement), ' ')
	if f.NotSolution != nil {
		buf = append(buf, ": not a solution: "...)
		return append(buf, f.NotSolution.Error()...)
	}
	buf = append(buf, ": "...)
	if f.Class > 0 {
		buf = append(buf, "class "...)
		buf = strconv.AppendInt(buf, f.Class, 10)
		buf = append(buf, ", "...)
	}
	buf = append(buf, "canonical "...)
	buf = appendCols(buf, columns(&a, f.Canonical), ' ')
	buf = append(buf, ", orbit "...)
	buf = strconv.AppendInt(buf, int64(f.Symmetry.Orbit()), 10)
	buf = append(buf, " (symmetry "...)
	buf = append(buf, f.Symmetry.String()...)
	buf = append(buf, "), transform "...)
	return append(buf, f.Transform...)
}
