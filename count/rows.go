package count

import "github.com/nqueens/nqueens"

// Rows is a constellation's search laid out row by row, as Solutions walks
// it, for another device's search of the same tree (count/gpu): the rows
// the border queens leave empty, from the top, and what each free row
// hands the next.
type Rows struct {
	// First is the set of free squares of the first free row (bit c for
	// column c).
	First uint32
	// Count is the number of free rows.
	Count int
	// Steps[i], for i < Count-1, leads from free row i to free row i+1.
	Steps [nqueens.MaxN]rowStep
}

// rowStep leads from one free row of a constellation's search to the next.
// A queen on bit of a row whose queens above take the columns cols and
// the diagonals ld (going down-left, as bit c shifts to c+1 each row) and
// rd (down-right) leaves the next free row the squares
//
//	^(cols|bit | (ld|bit)<<Shift | (rd|bit)>>Shift | Block)
//
// of which the board holds only the columns below n.
type rowStep struct {
	// Block holds the squares of the next free row that the border
	// queens take (by column or diagonal) and the bits beyond the board.
	Block uint32
	// Shift is the number of rows from this free row to the next.
	Shift uint8
}

// Rows returns the search of c row by row. The zero Constellation has no
// rows.
func (c Constellation) Rows() Rows {
	var r Rows
	if c.n == 0 {
		return r
	}
	p := plans.Get().(*plan)
	defer plans.Put(p)
	p.prepare(c, noTable)
	if r.Count = p.rows; r.Count > 0 {
		r.First = p.free0
	}
	for i := 0; i+1 < p.rows; i++ {
		r.Steps[i] = rowStep{Block: p.steps[i].block, Shift: uint8(p.steps[i].shift)}
	}
	return r
}
