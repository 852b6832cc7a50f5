//go:build !unix

package resume

import "os"

// lock takes no lock where there is no flock: two counts on one state
// file are the user's to avoid.
func lock(*os.File) (held bool, pid int, err error) { return false, 0, nil }

// noFollow and noBlock are no flags where the system has none.
const noFollow, noBlock = 0, 0
