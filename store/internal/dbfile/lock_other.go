//go:build !unix

package dbfile

import "errors"

// Lock is a no-op where advisory file locks are not available; SQLite's
// own locking still keeps each transaction whole.
func Lock(string) (func(), error) { return func() {}, nil }

// canLock says that Lock's locks do not hold here: nothing can tell a
// live process's file from a dead one's.
const canLock = false

// noHardLinks reports whether err, from os.Link, says that the file system
// has no hard links.
func noHardLinks(err error) bool { return errors.Is(err, errors.ErrUnsupported) }

// lockShared is a no-op as Lock is.
func lockShared(string) (func(), error) { return func() {}, nil }

// access leaves the check to the first write where it cannot ask the
// system beforehand.
func access(string) error { return nil }
