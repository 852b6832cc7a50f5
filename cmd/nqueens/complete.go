package main

import (
	_ "embed"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/config"
	"github.com/nqueens/nqueens/partial/puzzle"
)

// bashShim stands in for the one function of the bash-completion package
// that cobra's bash script calls, for shells that lack the package.
//
//go:embed bash_shim.bash
var bashShim string

// shells are the shells completion writes a script for.
var shells = []string{"bash", "zsh", "fish", "powershell"}

func (a *app) completionCmd() *cobra.Command {
	return &cobra.Command{
		Use:       "completion " + strings.Join(shells, "|"),
		Short:     "Print a shell completion script",
		ValidArgs: shells,
		Args:      exactArgs(1, "one shell: "+orList(shells)),
		RunE: func(cmd *cobra.Command, args []string) error {
			root := cmd.Root()
			switch args[0] {
			case "bash":
				if _, err := io.WriteString(a.stdout, bashShim); err != nil {
					return err
				}
				return root.GenBashCompletionV2(a.stdout, true)
			case "zsh":
				return root.GenZshCompletion(a.stdout)
			case "fish":
				return root.GenFishCompletion(a.stdout, true)
			case "powershell":
				return root.GenPowerShellCompletionWithDesc(a.stdout)
			}
			return usageError{fmt.Errorf("completion: unknown shell %s: want %s", quote(args[0]), orList(shells))}
		},
	}
}

// orList words values for a message: "a, b or c".
func orList(values []string) string {
	if len(values) < 2 {
		return strings.Join(values, "")
	}
	return strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}

// The completions of values: each is registered where its flag or
// argument is declared, from the list that the command checks the value
// against, so that the shell offers what the command takes.

// completeValues makes cmd's flag complete the given values.
func completeValues(cmd *cobra.Command, flag string, values ...string) {
	cmd.RegisterFlagCompletionFunc(flag, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
}

// numbers returns the whole numbers from lo to hi, as words.
func numbers(lo, hi int) []string {
	var out []string
	for k := lo; k <= hi; k++ {
		out = append(out, strconv.Itoa(k))
	}
	return out
}

// completeNs completes the arguments of a command that takes n (one, or
// lists of them: nCommand, nsCommand) with every n, 1 to nqueens.MaxN,
// the first argument alone if one is all it takes.
func completeNs(one bool) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		if one && len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return numbers(1, nqueens.MaxN), cobra.ShellCompDirectiveNoFileComp
	}
}

// completeConfig makes the flags of cmd that set a configuration key of
// a few whole numbers (--max-n: 1 to nqueens.MaxN) complete them, from
// the bounds the configuration checks.
func completeConfig(cmd *cobra.Command) {
	for _, k := range config.Keys {
		if k.Kind == config.Whole && k.Max <= nqueens.MaxN && cmd.Flags().Lookup(k.Flag) != nil {
			completeValues(cmd, k.Flag, numbers(k.Min, k.Max)...)
		}
	}
}

// completeSymmetries makes cmd's --symmetry complete the names of the
// symmetries, as nqueens.ParseSymmetries reads them.
func completeSymmetries(cmd *cobra.Command) {
	var names []string
	for _, s := range []nqueens.Symmetry{nqueens.SymNone, nqueens.SymRot180, nqueens.SymRot90, nqueens.SymFull} {
		names = append(names, s.String())
	}
	completeValues(cmd, "symmetry", names...)
}

// completeBuilt completes the arguments with the n the catalog holds
// complete, read as the command would read it: the first alone if one
// is all the command takes.
func (a *app) completeBuilt(one bool) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		if one && len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		if err := a.load(cmd); err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		db, err := a.open(cmd.Context())
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		defer db.Close()
		builds, _ := db.Builds(cmd.Context())
		var out []string
		for _, b := range builds {
			if b.Complete {
				out = append(out, strconv.Itoa(b.N))
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeRecords completes grade's two files with the files of JSON
// records: .jsonl, .ndjson or .json.
func completeRecords(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) >= 2 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return []string{"jsonl", "ndjson", "json"}, cobra.ShellCompDirectiveFilterFileExt
}

// completeLevels makes cmd's --difficulty complete the puzzles' levels,
// as puzzle.ParseLevel reads them.
func completeLevels(cmd *cobra.Command) {
	var levels []string
	for l := puzzle.Easy; l <= puzzle.Hard; l++ {
		levels = append(levels, l.String())
	}
	completeValues(cmd, "difficulty", levels...)
}
