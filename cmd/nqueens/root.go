package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
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
	cmd.Flags().Int("workers", config.Defaults.Workers, "search goroutines (0: all cores)")
	return cmd
}

// app carries what every subcommand needs.
type app struct {
	cfg    config.Config
	stdout io.Writer
	stderr io.Writer
	prof   *os.File
	// measured is the search rate, once count has measured it.
	measured *estimate.Rate
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
			return a.startProfile(cmd)
		},
		PersistentPostRun: func(*cobra.Command, []string) { a.stopProfile() },
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return usageError{flagError(cmd, err)} })
	root.SuggestionsMinimumDistance = 2
	pf := root.PersistentFlags()
	pf.String("db", config.Defaults.DB, "catalog file (SQLite)")
	pf.String("config", config.DefaultFile, "config file (YAML)")
	pf.BoolP("quiet", "q", false, "no progress messages on stderr")
	pf.String("cpuprofile", "", "write a CPU profile to this file (for developers)")
	pf.MarkHidden("cpuprofile")
	root.AddCommand(workersFlag(a.buildCmd()), workersFlag(a.countCmd()), a.statsCmd(), a.exportCmd(), a.showCmd(), a.lookupCmd(), a.verifyCmd(), a.mergeCmd(), a.solveCmd(), a.completeCmd(), a.serveCmd(), workersFlag(a.puzzleCmd()), a.completionCmd())
	a.addCompletions(root)
	setHelp(root)
	root.Version = version()
	root.SetVersionTemplate("nqueens {{.Version}}\n")
	return root
}

// commit is the revision the binary was built from, when the build sets
// it: go build -ldflags "-X main.commit=$(git rev-parse HEAD)".
var commit string

// version returns what is known of the binary's version: its module
// version ("devel" for a build from a checkout), the commit it was built
// from, if the build recorded one (by VCS stamping, -X main.commit, or in a
// pseudo-version), and the Go version: "v1.2.0 (commit 1a2b3c4d5e6f) go1.26.8",
// "devel (commit 1a2b3c4d5e6f, modified) go1.26.8", "devel (commit unknown)
// go1.26.8".
func version() string {
	v, rev, modified := "devel", commit, false
	if info, ok := debug.ReadBuildInfo(); ok {
		if mv := info.Main.Version; mv != "" && mv != "(devel)" {
			v = mv
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				if rev == "" {
					rev = s.Value
				}
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if rev == "" {
		// A pseudo-version ends with the commit: v0.0.0-20261123140000-1a2b3c4d5e6f.
		if i := strings.LastIndexByte(v, '-'); i > 0 && len(v)-i-1 == 12 && strings.Count(v, "-") >= 2 {
			rev = v[i+1:]
		}
	}
	desc := "commit unknown"
	if rev != "" {
		desc = "commit " + rev[:min(12, len(rev))]
		if modified {
			desc += ", modified"
		}
	}
	return v + " (" + desc + ") " + runtime.Version()
}

// load resolves the configuration for cmd into a.cfg (config.Load).
func (a *app) load(cmd *cobra.Command) error {
	cfg, err := config.Load(cmd.Context(), cmd.Flags())
	if errors.Is(err, config.ErrInterrupted) {
		return err
	} else if err != nil {
		return usageError{err}
	}
	a.cfg = cfg
	return nil
}

// flagError rewrites pflag's message for an unknown flag, suggesting the
// nearest, and for a bad value, which quotes the whole value and the
// strconv error behind it: --workers "many": want a whole number from 0
// to 1024.
func flagError(cmd *cobra.Command, err error) error {
	var ne *pflag.NotExistError
	if errors.As(err, &ne) && ne.GetSpecifiedName() != "" && len(ne.GetSpecifiedName()) > 1 {
		var names []string
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden {
				names = append(names, f.Name)
			}
		})
		msg := fmt.Sprintf("unknown flag --%s", ne.GetSpecifiedName())
		if s := config.Nearest(ne.GetSpecifiedName(), names); s != "" {
			msg += fmt.Sprintf(" (did you mean --%s?)", s)
		}
		return fmt.Errorf("%s: run nqueens %s --help for the list", msg, cmd.Name())
	}
	if ce := config.FlagError(err); ce != nil {
		return ce
	}
	var ie *pflag.InvalidValueError
	if !errors.As(err, &ie) {
		return err
	}
	f := ie.GetFlag()
	switch f.Value.Type() {
	case "int", "int64":
		return fmt.Errorf("--%s %s: want a whole number", f.Name, quote(ie.GetValue()))
	case "bool":
		return fmt.Errorf("--%s %s: want true or false", f.Name, quote(ie.GetValue()))
	}
	return err
}

// oneN parses the one n that the command cmd takes; a list of several is
// refused with a message saying so.
func oneN(cmd, arg string) (int, error) {
	n, err := nqueens.ParseN(arg)
	if err == nil {
		return n, nil
	}
	if ns, lerr := nqueens.ParseNList(arg); lerr == nil && len(ns) > 1 {
		return 0, usageError{fmt.Errorf("%s takes one n, got the list %s: run it once for each n", cmd, quote(arg))}
	}
	return 0, usageError{err}
}

// nArgs parses the command's arguments as a list of n (each argument a
// number, range or comma list), all in 1..nqueens.MaxN.
func nArgs(args []string) ([]int, error) {
	seen := map[int]bool{}
	var out []int
	for _, arg := range args {
		ns, err := nqueens.ParseNList(arg)
		if err != nil {
			return nil, usageError{err}
		}
		for _, n := range ns {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out, nil
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
