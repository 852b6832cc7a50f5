//go:build race

package testutil

// Race is whether the tests run under the race detector, which allocates
// where a normal build does not (sync.Pool drops what it holds) and keeps
// shadow memory beside the heap: tests of allocations or of a process's
// memory skip under it.
const Race = true
