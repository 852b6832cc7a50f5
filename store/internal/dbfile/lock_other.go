//go:build !unix

package dbfile

import "errors"

// Lock is a no-op where advisory file locks are not available; SQLite's
// own locking still keeps each transaction whole.
func Lock(string) (func(), error) { return func() {}, nil }

// CanLock says that Lock's locks do not hold here: nothing can tell a
// live process's file from a dead one's.
const CanLock = false

// NoHardLinks reports whether err, from os.Link, says that the file system
// has no hard links.
func NoHardLinks(err error) bool { return errors.Is(err, errors.ErrUnsupported) }

// LockShared is a no-op as Lock is.
func LockShared(string) (func(), error) { return func() {}, nil }

// Access leaves the check to the first write where it cannot ask the
// system beforehand.
func Access(string) error { return nil }
