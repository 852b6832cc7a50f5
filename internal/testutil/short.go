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
// makes the tests run their exhaustive sweeps (Long) and the tests that
// only the long run runs (LongOnly): CI sets it for one run of the
// tests, and `go test ./...` leaves them to samples. docs/testing.md
// lists what it adds.
const LongEnv = "NQUEENS_LONG"

// Long reports whether the tests run their exhaustive sweeps (LongEnv is
// set), where a sample proves the same in the default run.
func Long() bool { return os.Getenv(LongEnv) != "" }

// LongOnly skips t unless LongEnv is set: for a test, or a case of a
// table, that only the long run runs, because a faster test or case of
// the same kind proves its point in the default run. docs/testing.md
// lists each test that calls it.
func LongOnly(t testing.TB) {
	t.Helper()
	if !Long() {
		t.Skip("a long test: " + LongEnv + "=1 runs it")
	}
}
