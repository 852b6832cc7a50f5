package join

import "math/bits"

// The wide sieve matches an item against 8 blocks at once, 512 keys, with
// the vector instructions of AVX-512 where the processor has them
// (hasWide): a wideTable holds the 8 blocks' tables side by side, so that
// each lookup of an item's 6 bits loads the 8 blocks' words in one 64-byte
// row.

// wideTable is the tables of 8 blocks: [table][6 bits of the item][block].
type wideTable [8][1 << chunk][8]uint64

// minWide is the fewest blocks that the wide sieve matches at once: fewer
// are matched one by one (a short table leaves most of the 8 lanes
// empty).
var minWide = 4

// countWide is count's loop over the blocks, 8 at a time: runs of up to 8
// blocks of one weight, each matched against a group of items if one of
// its blocks may hold a key disjoint from the group's (block.meets); a
// run of fewer than minWide blocks is matched block by block.
func (m *matcher) countWide(blocks []block, sorted []uint64, groups []group, grouped []uint64, width int) uint64 {
	nt := tables(width)
	var total uint64
	for i := 0; i < len(blocks); {
		j := i + 1
		for j < len(blocks) && j-i < 8 && blocks[j].weight == blocks[i].weight {
			j++
		}
		run := blocks[i:j]
		i = j
		if len(run) < minWide {
			total += m.countBlocks(run, sorted, groups, grouped, width)
			continue
		}
		for lane, bl := range run {
			m.slices(sorted[bl.lo:bl.hi], width)
			for c := range nt {
				for v := range m.tab[c] {
					m.wide[c][v][lane] = m.tab[c][v]
				}
			}
		}
		for lane := len(run); lane < 8; lane++ {
			for c := range nt {
				for v := range m.wide[c] {
					m.wide[c][v][lane] = 0
				}
			}
		}
		for _, g := range groups {
			for _, bl := range run {
				if !bl.meets(g.cut) {
					total += matchWide(&m.wide, grouped[g.lo:g.hi], nt) << (run[0].weight + g.weight)
					break
				}
			}
		}
	}
	return total
}

// matchWideGo is matchWide in Go: the number of pairs of items and the
// keys of the 8 blocks of tab, whose first nt tables are read, that share
// no bit.
func matchWideGo(tab *wideTable, items []uint64, nt int) uint64 {
	var sum uint64
	for _, it := range items {
		for lane := range 8 {
			acc := ^uint64(0)
			for c := range nt {
				acc &= tab[c][it>>(chunk*uint(c))&(1<<chunk-1)][lane]
			}
			sum += uint64(bits.OnesCount64(acc))
		}
	}
	return sum
}
