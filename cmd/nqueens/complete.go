package main

import (
	_ "embed"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/export"
)

// bashShim stands in for the one function of the bash-completion package
// that cobra's bash script calls, for shells that lack the package.
//
//go:embed bash_shim.bash
var bashShim string

func (a *app) completionCmd() *cobra.Command {
	return &cobra.Command{
		Use:       "completion bash|zsh|fish|powershell",
		Short:     "Print a shell completion script",
		ValidArgs: []string{"bash", "zsh", "fish", "powershell"},
		Args:      exactArgs(1, "one shell: bash, zsh, fish or powershell"),
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
			return usageError{fmt.Errorf("completion: unknown shell %s: want bash, zsh, fish or powershell", quote(args[0]))}
		},
	}
}

// completeValues makes cmd's flag complete the given values.
func completeValues(cmd *cobra.Command, flag string, values ...string) {
	cmd.RegisterFlagCompletionFunc(flag, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
}

// completeN completes the first argument with the n from 1 to max.
func completeN(max int) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		var out []string
		for n := 1; n <= max; n++ {
			out = append(out, strconv.Itoa(n))
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeBuilt completes the first argument with the n the catalog holds
// complete, read as the command would read it.
func (a *app) completeBuilt(cmd *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
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

// addCompletions registers the completions of values on the commands of
// root.
func (a *app) addCompletions(root *cobra.Command) {
	for _, cmd := range root.Commands() {
		switch cmd.Name() {
		case "build":
			cmd.ValidArgsFunction = completeN(17)
		case "count":
			cmd.ValidArgsFunction = completeN(nqueens.MaxN)
			completeValues(cmd, "engine", "join", "cpu", "gpu", "classes")
		case "export", "show":
			cmd.ValidArgsFunction = a.completeBuilt
			completeValues(cmd, "symmetry", "none", "rot180", "rot90", "full")
			if cmd.Name() == "export" {
				completeValues(cmd, "format", export.FormatNames(export.Formats)...)
				completeValues(cmd, "order", "class", "lex")
			}
		case "verify", "stats":
			cmd.ValidArgsFunction = a.completeBuilt
		case "lookup":
			completeValues(cmd, "format", "columns", "leetcode")
		case "sample":
			completeValues(cmd, "format", export.FormatNames(export.Formats)...)
		case "puzzle":
			completeValues(cmd, "format", export.FormatNames(export.PuzzleFormats)...)
		case "solve":
			completeValues(cmd, "format", export.FormatNames(export.SolutionFormats)...)
		}
	}
}
