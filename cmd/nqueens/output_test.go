package main

import "testing"

// TestOutputRefusedIsUsage: an output file that is the catalog or one of
// its files is bad usage, exit status 2 (output.txtar checks the message
// and that the catalog is untouched).
func TestOutputRefusedIsUsage(t *testing.T) {
	t.Parallel()
	db := builtCatalog(t, "5")
	for _, args := range [][]string{
		{"export", "5", "-o", db},
		{"export", "5", "-o", db + "-wal"},
		{"export", "6", "-o", db + ".lock"}, // refused before the catalog is read
		{"solve", "8", "-o", db + "-shm"},
		{"--cpuprofile", db, "count", "4"},
	} {
		_, _, err := runCLI(t, append([]string{"--db", db}, args...)...)
		if got := exitCode(err); got != exitUsage {
			t.Errorf("nqueens %v: exit status %d (%v), want %d", args, got, err, exitUsage)
		}
	}
}
