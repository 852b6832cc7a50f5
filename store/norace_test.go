//go:build !race

package store

// raceDetector is set when the tests run under the race detector (see
// race_test.go).
const raceDetector = false
