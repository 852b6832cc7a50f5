package store

import (
	"errors"
	"math"
	"testing"
)

// TestDecodeBoundsEntries decodes blocks whose entries column claims more
// prefixes than their data can hold: each is an *IndexError, found
// without allocating for the claim (10^12 prefixes would take 40 TB).
func TestDecodeBoundsEntries(t *testing.T) {
	// One prefix of depth 2 of n = 12: shared 0, columns 1 and 3, 10
	// classes, 2 missing solutions.
	data := []byte{0, 1, 3, 10, 2}
	for _, entries := range []int64{2, 1e12, math.MaxInt64} {
		r := blockRow{Block: 0, Entries: entries, FirstPrefix: "13", Data: data}
		_, err := r.decode(12, 2)
		var ie *IndexError
		if !errors.As(err, &ie) {
			t.Errorf("entries %d: %v, want an *IndexError", entries, err)
		}
	}
	if _, err := (blockRow{Block: 0, Entries: 1, FirstPrefix: "13", Data: data}).decode(12, 2); err != nil {
		t.Errorf("the block as written: %v", err)
	}
}
