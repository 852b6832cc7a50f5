package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/config"
)

const defaultConfigFile = "config.yaml"

// configFlags maps each configuration key to the flag that sets it; a
// command without the flag leaves the key to the other sources.
var configFlags = map[string]string{"db": "db", "workers": "workers", "max_build_n": "max-n", "quiet": "quiet"}

// app carries what every subcommand needs.
type app struct {
	v      *viper.Viper
	cfg    config.Config
	stdout io.Writer
	stderr io.Writer
	prof   *os.File
	// measured is the search rate, once count has measured it.
	measured *canonical.Rate
}

// startProfile starts CPU profiling if --cpuprofile names a file.
func (a *app) startProfile(cmd *cobra.Command) error {
	path, _ := cmd.Flags().GetString("cpuprofile")
	if path == "" {
		return nil
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
	a := &app{v: viper.New(), stdout: stdout, stderr: stderr}
	root := &cobra.Command{
		Use:   "nqueens",
		Short: "Build and query a catalog of N-Queens solutions",
		Long: `nqueens enumerates every solution of the N-Queens puzzle, folds the 8 symmetries
of the board into classes, stores the classes in a SQLite catalog, and exports
them as JSON, CSV or LeetCode grids.

Configuration: flags override NQUEENS_* environment variables (NQUEENS_DB,
NQUEENS_WORKERS, NQUEENS_MAX_BUILD_N, NQUEENS_QUIET), which override the
config file (--config, default ./config.yaml if present), which overrides
the built-in defaults.

Exit status: 0 success, 1 error, 2 bad usage, 3 verification mismatch.`,
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
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{flagError(err)} })
	pf := root.PersistentFlags()
	pf.String("db", config.Defaults.DB, "catalog file (SQLite)")
	pf.Int("workers", config.Defaults.Workers, "search goroutines (0: all cores)")
	pf.String("config", defaultConfigFile, "config file (YAML)")
	pf.BoolP("quiet", "q", false, "no progress messages on stderr")
	pf.String("cpuprofile", "", "write a CPU profile to this file (for developers)")
	pf.MarkHidden("cpuprofile")
	root.AddCommand(a.buildCmd(), a.countCmd(), a.statsCmd(), a.exportCmd(), a.showCmd(), a.verifyCmd(), a.mergeCmd(), a.solveCmd())
	root.Version = version()
	root.SetVersionTemplate("nqueens {{.Version}}\n")
	return root
}

// version returns the module version of the binary, with the commit it was
// built from when the build recorded one: "v1.2.0", or "(devel) 1a2b3c4d5e6f
// (modified)" for a build from a checkout.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = " (modified)"
			}
		}
	}
	if rev != "" && !strings.Contains(v, rev[:min(12, len(rev))]) {
		v += " " + rev[:min(12, len(rev))] + modified
	}
	return v + " " + runtime.Version()
}

// load resolves the configuration for cmd into a.cfg. The config package
// checks each source strictly, naming the flag, the variable or the file
// and key at fault; viper then layers them: flags over NQUEENS_* variables
// over the file over the defaults.
func (a *app) load(cmd *cobra.Command) error {
	v := a.v
	v.SetDefault("db", config.Defaults.DB)
	v.SetDefault("workers", config.Defaults.Workers)
	v.SetDefault("max_build_n", config.Defaults.MaxBuildN)
	v.SetDefault("quiet", config.Defaults.Quiet)
	for _, k := range config.Keys {
		if err := v.BindEnv(k.Name, k.Env); err != nil {
			return err
		}
		f := cmd.Flags().Lookup(configFlags[k.Name])
		if f == nil {
			continue
		}
		if f.Changed {
			if _, err := k.Parse(f.Value.String()); err != nil {
				return usageError{fmt.Errorf("--%s %s: %w", f.Name, quote(f.Value.String()), err)}
			}
		}
		if err := v.BindPFlag(k.Name, f); err != nil {
			return err
		}
	}
	if err := config.CheckEnv(os.LookupEnv); err != nil {
		return usageError{err}
	}

	cfgFlag := cmd.Flags().Lookup("config")
	path, explicit := defaultConfigFile, false
	if env, ok := os.LookupEnv("NQUEENS_CONFIG"); ok {
		path, explicit = env, true
	}
	if cfgFlag != nil && cfgFlag.Changed {
		path, explicit = cfgFlag.Value.String(), true
	}
	if err := a.readConfig(cmd.Context(), path, explicit); err != nil {
		return err
	}
	a.cfg = config.Config{
		DB:        v.GetString("db"),
		Workers:   v.GetInt("workers"),
		MaxBuildN: v.GetInt("max_build_n"),
		Quiet:     v.GetBool("quiet"),
	}
	return nil
}

// readConfig reads the config file at path, checks it (config.ParseYAML)
// and merges its values into a.v; a missing file is an error only when it
// was named explicitly. The read is bounded (maxSmallFile) and returns when
// ctx is cancelled, even if path is a FIFO no one writes to.
func (a *app) readConfig(ctx context.Context, path string, explicit bool) error {
	if path == "" {
		if explicit {
			return usageError{errors.New("config file: empty path")}
		}
		return nil
	}
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		return nil
	}
	if err != nil {
		return usageError{fmt.Errorf("config file %s: %w", path, errors.Unwrap(err))}
	}
	if st.IsDir() {
		return usageError{fmt.Errorf("config file %s: is a directory", path)}
	}
	data, err := readSmall(ctx, path, maxSmallFile)
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("interrupted while reading config file %s", path)
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return usageError{fmt.Errorf("config file %s: %w", path, err)}
	}
	values, err := config.ParseYAML(path, data)
	if err != nil {
		return usageError{err}
	}
	return a.v.MergeConfigMap(values)
}

// flagError rewrites pflag's message for a bad value of a configuration
// flag, which quotes the whole value and the strconv error behind it, as
// the others are: --workers "many": want a whole number from 0 to 1024.
func flagError(err error) error {
	var ie *pflag.InvalidValueError
	if !errors.As(err, &ie) {
		return err
	}
	for _, k := range config.Keys {
		if configFlags[k.Name] == ie.GetFlag().Name {
			return fmt.Errorf("--%s %s: %s", ie.GetFlag().Name, quote(ie.GetValue()), "want "+k.Allowed())
		}
	}
	return err
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
