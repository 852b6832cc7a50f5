//go:build !unix

package dbfile

import "os"

// Companions checks nothing where files have no owner to compare.
func Companions(string) error { return nil }

// claim does nothing where Companions checks nothing.
func claim(string) (func(), error) { return func() {}, nil }

// companionFiles is empty where Companions checks nothing.
type companionFiles struct {
	trusted map[string]bool
	foreign map[string]error
	first   error
}

// survey finds nothing where Companions checks nothing.
func survey(string) companionFiles { return companionFiles{} }

// foreignMode is never called where survey finds nothing.
func foreignMode(string, Header, companionFiles) (mode, error) { return immutable, nil }

// OthersWrite reports nothing where modes say nothing of other users.
func OthersWrite(string) (os.FileMode, bool) { return 0, false }

// OneName checks nothing where the number of a file's names is unknown.
func OneName(string) error { return nil }
