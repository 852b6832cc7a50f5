package nqueens

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nqueens/nqueens/internal/phrase"
)

// Symmetry is the set of board symmetries that map a solution onto itself.
// For n > 1 no solution is symmetric under a reflection, so the only
// possibilities are none, the half turn, and the quarter turn (which
// implies the half turn). The orbit of a class, the number of distinct
// solutions in it, is 8 divided by the number of symmetries it has.
type Symmetry uint8

const (
	// SymNone: no symmetry but the identity; the class has 8 solutions.
	SymNone Symmetry = iota
	// SymRot180: invariant under rotation by 180 degrees but not 90; the
	// class has 4 solutions.
	SymRot180
	// SymRot90: invariant under rotation by 90 degrees (and so by 180 and
	// 270); the class has 2 solutions.
	SymRot90
	// SymFull: invariant under all 8 symmetries; only the single queen of
	// n = 1. The class has 1 solution.
	SymFull
)

var symmetryNames = [...]string{
	SymNone:   "none",
	SymRot180: "rot180",
	SymRot90:  "rot90",
	SymFull:   "full",
}

// String returns the name used in the catalog and the exports: "none",
// "rot180", "rot90" or "full".
func (s Symmetry) String() string {
	if int(s) < len(symmetryNames) {
		return symmetryNames[s]
	}
	return fmt.Sprintf("Symmetry(%d)", uint8(s))
}

// Words says in words which symmetry a class has: "symmetric under the
// half turn (180°)", or "no symmetry".
func (s Symmetry) Words() string {
	switch s {
	case SymRot90:
		return "symmetric under the quarter turn (90°)"
	case SymRot180:
		return "symmetric under the half turn (180°)"
	case SymFull:
		return "symmetric under all 8 symmetries"
	}
	return "no symmetry"
}

// Orbit returns the number of distinct solutions in a class with symmetry
// s: 8, 4, 2 or 1, and 0 for an unknown Symmetry.
func (s Symmetry) Orbit() int {
	switch s {
	case SymNone:
		return 8
	case SymRot180:
		return 4
	case SymRot90:
		return 2
	case SymFull:
		return 1
	}
	return 0
}

// SymmetryOfOrbit returns the symmetry of a class with the given orbit
// size. It returns an error for sizes other than 8, 4, 2 and 1.
func SymmetryOfOrbit(orbit int) (Symmetry, error) {
	switch orbit {
	case 8:
		return SymNone, nil
	case 4:
		return SymRot180, nil
	case 2:
		return SymRot90, nil
	case 1:
		return SymFull, nil
	}
	return 0, fmt.Errorf("orbit size must be 8, 4, 2 or 1, got %d", orbit)
}

// Layout is one board as the catalog and the exporters see it: a solution
// together with the class it belongs to. When a class is listed on its own,
// Placement is the class's canonical representative; when every solution is
// listed, it is one member of the class.
type Layout struct {
	// Class is the class's 1-based number among the classes of its n, in
	// lexicographic order of their canonical placements.
	Class int64
	// Placement is the board.
	Placement Placement
	// Symmetry is the symmetry of the class; Symmetry.Orbit gives its size.
	Symmetry Symmetry
}

// N returns the board size of the layout.
func (l Layout) N() int { return l.Placement.N() }

// Counts tallies the classes of a board by orbit size. Total, the number
// of solutions, is the sum of the orbits; Unique is the number of classes.
type Counts struct {
	Total  uint64 `json:"total"`
	Unique uint64 `json:"unique"`
	Orbit8 uint64 `json:"orbit8"`
	Orbit4 uint64 `json:"orbit4"`
	Orbit2 uint64 `json:"orbit2"`
	Orbit1 uint64 `json:"orbit1"`
}

// Add counts one class with symmetry s.
func (c *Counts) Add(s Symmetry) { c.AddN(s, 1) }

// AddN counts k classes with symmetry s.
func (c *Counts) AddN(s Symmetry, k uint64) {
	c.Unique += k
	c.Total += k * uint64(s.Orbit())
	switch s {
	case SymNone:
		c.Orbit8 += k
	case SymRot180:
		c.Orbit4 += k
	case SymRot90:
		c.Orbit2 += k
	case SymFull:
		c.Orbit1 += k
	}
}

// Of returns the number of classes of symmetry s.
func (c Counts) Of(s Symmetry) uint64 {
	switch s {
	case SymNone:
		return c.Orbit8
	case SymRot180:
		return c.Orbit4
	case SymRot90:
		return c.Orbit2
	case SymFull:
		return c.Orbit1
	}
	return 0
}

// Merge adds the tallies of o to c.
func (c *Counts) Merge(o Counts) {
	c.Total += o.Total
	c.Unique += o.Unique
	c.Orbit8 += o.Orbit8
	c.Orbit4 += o.Orbit4
	c.Orbit2 += o.Orbit2
	c.Orbit1 += o.Orbit1
}

// ParseSymmetries reads a symmetry name (none, rot180, rot90 or full, as
// String writes them, in any case) or a comma-separated list of them, and
// returns each once, in the order given.
func ParseSymmetries(s string) ([]Symmetry, error) {
	var out []Symmetry
	for name := range strings.SplitSeq(s, ",") {
		name = strings.ToLower(strings.TrimSpace(name))
		i := slices.Index(symmetryNames[:], name)
		if i < 0 {
			return nil, fmt.Errorf("symmetry %s: want none, rot180, rot90 or full (or a comma list of them)", phrase.Quote(s))
		}
		if !slices.Contains(out, Symmetry(i)) {
			out = append(out, Symmetry(i))
		}
	}
	return out, nil
}
