package join

import "math/bits"

// Counting the pairs of disjoint keys.
//
// The shorter list of halves is the table: sorted by the cut bits of its
// keys (the diagonals nearest the middle, which most halves hold), and in
// blocks of 64, each block sliced by bit: for each bit of the key, a word
// whose bit j says that the block's j-th key lacks it. The AND of the
// slices of an item's bits is then the block's keys disjoint from the
// item, 64 pairs a word; tables of the ANDs of each 6 slices make that 8
// lookups or fewer. The other list, the items, is grouped by its cut
// bits, and a group is matched against a block only if its cut bits miss
// those of one of the block's keys at least (block.meets).

// maxCuts is the most cut bits of a sieve.
const maxCuts = 12

// chunk is the bits of a key each table of a block answers for.
const chunk = 6

// minGroup is the fewest keys of the table a cut bit leaves, on average,
// in each group.
const minGroup = 32

// cuts are a board's cut bits: the diagonals nearest the middle, in each
// direction, in order of how many pairs of halves they part.
type cuts struct {
	// lo is the lowest of the cut bits in each direction; proj1 and proj2
	// map a key's 7 bits from lo, in each direction, to its cut bits,
	// the first cut in bit maxCuts-1.
	lo           uint
	w            uint
	proj1, proj2 [128]uint16
}

// newCuts returns the cuts of a board of half side h; even boards' middle
// diagonals are the long ones, which no east half holds.
func newCuts(h int, even bool) cuts {
	w := 2*h - 1
	mid := h - 1
	c := cuts{w: uint(w), lo: uint(max(mid-3, 0))}
	var at []int // the cut diagonals, in order, in each direction
	for d := range 4 {
		switch {
		case d == 0 && !even:
			at = append(at, mid)
		case d > 0:
			at = append(at, mid+d, mid-d)
		}
	}
	rank := 0
	for _, a := range at {
		if a < int(c.lo) || a >= w || a-int(c.lo) >= 7 {
			continue
		}
		for _, proj := range []*[128]uint16{&c.proj1, &c.proj2} {
			if rank == maxCuts {
				return c
			}
			bit := uint16(1) << uint(maxCuts-1-rank)
			rank++
			for v := range proj {
				if v>>uint(a-int(c.lo))&1 != 0 {
					proj[v] |= bit
				}
			}
		}
	}
	return c
}

// of returns the cut bits of key, the first in bit maxCuts-1.
func (c *cuts) of(key uint64) uint {
	return uint(c.proj1[key>>c.lo&127] | c.proj2[key>>(c.w+c.lo)&127])
}

// block is 64 keys of the table, or fewer, of one weight: from lo to hi
// in the sorted table; and the cut bits of its keys: the distinct ones,
// cuts[:n], or if there are more than fit, n = 0 and in cuts[0] those
// that every key holds.
type block struct {
	lo, hi int32
	cuts   [6]uint16
	n      uint8
	weight uint8
}

// newBlock returns the block of keys lo to hi of sorted, of weight w,
// whose cut bits are cut(key), all of them all.
func newBlock(lo, hi int32, w int, sorted []uint64, cut func(uint64) uint16, all uint16) block {
	bl := block{lo: lo, hi: hi, weight: uint8(w)}
	full := false
	for _, key := range sorted[lo:hi] {
		c := cut(key)
		all &= c
		// The keys are sorted by cut bits: a new one follows the last.
		if full || bl.n > 0 && bl.cuts[bl.n-1] == c {
			continue
		}
		if int(bl.n) == len(bl.cuts) {
			full = true
			continue
		}
		bl.cuts[bl.n] = c
		bl.n++
	}
	if full {
		bl.n, bl.cuts[0] = 0, all
	}
	return bl
}

// meets reports whether every key of bl shares a cut bit with cut: then
// none is disjoint from an item with those cut bits.
func (bl *block) meets(cut uint16) bool {
	if bl.n == 0 {
		return bl.cuts[0]&cut != 0
	}
	for _, c := range bl.cuts[:bl.n] {
		if c&cut == 0 {
			return false
		}
	}
	return true
}

// group is the items lo to hi of the sorted items, those with cut bits
// cut and weight weight.
type group struct {
	lo, hi int32
	cut    uint16
	weight uint8
}

// matcher is a Counter's sieve: its tables and its sorted lists.
type matcher struct {
	tab          [8][1 << chunk]uint64
	wide         wideTable
	slice        [8 * chunk]uint64
	table, items []uint64
	cut          []uint16
	pos          []int32
	blocks       []block
	groups       []group
}

// count returns the number of pairs of east and west keys that share no
// bit, each weighted by its west key's weight.
func (m *matcher) count(b *Board, east, west []uint64) uint64 {
	if len(east) == 0 || len(west) == 0 {
		return 0
	}
	table, items := east, west
	if len(west) < len(east) {
		table, items = west, east
	}
	k := 0
	for k < maxCuts && len(table)>>uint(k+1) >= minGroup {
		k++
	}
	drop := uint(maxCuts - k)
	cutOf := func(key uint64) uint16 { return uint16(b.cuts.of(key) >> drop) }
	ng := 1 << uint(k)

	// The table, sorted by weight and cut bits, in blocks of one weight.
	sorted, ends := m.sort(table, cutOf, k, &m.table)
	blocks := m.blocks[:0]
	start := int32(0)
	for w := range 4 {
		end := ends[(w+1)*ng-1]
		for lo := start; lo < end; lo += 64 {
			blocks = append(blocks, newBlock(lo, min(lo+64, end), w, sorted, cutOf, uint16(ng-1)))
		}
		start = end
	}
	m.blocks = blocks

	// The items, grouped by weight and cut bits.
	grouped, ends := m.sort(items, cutOf, k, &m.items)
	groups := m.groups[:0]
	start = 0
	for g, end := range ends {
		if end > start {
			groups = append(groups, group{start, end, uint16(g & (ng - 1)), uint8(g >> uint(k))})
		}
		start = end
	}
	m.groups = groups

	width := 4*b.h - 2
	if hasWide {
		return m.countWide(blocks, sorted, groups, grouped, width)
	}
	return m.countBlocks(blocks, sorted, groups, grouped, width)
}

// countBlocks is count's loop over the blocks, one at a time: each is
// matched against a group of items if one of its keys may be disjoint
// from the group's (block.meets).
func (m *matcher) countBlocks(blocks []block, sorted []uint64, groups []group, grouped []uint64, width int) uint64 {
	var total uint64
	for _, bl := range blocks {
		m.slices(sorted[bl.lo:bl.hi], width)
		for _, g := range groups {
			if !bl.meets(g.cut) {
				total += m.match(grouped[g.lo:g.hi], width) << (bl.weight + g.weight)
			}
		}
	}
	return total
}

// sort returns keys sorted by weight, then by cut bits (cut), into *out,
// their weights cleared, and the end of each group of them in the sorted
// list, by weight<<k | cut bits: a counting sort, in the order of keys
// within a group.
func (m *matcher) sort(keys []uint64, cut func(uint64) uint16, k int, out *[]uint64) ([]uint64, []int32) {
	ng := 4 << uint(k)
	pos := sized(&m.pos, ng+1)
	clear(pos)
	g := sized(&m.cut, len(keys))
	for i, key := range keys {
		g[i] = cut(key) | uint16(key>>weightShift)<<uint(k)
		pos[g[i]+1]++
	}
	for i := 1; i <= ng; i++ {
		pos[i] += pos[i-1]
	}
	sorted := sized(out, len(keys))
	for i, key := range keys {
		sorted[pos[g[i]]] = key & keyMask
		pos[g[i]]++
	}
	return sorted, pos[:ng]
}

// slices makes the block's tables from its keys.
func (m *matcher) slices(keys []uint64, width int) {
	valid := ^uint64(0) >> uint(64-len(keys))
	nt := tables(width)
	sl := m.slice[:nt*chunk]
	for i := range sl {
		sl[i] = valid
	}
	for j, key := range keys {
		bit := uint64(1) << uint(j)
		for y := key; y != 0; y &= y - 1 {
			sl[bits.TrailingZeros64(y)] &^= bit
		}
	}
	for c := range nt {
		t := &m.tab[c]
		s := sl[c*chunk : c*chunk+chunk]
		t[0] = valid
		for v := 1; v < 1<<chunk; v++ {
			t[v] = t[v&(v-1)] & s[bits.TrailingZeros(uint(v))]
		}
	}
}

// tables returns the number of tables a block needs for keys of width
// bits: 6 at least, the count the shortest match loop reads.
func tables(width int) int {
	return max((width+chunk-1)/chunk, 6)
}

// match returns the number of pairs of items and the block's keys that
// share no bit.
func (m *matcher) match(items []uint64, width int) uint64 {
	t := &m.tab
	var sum uint64
	switch tables(width) {
	case 6:
		for _, it := range items {
			acc := t[0][it&63] & t[1][it>>6&63] & t[2][it>>12&63] & t[3][it>>18&63] & t[4][it>>24&63] & t[5][it>>30&63]
			sum += uint64(bits.OnesCount64(acc))
		}
	case 7:
		for _, it := range items {
			acc := t[0][it&63] & t[1][it>>6&63] & t[2][it>>12&63] & t[3][it>>18&63] & t[4][it>>24&63] & t[5][it>>30&63] & t[6][it>>36&63]
			sum += uint64(bits.OnesCount64(acc))
		}
	default:
		for _, it := range items {
			acc := t[0][it&63] & t[1][it>>6&63] & t[2][it>>12&63] & t[3][it>>18&63] & t[4][it>>24&63] & t[5][it>>30&63] & t[6][it>>36&63] & t[7][it>>42&63]
			sum += uint64(bits.OnesCount64(acc))
		}
	}
	return sum
}

// sized returns *p resized to n, reallocated if too small; its contents
// are not kept.
func sized[T any](p *[]T, n int) []T {
	if cap(*p) < n {
		*p = make([]T, n+n/4)
	}
	return (*p)[:n]
}
