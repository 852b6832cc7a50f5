// Package canonical owns the symmetry group of the square board and the
// classes it cuts the solutions into.
//
// The group has 8 elements, applied to a placement p (p[r] is the column of
// the queen in row r) of a board of n, with q the inverse permutation
// (q[c] is the row of the queen in column c) and m = n-1:
//
//	0 identity            p[r]
//	1 rotation by  90°    m - q[r]      (clockwise)
//	2 rotation by 180°    m - p[m-r]
//	3 rotation by 270°    q[m-r]
//	4 mirror left-right   m - p[r]
//	5 mirror top-bottom   p[m-r]
//	6 main diagonal       q[r]          (transpose)
//	7 anti-diagonal       m - q[m-r]
//
// The 8 images of a solution are solutions. Solutions that are images of
// each other form a class; the canonical representative of a class is the
// lexicographically smallest of the 8 images (Fold). A class holds 8, 4 or
// 2 distinct solutions (its orbit) according to whether the solution is
// invariant under no rotation, only the half turn, or the quarter turn (no
// solution of n > 1 is invariant under a reflection); the single queen of
// n = 1 is invariant under all 8 and its orbit is 1.
//
// Classes and Units search for the canonical representatives directly:
// the first-row queen of a canonical solution is no farther from its
// corner than any other queen on the border is from its nearest corner,
// which confines the search to about an eighth of the board's tree
// (CountUnits counts with it). Counting the numbers alone, faster, is the
// count package's.
package canonical

import (
	"bytes"

	"github.com/nqueens/nqueens"
)

// Transform numbers the 8 symmetries of the square in the order of the
// package comment, 0 being the identity.
type Transform int

// transforms lists the 8 symmetries in order.
var transforms = [8]Transform{0, 1, 2, 3, 4, 5, 6, 7}

var transformNames = [8]string{"identity", "rot90", "rot180", "rot270", "mirror", "flip", "transpose", "antitranspose"}

// String returns the transform's name: identity, rot90, rot180, rot270,
// mirror, flip, transpose or antitranspose.
func (t Transform) String() string {
	if t >= 0 && int(t) < len(transformNames) {
		return transformNames[t]
	}
	return "Transform(?)"
}

// Apply returns the image of p under t. It panics if t is not one of the 8
// transforms.
func (t Transform) Apply(p nqueens.Placement) nqueens.Placement {
	n := p.N()
	var b, q [nqueens.MaxN]uint8
	for r := range n {
		q[p.Col(r)] = uint8(r)
	}
	m := uint8(n - 1)
	for r := range n {
		var v uint8
		switch t {
		case 0:
			v = uint8(p.Col(r))
		case 1:
			v = m - q[r]
		case 2:
			v = m - uint8(p.Col(n-1-r))
		case 3:
			v = q[n-1-r]
		case 4:
			v = m - uint8(p.Col(r))
		case 5:
			v = uint8(p.Col(n - 1 - r))
		case 6:
			v = q[r]
		case 7:
			v = m - q[n-1-r]
		default:
			panic("canonical: unknown transform")
		}
		b[r] = v
	}
	return nqueens.FromBytes(b[:n])
}

// Images returns the 8 images of p, indexed by Transform. They may repeat
// when p is symmetric.
func Images(p nqueens.Placement) [8]nqueens.Placement {
	var out [8]nqueens.Placement
	for i, t := range transforms {
		out[i] = t.Apply(p)
	}
	return out
}

// Fold returns the canonical representative of p's class: the
// lexicographically smallest of its 8 images. Fold(Fold(p)) == Fold(p), and
// every image of p folds to the same placement.
func Fold(p nqueens.Placement) nqueens.Placement {
	best := p
	imgs := Images(p)
	for _, img := range imgs[1:] {
		if img.Compare(best) < 0 {
			best = img
		}
	}
	return best
}

// IsCanonical reports whether p is its class's canonical representative.
func IsCanonical(p nqueens.Placement) bool {
	return Fold(p) == p
}

// Classify reports whether the solution p is its class's canonical
// representative and, if it is, the symmetry of its class. It gives the
// same answers as IsCanonical and SymmetryOf but compares p with its images
// entry by entry, stopping at the first difference, which makes it several
// times faster. Like SymmetryOf it is meant for solutions.
func Classify(p nqueens.Placement) (nqueens.Symmetry, bool) {
	n := p.N()
	if n == 1 {
		return nqueens.SymFull, true
	}
	var a [nqueens.MaxN]uint8
	for r := range n {
		a[r] = uint8(p.Col(r))
	}
	return classify(&a, n)
}

// SymmetryOf returns the symmetry of p's class. It is only meaningful for
// solutions (p.Valid() == nil): for other permutations a reflection may
// also fix p, which this does not look at.
func SymmetryOf(p nqueens.Placement) nqueens.Symmetry {
	if p.N() == 1 {
		return nqueens.SymFull
	}
	if Transform(1).Apply(p) == p {
		return nqueens.SymRot90
	}
	if Transform(2).Apply(p) == p {
		return nqueens.SymRot180
	}
	return nqueens.SymNone
}

// Orbit returns the distinct images of p in lexicographic order, in a new
// slice: the members of p's class, Fold(p) first.
func Orbit(p nqueens.Placement) []nqueens.Placement {
	imgs := Images(p)
	out := make([]nqueens.Placement, 0, 8)
	for _, img := range imgs {
		i := 0
		for i < len(out) && out[i].Compare(img) < 0 {
			i++
		}
		if i < len(out) && out[i] == img {
			continue
		}
		out = append(out, nqueens.Placement{})
		copy(out[i+1:], out[i:])
		out[i] = img
	}
	return out
}

// inverse is the transform that undoes each transform: the quarter turns
// undo each other, and every other symmetry of the square undoes itself.
var inverse = [8]Transform{0, 3, 2, 1, 4, 5, 6, 7}

// inverse returns the transform that undoes t.
func (t Transform) inverse() Transform { return inverse[t] }

// Identity is what Identify finds of a solution.
type Identity struct {
	// Canonical is the canonical representative of the solution's class.
	Canonical nqueens.Placement
	// Symmetry is the symmetry of the class.
	Symmetry nqueens.Symmetry
	// Transform maps Canonical to the solution: the first of the 8
	// transforms, in their order, that does (several do when the class is
	// symmetric).
	Transform Transform
}

// Identify returns the class of the solution p (its canonical
// representative and symmetry) and the transform that maps the canonical
// representative to p. Like SymmetryOf it is meant for solutions.
func Identify(p nqueens.Placement) Identity {
	n := p.N()
	m := uint8(n - 1)
	var imgs [8][nqueens.MaxN]uint8
	var q [nqueens.MaxN]uint8
	for r := range n {
		q[p.Col(r)] = uint8(r)
	}
	for r := range n {
		c, s := uint8(p.Col(r)), n-1-r
		imgs[0][r] = c
		imgs[1][r] = m - q[r]
		imgs[2][r] = m - uint8(p.Col(s))
		imgs[3][r] = q[s]
		imgs[4][r] = m - c
		imgs[5][r] = uint8(p.Col(s))
		imgs[6][r] = q[r]
		imgs[7][r] = m - q[s]
	}
	best := 0
	for i := 1; i < 8; i++ {
		if bytes.Compare(imgs[i][:n], imgs[best][:n]) < 0 {
			best = i
		}
	}
	id := Identity{Canonical: nqueens.FromBytes(imgs[best][:n]), Symmetry: nqueens.SymNone, Transform: 8}
	switch {
	case n == 1:
		id.Symmetry = nqueens.SymFull
	case imgs[1] == imgs[0]:
		id.Symmetry = nqueens.SymRot90
	case imgs[2] == imgs[0]:
		id.Symmetry = nqueens.SymRot180
	}
	// p = T(c) for T the inverse of any transform that takes p to c; the
	// first such T in order.
	for i := range imgs {
		if imgs[i] == imgs[best] && inverse[i] < id.Transform {
			id.Transform = inverse[i]
		}
	}
	return id
}
