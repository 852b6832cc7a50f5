package nqueens

import "fmt"

// Shard names one of Count disjoint slices of the work of a board (the
// work units of a build, or the constellations of a count): the one
// numbered Index, from 0. The zero Shard stands for the whole board.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// IsWhole reports whether s stands for the whole board.
func (s Shard) IsWhole() bool { return s.Count == 0 }

// Valid reports whether s is the whole board or a shard I/K with
// 0 <= I < K.
func (s Shard) Valid() bool {
	return s == Shard{} || (s.Count > 0 && s.Index >= 0 && s.Index < s.Count)
}

// String returns "I/K", or "whole" for the whole board.
func (s Shard) String() string {
	if s.IsWhole() {
		return "whole"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}
