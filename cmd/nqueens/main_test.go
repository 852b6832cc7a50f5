package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"nqueens": func() { os.Exit(mainExit()) },
	})
}

// TestScripts runs the CLI scripts in testdata/script: each is a txtar
// archive of commands and the files they read or must produce. Run with
// -update to rewrite the expected outputs held in the archives.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: updateScripts,
	})
}
