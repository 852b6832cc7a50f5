package partial

import (
	"context"
	"iter"
	"math"
	"math/bits"
	"slices"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/internal/parallel"
)

// search is the bitmask search of the empty rows of a board. The given
// queens are fixed before it starts: their columns and diagonals make one
// mask per empty row (block), and the search steps from one empty row to
// the next, shifting the diagonals of the queens it placed by the number
// of rows between them, so given rows cost nothing.
type search struct {
	n     int
	all   uint32
	free  int                  // number of empty rows
	rows  [nqueens.MaxN]uint8  // the empty rows, top first
	shift [nqueens.MaxN]uint8  // shift[i]: rows[i] - rows[i-1] (i > 0)
	block [nqueens.MaxN]uint32 // block[i]: the squares of rows[i] the givens attack
	board [nqueens.MaxN]uint8  // the givens' columns; the search fills the rest
	nodes uint64               // queens placed so far
	ok    bool                 // the givens do not attack each other
	halt  *parallel.Stop       // raised when the search must stop; nil for never
	cut   bool                 // the search saw halt raised and stopped short
}

// calmRows is the number of the last empty rows that count leaves to
// calm, which does not poll halt: a search of them places at most
// 109,600 queens (8 + 8*7 + ... + 8!), so count polls often enough, and
// the rows where most nodes are pay nothing for the polls.
const calmRows = 8

// stop reports whether the search must stop because halt is raised, and
// marks the search cut short if so.
func (s *search) stop() bool {
	if s.halt.Stopped() {
		s.cut = true
		return true
	}
	return false
}

// newSearch prepares the search of b's completions.
func newSearch(b Board) *search {
	s := &search{n: int(b.n), all: uint32(1)<<b.n - 1, ok: b.n > 0 && b.Check() == nil}
	if !s.ok {
		return s
	}
	prev := 0
	for r := range s.n {
		if b.cols[r] != 0 {
			s.board[r] = b.cols[r] - 1
			continue
		}
		var m uint32
		for g := range s.n {
			if b.cols[g] == 0 {
				continue
			}
			c := int(b.cols[g]) - 1
			d := r - g
			m |= 1 << c
			if c+d >= 0 && c+d < s.n {
				m |= 1 << (c + d)
			}
			if c-d >= 0 && c-d < s.n {
				m |= 1 << (c - d)
			}
		}
		s.rows[s.free] = uint8(r)
		s.shift[s.free] = uint8(r - prev)
		s.block[s.free] = m
		s.free++
		prev = r
	}
	return s
}

// count returns the completions below empty row i, up to about limit
// (it stops once it has found limit), given the columns and the diagonals,
// projected on rows[i], of the queens placed above it. The rows above the
// last calmRows poll halt before each square, and calm searches the
// rest. When the search must stop, count returns limit, which stops every
// caller in turn: the count is then meaningless, and s.cut is set.
func (s *search) count(i int, cols, ld, rd uint32, limit uint64) uint64 {
	if i >= s.free-calmRows {
		return s.calm(i, cols, ld, rd, limit)
	}
	var total uint64
	for avail := s.all &^ (cols | ld | rd | s.block[i]); avail != 0 && total < limit; avail &= avail - 1 {
		if s.stop() {
			return limit
		}
		bit, d := avail&-avail, s.shift[i+1]
		s.nodes++
		total += s.count(i+1, cols|bit, (ld|bit)<<d, (rd|bit)>>d, limit-total)
	}
	return total
}

// calm is count for the last calmRows empty rows, or fewer: it does not
// poll halt, and pays nothing for it at the nodes, most of them, that
// those rows hold.
func (s *search) calm(i int, cols, ld, rd uint32, limit uint64) uint64 {
	avail := s.all &^ (cols | ld | rd | s.block[i])
	if i == s.free-1 {
		k := uint64(bits.OnesCount32(avail))
		s.nodes += k
		return k
	}
	d := s.shift[i+1]
	var total uint64
	for avail != 0 {
		bit := avail & -avail
		avail ^= bit
		s.nodes++
		total += s.calm(i+1, cols|bit, (ld|bit)<<d, (rd|bit)>>d, limit-total)
		if total >= limit {
			break
		}
	}
	return total
}

// run counts the completions, up to limit.
func (s *search) run(limit uint64) uint64 {
	switch {
	case !s.ok || limit == 0:
		return 0
	case s.free == 0:
		return 1
	}
	return s.count(0, 0, 0, 0, limit)
}

// walk calls yield with the board of every completion, in lexicographic
// order, until yield returns false. The array is reused: yield must copy
// what it keeps.
func (s *search) walk(yield func(p *[nqueens.MaxN]uint8) bool) {
	if !s.ok {
		return
	}
	p := s.board
	if s.free == 0 {
		yield(&p)
		return
	}
	var avail, cs, ls, rs [nqueens.MaxN]uint32
	i, last := 0, s.free-1
	avail[0] = s.all &^ s.block[0]
	for {
		a := avail[i]
		if a == 0 {
			if i == 0 {
				return
			}
			i--
			continue
		}
		bit := a & -a
		avail[i] = a ^ bit
		s.nodes++
		if s.stop() {
			return
		}
		p[s.rows[i]] = uint8(bits.TrailingZeros32(bit))
		if i == last {
			if !yield(&p) {
				return
			}
			continue
		}
		d := s.shift[i+1]
		c, l, r := cs[i]|bit, (ls[i]|bit)<<d, (rs[i]|bit)>>d
		i++
		cs[i], ls[i], rs[i] = c, l, r
		avail[i] = s.all &^ (c | l | r | s.block[i])
	}
}

// Completions returns an iterator over the solutions that extend b (that
// hold every queen b gives), in lexicographic order of their column
// sequences. A board whose queens attack each other (see Board.Check), or
// the zero Board, has none. It allocates nothing per solution. The
// iterator can be used more than once; each use searches again, and the
// search stops as soon as yield returns false.
func Completions(b Board) iter.Seq[nqueens.Placement] {
	return func(yield func(nqueens.Placement) bool) {
		n := b.N()
		newSearch(b).walk(func(p *[nqueens.MaxN]uint8) bool {
			return yield(nqueens.FromBytes(p[:n]))
		})
	}
}

// Count is what CountCompletions finds: the number of completions of a
// board, and the size of the search that found them.
type Count struct {
	// Completions is the number of solutions that extend the board.
	Completions uint64 `json:"count"`
	// Nodes is the number of queens the search placed in the empty rows,
	// dead ends included: the size of its tree less the root. The given
	// queens are masks, not nodes.
	Nodes uint64 `json:"nodes"`
}

// CountCompletions counts the solutions that extend b, on one goroutine,
// without listing them, and the nodes of the search. A board whose queens
// attack each other (see Board.Check), or the zero Board, counts 0 with 0
// nodes.
func CountCompletions(b Board) Count {
	c, _ := CountContext(context.Background(), b)
	return c
}

// CountContext is CountCompletions stopping soon after ctx is cancelled,
// with ctx.Err(): the search polls a parallel.Stop before each square of
// all but its last rows, so even the count of an empty board of 32, which
// would take years, stops within milliseconds of a Ctrl-C.
func CountContext(ctx context.Context, b Board) (Count, error) {
	s := newSearch(b)
	var release func()
	s.halt, release = parallel.Watch(ctx)
	defer release()
	k := s.run(math.MaxUint64)
	if s.cut {
		return Count{Nodes: s.nodes}, ctx.Err() // k is meaningless: see count
	}
	return Count{Completions: k, Nodes: s.nodes}, nil
}

// CountUpTo is CountCompletions stopping once it has found limit
// completions (and counting at most limit): it tells 0, 1 and more
// completions apart, which is what making a puzzle asks again and again.
func CountUpTo(b Board, limit uint64) Count {
	s := newSearch(b)
	k := s.run(limit)
	return Count{Completions: min(k, limit), Nodes: s.nodes}
}

// Tally is one class of the completions of a board (ClassesOf): its
// canonical placement and symmetry, and how many completions it holds.
type Tally struct {
	Canonical nqueens.Placement
	Symmetry  nqueens.Symmetry
	Count     uint64
}

// ClassesOf returns the classes the completions of b belong to, in
// lexicographic order of their canonical placements (the order, and so
// the numbering, of the catalog), each with how many completions it
// holds. It searches every completion; a board with none, or whose queens
// attack each other, has none. It stops soon after ctx is cancelled, as
// CountContext does, with no tallies and ctx.Err().
func ClassesOf(ctx context.Context, b Board) ([]Tally, error) {
	counts := map[nqueens.Placement]*Tally{}
	s := newSearch(b)
	var release func()
	s.halt, release = parallel.Watch(ctx)
	defer release()
	s.walk(func(p *[nqueens.MaxN]uint8) bool {
		c := canonical.Fold(nqueens.FromBytes(p[:s.n]))
		t := counts[c]
		if t == nil {
			sym, _ := canonical.Classify(c)
			t = &Tally{Canonical: c, Symmetry: sym}
			counts[c] = t
		}
		t.Count++
		return true
	})
	out := make([]Tally, 0, len(counts))
	for _, t := range counts {
		out = append(out, *t)
	}
	slices.SortFunc(out, func(a, b Tally) int { return a.Canonical.Compare(b.Canonical) })
	if s.cut {
		return nil, ctx.Err() // a part of the tallies would pass for the whole
	}
	return out, nil
}
