package gpu

import "encoding/binary"

// twin is the kernel's search in Go, step for step: the same tables, the
// same items, the same stack of the candidates and diagonals of each row,
// the same count in the last-but-one free row. It is what the tests
// hold the kernel's source to on a machine without a GPU, what a GPU's
// counts are checked against item by item, and, a trip at a time (lane),
// what the model of a warp (work_test.go) runs.
type twin struct {
	cons []uint32 // encodeCons's words
}

// newTwin returns the twin of the kernel over the constellations cons
// (encodeCons).
func newTwin(cons []byte) *twin {
	t := &twin{cons: make([]uint32, len(cons)/4)}
	for i := range t.cons {
		t.cons[i] = binary.LittleEndian.Uint32(cons[4*i:])
	}
	return t
}

// count returns the solutions of it, as a lane of the kernel counts them.
func (t *twin) count(it item) uint64 {
	var ln lane
	ln.start(t, it)
	for ln.step() != pathNext {
	}
	return ln.n
}

// The paths of a trip of the kernel's loop: a row gone back up (pop), a
// square placed that leaves the next row a free square (push) or none
// (dead), a square of the last-but-one row counted (count), and the end
// of an item (next). pathTake and pathIdle are trips of a lane with no
// item, which takes one or finds none (the model of work_test.go, not
// the twin's).
const (
	pathPop = iota
	pathPush
	pathDead
	pathCount
	pathNext
	pathTake
	pathIdle
	paths
)

// lane is one lane of the kernel's search, a trip at a time: the loop of
// count_items, whose paths (pathPop...) step returns.
type lane struct {
	con                []uint32 // the item's constellation's words
	top, row, stop     uint32
	free, cols, ld, rd uint32
	stack              [stackRows][3]uint32
	n                  uint64
	done               bool
}

// start makes it the lane's item, on the twin t's constellations.
func (ln *lane) start(t *twin, it item) {
	ln.con = t.cons[conWords*int(it.con):][:conWords]
	ln.top, ln.row, ln.stop = uint32(it.row), uint32(it.row), ln.con[conStop]
	ln.free, ln.cols, ln.ld, ln.rd = it.free, it.cols, it.ld, it.rd
	ln.n, ln.done = 0, false
}

// step runs one trip of the loop and returns its path; pathNext when the
// item is counted (ln.n), and from then on.
func (ln *lane) step() int {
	if ln.done {
		return pathNext
	}
	if ln.free == 0 {
		if ln.row == ln.top {
			ln.done = true
			return pathNext
		}
		ln.row--
		s := &ln.stack[ln.row-ln.top]
		bit := s[0] & -s[0]
		ln.ld, ln.rd = s[1], s[2]
		ln.cols ^= bit
		ln.free = s[0] ^ bit
		return pathPop
	}
	bit := ln.free & -ln.free
	sh := ln.con[conShifts+ln.row]
	c, l, d := ln.cols|bit, (ln.ld|bit)<<sh, (ln.rd|bit)>>sh
	nx := ^(c | l | d | ln.con[conBlocks+ln.row])
	switch {
	case ln.row == ln.stop:
		ln.free ^= bit
		if nx != 0 {
			ln.n++ // the last row has a free square: a solution
		}
		return pathCount
	case nx == 0:
		ln.free ^= bit
		return pathDead
	}
	ln.stack[ln.row-ln.top] = [3]uint32{ln.free, ln.ld, ln.rd}
	ln.cols, ln.ld, ln.rd = c, l, d
	ln.free = nx
	ln.row++
	return pathPush
}
