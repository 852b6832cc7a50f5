package main

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/config"
	"github.com/nqueens/nqueens/count/estimate"
)

// workersFlag gives cmd the --workers flag: the commands that search.
func workersFlag(cmd *cobra.Command) *cobra.Command {
	wholeFlag(cmd.Flags(), "workers", config.Defaults.Workers, "search goroutines (0: all cores)")
	return cmd
}

// seedOf returns the seed of a command's random draws: --seed, read into
// seed, if it was given (true), else one drawn from crypto/rand (false),
// which the command prints so that its draws can be made again.
func seedOf(cmd *cobra.Command, seed uint64) (uint64, bool) {
	if cmd.Flags().Changed("seed") {
		return seed, true
	}
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:]), false
}

// app carries what every subcommand needs.
type app struct {
	cfg    config.Config
	stdout io.Writer
	stderr io.Writer
	prof   *os.File
	// est estimates counts, with the search rate once it is measured.
	est *estimate.Estimator
}

// startProfile starts CPU profiling if --cpuprofile names a file, which
// must not be one of the catalog's files.
func (a *app) startProfile(cmd *cobra.Command) error {
	path, _ := cmd.Flags().GetString("cpuprofile")
	if path == "" {
		return nil
	}
	if err := a.checkOutput(path); err != nil {
		return usageError{fmt.Errorf("--cpuprofile: %w", err)}
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("cpu profile: %w", err)
	}
	a.prof = f
	return pprof.StartCPUProfile(f)
}

// stopProfile ends CPU profiling, if it was started.
func (a *app) stopProfile() {
	if a.prof != nil {
		pprof.StopCPUProfile()
		a.prof.Close()
	}
}

// logf writes a progress message to stderr unless quiet.
func (a *app) logf(format string, args ...any) {
	if !a.cfg.Quiet {
		fmt.Fprintf(a.stderr, format+"\n", args...)
	}
}

// newRoot builds the command tree.
func newRoot(stdout, stderr io.Writer) *cobra.Command {
	a := &app{stdout: stdout, stderr: stderr}
	root := &cobra.Command{
		Use:           "nqueens",
		Short:         "Build and query a catalog of N-Queens solutions",
		SilenceErrors: true,
		SilenceUsage:  true,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				msg := fmt.Sprintf("unknown command %q: run nqueens --help for the list", args[0])
				if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
					msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(s, ", "))
				}
				return usageError{errors.New(msg)}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.load(cmd); err != nil {
				return err
			}
			// A shell's `>> nqueens.db` would append what any command
			// prints to the catalog.
			if err := a.checkOutput("-"); err != nil {
				return err
			}
			return a.startProfile(cmd)
		},
		PersistentPostRun: func(*cobra.Command, []string) { a.stopProfile() },
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return usageError{flagError(cmd.Flags(), cmd.CommandPath(), err)}
	})
	root.SuggestionsMinimumDistance = 2
	pf := root.PersistentFlags()
	pf.String("db", config.Defaults.DB, "catalog file (SQLite)")
	pf.String("config", "", "config file (YAML; default ./config.yaml, else nqueens/config.yaml in $XDG_CONFIG_HOME or ~/.config, on macOS ~/Library/Application Support)")
	pf.BoolP("quiet", "q", false, "no progress messages on stderr")
	pf.String("cpuprofile", "", "write a CPU profile to this file (for developers)")
	pf.MarkHidden("cpuprofile")
	root.AddCommand(workersFlag(a.buildCmd()), workersFlag(a.countCmd()), a.statsCmd(), a.exportCmd(), a.showCmd(), a.lookupCmd(), a.verifyCmd(), a.mergeCmd(), a.solveCmd(), a.completeCmd(), a.gradeCmd(), a.serveCmd(), workersFlag(a.puzzleCmd()), workersFlag(a.sampleCmd()), a.completionCmd())
	for _, c := range root.Commands() {
		if catalogFree[c.Name()] {
			c.Annotations = map[string]string{noCatalog: "true"}
		}
	}
	setHelp(root)
	root.SetHelpCommand(helpCmd(root))
	root.SetUsageTemplate(strings.Replace(root.UsageTemplate(), "{{.InheritedFlags.FlagUsages | trimTrailingWhitespaces}}", "{{globalFlags . | trimTrailingWhitespaces}}", 1))
	root.Version = version(commit)
	root.SetVersionTemplate("nqueens {{.Version}}\n")
	return root
}

// noCatalog annotates the commands that read no catalog: their help lists
// no --db. They accept one all the same, so that a script may give every
// command the same --db, and ignore it.
const noCatalog = "nqueens/no-catalog"

// catalogFree names the commands that read no catalog: count searches,
// solve constructs, merge takes its catalogs as arguments, completion
// writes a shell script.
var catalogFree = map[string]bool{"count": true, "solve": true, "merge": true, "completion": true}

// cobra's template functions are global: registered once, for every root
// the process makes (the tests make many, at once).
func init() { cobra.AddTemplateFunc("globalFlags", globalFlags) }

// globalFlags writes the usage of the flags cmd inherits, less --db where
// cmd reads no catalog.
func globalFlags(cmd *cobra.Command) string {
	fs := pflag.NewFlagSet(cmd.Name(), pflag.ContinueOnError)
	cmd.InheritedFlags().VisitAll(func(f *pflag.Flag) {
		if f.Name != "db" || cmd.Annotations[noCatalog] == "" {
			fs.AddFlag(f)
		}
	})
	return fs.FlagUsages()
}

// helpCmd is nqueens help [COMMAND]: the help of the command named, and
// for a name that is none, an error suggesting the nearest (exit status 2)
// rather than the root's help.
func helpCmd(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND]",
		Short: "Help about any command",
		RunE: func(cmd *cobra.Command, args []string) error {
			c, rest, err := root.Find(args)
			if err != nil || len(rest) > 0 || c == nil {
				name := strings.Join(args, " ")
				msg := fmt.Sprintf("no help topic %q: run nqueens --help for the commands", name)
				if s := root.SuggestionsFor(args[len(args)-1]); len(s) > 0 {
					msg = fmt.Sprintf("no help topic %q (did you mean %s?)", name, strings.Join(s, ", "))
				}
				return usageError{errors.New(msg)}
			}
			return c.Help()
		},
	}
}

// commit is the revision the binary was built from, when the build sets
// it: go build -ldflags "-X main.commit=$(git rev-parse HEAD)".
var commit string

// load resolves the configuration for cmd into a.cfg (config.Load),
// writing to stderr, --quiet or not, a note for each former name of a key
// it reads.
func (a *app) load(cmd *cobra.Command) error {
	cfg, err := config.Load(cmd.Context(), cmd.Flags(), func(msg string) { fmt.Fprintf(a.stderr, "note: %s\n", msg) })
	if errors.Is(err, config.ErrInterrupted) {
		return err
	} else if err != nil {
		return usageError{err}
	}
	a.cfg = cfg
	return nil
}

// oneN parses the one n that the command cmd takes; a list of several is
// refused with a message saying so.
func oneN(cmd, arg string) (int, error) {
	n, err := nqueens.ParseOneN(arg)
	if le := new(nqueens.ListError); errors.As(err, &le) {
		return 0, usageError{fmt.Errorf("%s takes one n, got the list %s: run it once for each n", cmd, quote(le.List))}
	} else if err != nil {
		return 0, usageError{err}
	}
	return n, nil
}

// nArgs parses the command's arguments as a list of n (nqueens.ParseNArgs).
func nArgs(args []string) ([]int, error) {
	ns, err := nqueens.ParseNArgs(args)
	if err != nil {
		return nil, usageError{err}
	}
	return ns, nil
}

// nCommand declares a command that takes one n, which run gets parsed,
// and which the shell completes with every n.
func nCommand(use, short string, run func(cmd *cobra.Command, n int) error) *cobra.Command {
	name, _, _ := strings.Cut(use, " ")
	return &cobra.Command{Use: use, Short: short, Args: exactArgs(1, "one n"), RunE: func(cmd *cobra.Command, args []string) error {
		n, err := oneN(name, args[0])
		if err != nil {
			return err
		}
		return run(cmd, n)
	}, ValidArgsFunction: completeNs(true)}
}

// nsCommand declares a command that takes lists of n, which run gets
// parsed: at least one n if what names them, else none or more. The shell
// completes each argument with every n.
func nsCommand(use, short, what string, run func(cmd *cobra.Command, ns []int) error) *cobra.Command {
	cmd := &cobra.Command{Use: use, Short: short, RunE: func(cmd *cobra.Command, args []string) error {
		ns, err := nArgs(args)
		if err != nil {
			return err
		}
		return run(cmd, ns)
	}, ValidArgsFunction: completeNs(false)}
	if what != "" {
		cmd.Args = minArgs(1, what)
	}
	return cmd
}

// exactArgs is cobra.ExactArgs as a usage error.
func exactArgs(k int, what string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != k {
			return usageError{fmt.Errorf("want %s, got %d arguments", what, len(args))}
		}
		return nil
	}
}

// minArgs requires at least k arguments.
func minArgs(k int, what string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) < k {
			return usageError{fmt.Errorf("want %s", what)}
		}
		return nil
	}
}
