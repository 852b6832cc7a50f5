package main

import (
	"embed"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// helpFiles holds the long help of each command, help/NAME.txt for the
// command NAME (nqueens.txt for the root): the text, then, after a line
// "-- examples --", the examples. A line "@orbits" stands for
// help/orbits.txt, which says what the orbit columns mean.
//
//go:embed help/*.txt
var helpFiles embed.FS

// examplesLine separates a help file's text from its examples.
const examplesLine = "-- examples --\n"

// setHelp fills in the long help and the examples of cmd and of every
// command under it from helpFiles. A command without a help file is a
// mistake of the program's, which the tests catch: it panics.
func setHelp(cmd *cobra.Command) {
	text := helpFile(cmd.Name())
	text = strings.ReplaceAll(text, "@orbits\n", helpFile("orbits"))
	long, examples, _ := strings.Cut(text, examplesLine)
	cmd.Long = strings.TrimSuffix(long, "\n")
	cmd.Example = strings.TrimSuffix(examples, "\n")
	for _, c := range cmd.Commands() {
		if c.Name() != "help" {
			setHelp(c)
		}
	}
}

// helpFile returns the text of help/NAME.txt.
func helpFile(name string) string {
	data, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic(fmt.Sprintf("help of %s: %v", name, err))
	}
	return string(data)
}
