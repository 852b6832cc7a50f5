//go:build race

package store

// raceDetector is set when the tests run under the race detector, which
// makes SQLite's statements and the class search many times slower: the
// sweeps that compare answers (not goroutines) skip there.
const raceDetector = true
