//go:build !unix

package dbfile

import "os"

// companions checks nothing where files have no owner to compare.
func checkCompanions(string) error { return nil }

// claim does nothing where checkCompanions checks nothing.
func claim(string) (func(), error) { return func() {}, nil }

// companionFiles is empty where checkCompanions checks nothing.
type companionFiles struct {
	trusted map[string]bool
	foreign map[string]error
	first   error
}

// survey finds nothing where checkCompanions checks nothing.
func survey(string) companionFiles { return companionFiles{} }

// foreignMode is never called where survey finds nothing.
func foreignMode(string, Header, companionFiles) (mode, error) { return immutable, nil }

// OthersWrite reports nothing where modes say nothing of other users.
func OthersWrite(string) (os.FileMode, bool) { return 0, false }

// oneName checks nothing where the number of a file's names is unknown.
func oneName(string) error { return nil }
