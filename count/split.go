package count

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// How a count is split into shards is a contract of saved files: a part of
// a sharded count (count/parts) and the state of a resumed count
// (count/resume) each name the constellations they hold, which
// balance.Split chose by Cost, and the calibration of count/estimate counts
// the same trees (Nodes). So Cost and Nodes walk a tree of their own, the
// split tree, which the search does not decide: the search's free rows,
// with the look-ahead that drops a square whose next free row has no free
// square, down to but not including the last splitTailRows free rows (or
// the last free row, on a board with fewer). However the search handles
// its last rows, the split stays the same.

// splitTailRows is the number of free rows at the bottom of a
// constellation that its split tree leaves out. Changing it changes every
// shard and calibration.
const splitTailRows = 3

// splitLeaf reports whether the split tree ends at the children of free
// row i of p: whether the next free row is the first of the last
// splitTailRows, or the last.
func (p *plan) splitLeaf(i int) bool {
	return i+1+splitTailRows == p.rows || i+2 == p.rows
}

// Digest returns "sha256:" and the hex SHA-256 of the constellations'
// board size, orbit and border queens in the orientation searched, a line
// each, in order: the name of a list of constellations, which a part of a
// sharded count (its shard's) and a count's state (those it counts) carry,
// so that a count checks that it resumes or combines the same split.
func Digest(cs []Constellation) string {
	h := sha256.New()
	for _, c := range cs {
		fmt.Fprintf(h, "%d %d %v\n", c.N(), c.Orbit(), c.Queens())
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}
