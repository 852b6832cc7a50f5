package count

// Nodes returns the number of nodes of the constellation's split tree
// (see splitTailRows), whose size Cost estimates: the root, and every
// square of a free row that passes the look-ahead, down to the row above
// the last splitTailRows. It walks the whole tree, a little slower than
// Solutions; it is there to check Cost and to calibrate MeasureRate, and
// leaves the search of Solutions as it is.
func (c Constellation) Nodes() uint64 {
	if c.n == 0 {
		return 0 // the zero Constellation is none
	}
	p := plans.Get().(*plan)
	defer plans.Put(p)
	p.prepare(c, noTable)
	if p.rows < 2 || p.free0 == 0 {
		return 1
	}
	return 1 + p.nodes(0, p.free0, 0, 0, 0)
}

// nodes returns the number of nodes below the node of free row i with
// the free squares free, as Nodes counts them.
func (p *plan) nodes(i int, free, cols, ld, rd uint32) uint64 {
	s := &p.steps[i]
	var t uint64
	for ; free != 0; free &= free - 1 {
		next, c, l, d := s.place(free&-free, cols, ld, rd)
		if next == 0 {
			continue
		}
		t++
		if !p.splitLeaf(i) {
			t += p.nodes(i+1, next, c, l, d)
		}
	}
	return t
}

// MeanNodes returns the mean of Knuth's estimator of the number of nodes of
// the constellation's search tree (the tree Nodes counts), as Cost does
// but in floating point, so that small trees are not rounded down and
// those of n = 31 and 32 do not saturate. It depends on c alone.
func (c Constellation) MeanNodes() float64 {
	_, m := c.knuth()
	return m
}
