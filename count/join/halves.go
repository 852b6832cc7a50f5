package join

import "math/bits"

// A half board is written as the key the sieve matches: the diagonals of
// its queens that the other half can also reach, those numbered s to
// s+2h-2 in each direction (r+c, and r-c+n-1), the first direction in the
// low 2h-1 bits and the second above them. An east and a west half of
// the same rows make a solution exactly when their keys share no bit. A
// west half also carries its weight, the power of two it counts for, in
// the top two bits.

// weightShift is where a key holds its weight.
const weightShift = 62

// keyMask clears a key's weight.
const keyMask = 1<<weightShift - 1

// Which column half a side is.
const (
	east = iota
	west
)

// side is one column half of an item: the rows it fills in the north and
// south quarters and the columns it may use (masks of the quarters'
// lines), and the diagonals the middle queens hold, in the half's own
// numbering (north piece's diagonals, the south's shifted up by s).
type side struct {
	north, south, cols uint32
	kind               int
	e1, e2             uint64
	// clean is what a west half of an even board with no queen on a long
	// diagonal counts for: keep (its weight 1), double (2), or drop (0:
	// counted with another item).
	clean int
}

// What a west half with no queen on a long diagonal counts for.
const (
	keep = iota
	double
	drop
)

// halves is a Counter's list of the keys of one side's halves, and its
// lists of south pieces.
type halves struct {
	keys []uint64
	fits []piece
	// part[i] is the part of the key of the i-th south piece, with its
	// weight; bare without it; weighed the pieces with a weight, and
	// weighedPart theirs.
	part, bare  []uint64
	weighed     []piece
	weighedPart []uint64
}

// build lists the keys of the halves of side sd of board b, and returns
// them; they are valid until the next build.
func (hs *halves) build(b *Board, sd side) []uint64 {
	h, s := uint(b.h), b.s
	w := 2*h - 1
	mask := uint64(1)<<w - 1
	e1, e2 := sd.e1, sd.e2
	weighs := false
	if b.n%2 == 0 {
		if sd.kind == east {
			// No queen on a long diagonal in the east half: the north
			// piece's r+c = h-1, the south piece's r-c+h-1 = h-1.
			e1 |= 1 << (h - 1)
			e2 |= 1 << (h - 1) << s
		} else {
			weighs = true
		}
	}
	// The middle's diagonals, as a south piece's own (a piece's are 2h-1 <
	// 32 bits each way).
	f := e1>>s&(1<<32-1) | e2>>s<<32
	keys := hs.keys[:0]
	k := bits.OnesCount32(sd.north)
	for cols := sd.cols; ; cols = (cols - 1) & sd.cols {
		if bits.OnesCount32(cols) != k {
			if cols == 0 {
				break
			}
			continue
		}
		north := b.q.get(sd.north, cols)
		south := b.q.get(sd.south, sd.cols^cols)
		if len(north) > 0 && len(south) > 0 {
			south = hs.fit(south, f)
			if sd.kind == east {
				hs.prepare(south, func(q1, q2 uint64) uint64 { return q1<<s&mask | q2<<w })
			} else {
				hs.prepare(south, func(q1, q2 uint64) uint64 { return q1 | (q2<<s&mask)<<w })
			}
			if weighs {
				hs.weigh(south, h)
			}
			for _, p := range north {
				p1, p2 := p.d1(), p.d2()
				if p1&e1|p2&e2 != 0 {
					continue
				}
				mid := piece(p1>>s | p2>>s<<32)
				if sd.kind == east {
					keys = join(grow(keys, len(south)), p1&mask|(p2>>s)<<w, mid, south, hs.part)
					continue
				}
				base := p1>>s | p2<<w
				switch {
				case !weighs:
					keys = join(grow(keys, len(south)), base, mid, south, hs.part)
				case p2>>(h-1)&1 != 0: // a queen on r = c: every half weighs
					keys = join(grow(keys, len(south)), base|1<<weightShift, mid, south, hs.part)
				case sd.clean == keep:
					keys = join(grow(keys, len(south)), base, mid, south, hs.part)
				case sd.clean == double:
					keys = join(grow(keys, len(south)), base|1<<weightShift, mid, south, hs.bare)
				default: // drop: only the south pieces that weigh
					keys = join(grow(keys, len(hs.weighed)), base, mid, hs.weighed, hs.weighedPart)
				}
			}
		}
		if cols == 0 {
			break
		}
	}
	hs.keys = keys
	return keys
}

// fit returns the pieces of south that avoid the diagonals f (a piece's
// own numbering), in a list of hs's valid until the next fit.
func (hs *halves) fit(south []piece, f uint64) []piece {
	if f == 0 {
		return south
	}
	out := hs.fits[:0]
	for _, q := range south {
		if uint64(q)&f == 0 {
			out = append(out, q)
		}
	}
	hs.fits = out
	return out
}

// prepare sets hs.part, and hs.bare, to the parts of the keys of south's
// pieces: part(d1, d2) of each.
func (hs *halves) prepare(south []piece, part func(q1, q2 uint64) uint64) {
	out := sized(&hs.part, len(south))
	bare := sized(&hs.bare, len(south))
	for i, q := range south {
		out[i] = part(q.d1(), q.d2())
		bare[i] = out[i]
	}
}

// weigh adds to hs.part the weight of each of south, a west half's south
// pieces: 1 for a queen on r+c = n-1 (its own r+c = h-1); and lists those
// that weigh in hs.weighed and hs.weighedPart.
func (hs *halves) weigh(south []piece, h uint) {
	hs.weighed, hs.weighedPart = hs.weighed[:0], hs.weighedPart[:0]
	for i, q := range south {
		if q.d1()>>(h-1)&1 != 0 {
			hs.part[i] += 1 << weightShift
			hs.weighed = append(hs.weighed, q)
			hs.weighedPart = append(hs.weighedPart, hs.part[i])
		}
	}
}

// join appends the keys of the halves of a north piece, whose key is
// base, and each piece of south that fits beside it: one whose diagonals
// miss p's (the north piece's diagonals in the south piece's numbering).
// part[i] is the key of south[i]'s half. keys has room for len(south)
// more.
func join(keys []uint64, base uint64, p piece, south []piece, part []uint64) []uint64 {
	j := len(keys)
	out := keys[j : j+len(south)]
	part = part[:len(south)]
	n := 0
	for i, q := range south {
		out[n] = base + part[i] // the two share no bit but their weights
		if q&p == 0 {
			n++
		}
	}
	return keys[:j+n]
}

// grow returns keys with room for n more.
func grow(keys []uint64, n int) []uint64 {
	if cap(keys)-len(keys) >= n {
		return keys
	}
	out := make([]uint64, len(keys), 2*cap(keys)+n)
	copy(out, keys)
	return out
}
