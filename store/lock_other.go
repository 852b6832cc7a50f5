//go:build !unix

package store

// lockFile is a no-op where advisory file locks are not available; SQLite's
// own locking still keeps each transaction whole.
func lockFile(string) (func(), error) { return func() {}, nil }

// lockShared is a no-op as lockFile is.
func lockShared(string) (func(), error) { return func() {}, nil }

// access leaves the check to the first write where it cannot ask the
// system beforehand.
func access(string) error { return nil }
