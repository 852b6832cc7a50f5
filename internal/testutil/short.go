package testutil

import (
	"os"
	"testing"
)

// Sizes returns the board sizes a test runs: all of ns, or with -short
// only the first, the smallest the test proves its point with.
func Sizes(ns ...int) []int {
	if testing.Short() {
		return ns[:1]
	}
	return ns
}

// LongEnv is the environment variable that, set to anything but "",
// makes the tests run their exhaustive sweeps (Long): CI sets it for one
// run of those tests, and `go test ./...` leaves them to samples.
const LongEnv = "NQUEENS_LONG"

// Long reports whether the tests run their exhaustive sweeps (LongEnv is
// set), where a sample proves the same in the default run.
func Long() bool { return os.Getenv(LongEnv) != "" }
