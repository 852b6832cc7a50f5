//go:build !unix

package dbfile

// Companions checks nothing where files have no owner to compare.
func Companions(string) error { return nil }

// claim does nothing where Companions checks nothing.
func claim(string) (func(), error) { return func() {}, nil }
