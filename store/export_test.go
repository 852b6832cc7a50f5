package store

import "github.com/nqueens/nqueens/store/internal/dbfile"

// SetTestHookCreate makes create call f at each named point: "created"
// (the temporary file exists, empty), "migrated" (its schema is complete),
// "linking" (about to link it into place), "linked".
func SetTestHookCreate(f func(point string)) { dbfile.TestHookCreate = f }
