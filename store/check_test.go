package store

import (
	"testing"

	"github.com/nqueens/nqueens"
)

func TestCheckBuild(t *testing.T) {
	tests := []struct {
		name  string
		ns    []int
		shard nqueens.Shard
		text  string // "": no error
	}{
		{"whole", []int{1, 8, 17, 18, 32}, nqueens.Shard{}, ""},
		{"a shard", []int{14}, nqueens.Shard{Index: 2, Count: 5}, ""},
		{"a shard that does not exist", []int{14}, nqueens.Shard{Index: 5, Count: 5}, "n=14: shard 5/5: want an index from 0 to 4"},
		{"n = 0 with a shard", []int{8, 0}, nqueens.Shard{Index: 0, Count: 2}, nqueens.CheckN(0).Error()},
		{"n = 33 before the shard", []int{14, 33}, nqueens.Shard{Index: 5, Count: 5}, nqueens.CheckN(33).Error()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckBuild(tt.ns, tt.shard)
			if (err == nil) != (tt.text == "") || (err != nil && err.Error() != tt.text) {
				t.Errorf("CheckBuild(%v, %v) = %v, want %q", tt.ns, tt.shard, err, tt.text)
			}
		})
	}
}

// TestRowsSize checks the rows of n against OEIS A002562 and their bytes
// against the measured n + 13 a class; above 27 OEIS has no count.
func TestRowsSize(t *testing.T) {
	for _, tt := range []struct {
		n           int
		rows, bytes uint64
		ok          bool
	}{
		{1, 1, 14, true},
		{8, 12, 12 * 21, true},
		{18, 83263591, 83263591 * 31, true},
		{27, 29363495934315694, 29363495934315694 * 40, true},
		{28, 0, 0, false},
	} {
		rows, bytes, ok := RowsSize(tt.n)
		if rows != tt.rows || bytes != tt.bytes || ok != tt.ok {
			t.Errorf("RowsSize(%d) = %d, %d, %v; want %d, %d, %v", tt.n, rows, bytes, ok, tt.rows, tt.bytes, tt.ok)
		}
	}
}
