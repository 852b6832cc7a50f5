//go:build race

package count

// raceEnabled is whether the tests run under the race detector, which
// makes sync.Pool drop what it holds and so allocate where a normal build
// does not.
const raceEnabled = true
