//go:build !race

package count

// raceEnabled is whether the tests run under the race detector.
const raceEnabled = false
