package join

import "math/bits"

// piece is a partial placement in a quarter of side h: queens on some of
// its rows and columns, no two attacking each other. It holds its
// diagonals, the quarter's own, d1 = r+c in its low 32 bits and d2 =
// r-c+h-1 in its high 32, each in 0..2h-2: two pieces' diagonals meet
// when their AND is not 0.
type piece uint64

func (p piece) d1() uint64 { return uint64(p) & (1<<32 - 1) }
func (p piece) d2() uint64 { return uint64(p) >> 32 }

// quarters lists every piece of a quarter of side h, grouped by the rows
// and columns it fills: the pieces of rows r and columns c (bit masks)
// are pieces[start[r<<h|c]:start[r<<h|c+1]]. The four quarters of a board
// share it, each reading it in its own place on the board.
type quarters struct {
	h      int
	start  []int32
	pieces []piece
}

// newQuarters returns the pieces of a quarter of side h, 0 <= h <= 12.
func newQuarters(h int) *quarters {
	q := &quarters{h: h}
	size := 1 << (2 * h)
	start := make([]int32, size+1)
	q.walk(func(k uint32, _ piece) { start[k+1]++ })
	for i := 1; i <= size; i++ {
		start[i] += start[i-1]
	}
	q.pieces = make([]piece, start[size])
	next := make([]int32, size)
	copy(next, start[:size])
	q.walk(func(k uint32, p piece) {
		q.pieces[next[k]] = p
		next[k]++
	})
	q.start = start
	return q
}

// walk calls emit with the key (rows<<h | columns) of every piece of the
// quarter, row by row: each row empty or holding one queen.
func (q *quarters) walk(emit func(key uint32, p piece)) {
	h := q.h
	var place func(r int, rows, cols, d1, d2 uint32)
	place = func(r int, rows, cols, d1, d2 uint32) {
		if r == h {
			emit(rows<<uint(h)|cols, piece(d1)|piece(d2)<<32)
			return
		}
		place(r+1, rows, cols, d1, d2)
		for free := ^cols & (1<<uint(h) - 1); free != 0; free &= free - 1 {
			c := bits.TrailingZeros32(free)
			a, b := uint32(1)<<uint(r+c), uint32(1)<<uint(r-c+h-1)
			if d1&a == 0 && d2&b == 0 {
				place(r+1, rows|1<<uint(r), cols|1<<uint(c), d1|a, d2|b)
			}
		}
	}
	place(0, 0, 0, 0, 0)
}

// get returns the pieces on rows and columns, masks of the quarter's
// lines.
func (q *quarters) get(rows, cols uint32) []piece {
	k := rows<<uint(q.h) | cols
	return q.pieces[q.start[k]:q.start[k+1]]
}
