package store

import "github.com/nqueens/nqueens/store/internal/dbfile"

// SetTestHook makes the catalog's file code call f at each named point:
// of a creation, "created" (the temporary file exists, empty), "migrated"
// (its schema is complete), "linking" (about to link it into place),
// "linked"; of an open, "header" (about to read the file's header).
func SetTestHook(f func(point string)) { dbfile.TestHook = f }
