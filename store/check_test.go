package store_test

import (
	"errors"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/store"
)

func TestCheckBuild(t *testing.T) {
	tests := []struct {
		name  string
		ns    []int
		shard nqueens.Shard
		limit int
		text  string // "": no error
		over  bool   // the error wraps ErrOverLimit
	}{
		{"whole, within the limit", []int{1, 8, 17}, nqueens.Shard{}, 17, "", false},
		{"above the limit", []int{8, 18, 19}, nqueens.Shard{}, 17, "n=18 is above the build limit 17: its catalog would hold 83,263,591 rows, about 2.4 GiB", true},
		{"a shard", []int{14}, nqueens.Shard{Index: 2, Count: 5}, 17, "", false},
		{"a shard that does not exist", []int{14}, nqueens.Shard{Index: 5, Count: 5}, 17, "n=14: shard 5/5: want an index from 0 to 4", false},
		{"the limit before the shard", []int{14, 18}, nqueens.Shard{Index: 5, Count: 5}, 17, "n=18 is above the build limit 17: its catalog would hold 83,263,591 rows, about 2.4 GiB", true},
		{"n = 0 with a shard", []int{8, 0}, nqueens.Shard{Index: 0, Count: 2}, 17, nqueens.CheckN(0).Error(), false},
		{"n = 33, whole", []int{33}, nqueens.Shard{}, 40, nqueens.CheckN(33).Error(), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := store.CheckBuild(tt.ns, tt.shard, tt.limit)
			if (err == nil) != (tt.text == "") || (err != nil && err.Error() != tt.text) {
				t.Errorf("CheckBuild(%v, %v, %d) = %v, want %q", tt.ns, tt.shard, tt.limit, err, tt.text)
			}
			if errors.Is(err, store.ErrOverLimit) != tt.over {
				t.Errorf("errors.Is(%v, ErrOverLimit) = %v", err, errors.Is(err, store.ErrOverLimit))
			}
		})
	}
}
