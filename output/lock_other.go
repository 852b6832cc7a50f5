//go:build !unix

package output

import (
	"io/fs"
	"os"
)

// closeBeforeRename is true: there is no lock to lose, and Windows renames
// only closed files.
const closeBeforeRename = true

// lock is a no-op where flock is not available.
func lock(*os.File) bool { return true }

// removeStale removes nothing where flock is not available: a live writer's
// temporary file cannot be told from a dead one's.
func removeStale(dir, prefix string) {}

// keepOwner is a no-op: ownership is not Unix's here.
func keepOwner(*os.File, fs.FileInfo) {}
