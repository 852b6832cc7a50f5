package canonical

import "github.com/nqueens/nqueens/enumerate"

// Nodes returns the number of nodes the class search visits below the
// unit's prefix, as Cost estimates them: the node the search starts at and
// every square it descends into. It walks the tree as place does, apart
// from the hot loop, so that tests measure real work.
func Nodes(u enumerate.Unit) uint64 {
	var s searcher
	start, root, ok := s.tree(u)
	if !ok {
		return 1
	}
	return s.nodes(start, root.free, root.cols, root.ld, root.rd)
}

// nodes counts the node of row r whose free squares are free, and the
// nodes below it.
func (s *searcher) nodes(r int, free, cols, ld, rd uint32) uint64 {
	if r == s.last {
		return 1
	}
	block, need := s.block[r+1], s.need[r+1]
	k := uint64(1)
	for ; free != 0; free &= free - 1 {
		bit := free & -free
		c, l, d := cols|bit, (ld|bit)<<1, (rd|bit)>>1
		if next := ^(c | l | d | block); next != 0 && c&need == need {
			k += s.nodes(r+1, next, c, l, d)
		}
	}
	return k
}
