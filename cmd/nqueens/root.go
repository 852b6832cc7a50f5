package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"

	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/viper"

	"github.com/nqueens/nqueens"
)

// config is the resolved configuration: flags override NQUEENS_*
// environment variables, which override the config file, which overrides
// the defaults below.
type config struct {
	// DB is the path of the catalog file.
	DB string `mapstructure:"db"`
	// Workers is the number of search goroutines; 0 means all cores.
	Workers int `mapstructure:"workers"`
	// MaxBuildN is the largest n build accepts.
	MaxBuildN int `mapstructure:"max_build_n"`
	// Quiet silences progress messages on stderr.
	Quiet bool `mapstructure:"quiet"`
}

// defaults are the built-in configuration values.
var defaults = config{DB: "nqueens.db", Workers: 0, MaxBuildN: 17}

const defaultConfigFile = "config.yaml"

// app carries what every subcommand needs.
type app struct {
	v      *viper.Viper
	cfg    config
	stdout io.Writer
	stderr io.Writer
	prof   *os.File
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
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	pf := root.PersistentFlags()
	pf.String("db", defaults.DB, "catalog file (SQLite)")
	pf.Int("workers", defaults.Workers, "search goroutines (0: all cores)")
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

// load resolves the configuration for cmd into a.cfg.
func (a *app) load(cmd *cobra.Command) error {
	v := a.v
	v.SetDefault("db", defaults.DB)
	v.SetDefault("workers", defaults.Workers)
	v.SetDefault("max_build_n", defaults.MaxBuildN)
	v.SetDefault("quiet", defaults.Quiet)
	v.SetEnvPrefix("NQUEENS")
	v.AutomaticEnv()
	bind := map[string]string{"db": "db", "workers": "workers", "quiet": "quiet", "max_build_n": "max-n"}
	for key, name := range bind {
		if f := cmd.Flags().Lookup(name); f != nil {
			if err := v.BindPFlag(key, f); err != nil {
				return err
			}
		}
	}

	cfgFlag := cmd.Flags().Lookup("config")
	path, explicit := defaultConfigFile, false
	if env, ok := os.LookupEnv("NQUEENS_CONFIG"); ok {
		path, explicit = env, true
	}
	if cfgFlag != nil && cfgFlag.Changed {
		path, explicit = cfgFlag.Value.String(), true
	}
	if err := a.readConfig(path, explicit); err != nil {
		return err
	}

	var c config
	if err := v.UnmarshalExact(&c, func(dc *mapstructure.DecoderConfig) { dc.WeaklyTypedInput = true }); err != nil {
		return usageError{fmt.Errorf("configuration: %s", configMessage(err))}
	}
	if err := c.validate(); err != nil {
		return usageError{fmt.Errorf("configuration: %w", err)}
	}
	a.cfg = c
	return nil
}

// readConfig reads the config file at path; a missing file is an error only
// when it was named explicitly.
func (a *app) readConfig(path string, explicit bool) error {
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
	a.v.SetConfigFile(path)
	a.v.SetConfigType("yaml")
	if err := a.v.ReadInConfig(); err != nil {
		return usageError{fmt.Errorf("config file %s is not valid YAML: %s", path, configMessage(err))}
	}
	return nil
}

// configMessage flattens a decoding error into one line.
func configMessage(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// validate checks the resolved configuration.
func (c config) validate() error {
	if c.DB == "" {
		return errors.New("db must name a file, got an empty string")
	}
	if len(c.DB) > 4096 || strings.ContainsRune(c.DB, 0) {
		return errors.New("db must be a file path (at most 4096 bytes, no NUL)")
	}
	if c.Workers < 0 || c.Workers > 1024 {
		return fmt.Errorf("workers must be between 0 (all cores) and 1024, got %d", c.Workers)
	}
	if c.MaxBuildN < 1 || c.MaxBuildN > nqueens.MaxN {
		return fmt.Errorf("max_build_n must be between 1 and %d, got %d", nqueens.MaxN, c.MaxBuildN)
	}
	return nil
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
