package testutil

import "testing"

// Sizes returns the board sizes a test runs: all of ns, or with -short
// only the first, the smallest the test proves its point with.
func Sizes(ns ...int) []int {
	if testing.Short() {
		return ns[:1]
	}
	return ns
}
