package config

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/nqueens/nqueens/input"
	"github.com/nqueens/nqueens/internal/phrase"
)

// defaultFile is the config file Load reads first when none is named, if
// it is there.
const defaultFile = "config.yaml"

// defaultFiles returns the config files Load looks for, in order, when none
// is named: DefaultFile in the current directory, then nqueens/config.yaml
// in the user's configuration directory (os.UserConfigDir:
// $XDG_CONFIG_HOME, or ~/.config, on Linux; ~/Library/Application Support
// on macOS), left out when there is none.
// Load reads the first of them that exists.
func defaultFiles() []string {
	files := []string{defaultFile}
	if dir, err := os.UserConfigDir(); err == nil {
		files = append(files, filepath.Join(dir, "nqueens", defaultFile))
	}
	return files
}

// ErrInterrupted is matched by Load's error when its context was cancelled
// while it read the config file.
var ErrInterrupted = errors.New("interrupted")

// Load resolves the configuration from its four sources, each checked
// strictly, with viper: a command's flags (a key's Flag, where flags has it
// and it was set) override the process's NQUEENS_* variables (an empty one
// counts as unset), which override the config file, which overrides
// Defaults. The file is the one the flag --config names, else the one
// NQUEENS_CONFIG names (either must exist), else the first of
// DefaultFiles that is there. Its read is bounded (input.MaxSmall) and ends when ctx is
// cancelled, with an error matching ErrInterrupted, even if the file is a
// FIFO no one writes to. Every other error is one line naming the flag, the
// variable, or the file and key.
//
// A key's former names (Key.Former) set it as its names do, below them
// where both are set in one source: the flag of a former name, where flags
// has it, the former variable, the former key in the file. For each one
// used, note, if not nil, is called with a line that says what it is
// renamed (see CheckEnv and ParseYAML). A former flag given with the
// key's own is an error.
func Load(ctx context.Context, flags *pflag.FlagSet, note func(string)) (Config, error) {
	v := viper.New()
	v.SetDefault("db", Defaults.DB)
	v.SetDefault("workers", Defaults.Workers)
	v.SetDefault("max_rows_n", Defaults.MaxRowsN)
	v.SetDefault("quiet", Defaults.Quiet)
	for _, k := range Keys {
		env := []string{k.Name, k.Env}
		if k.Former.Env != "" {
			env = append(env, k.Former.Env) // the first one set wins
		}
		if err := v.BindEnv(env...); err != nil {
			return Config{}, err
		}
		f, err := flagOf(k, flags, note)
		if err != nil {
			return Config{}, err
		} else if f == nil {
			continue
		}
		if f.Changed {
			if _, err := k.Parse(f.Value.String()); err != nil {
				return Config{}, fmt.Errorf("--%s %s: %w", f.Name, phrase.Quote(f.Value.String()), err)
			}
		}
		if err := v.BindPFlag(k.Name, f); err != nil {
			return Config{}, err
		}
	}
	if err := checkEnv(os.LookupEnv, note); err != nil {
		return Config{}, err
	}
	path, explicit := firstFile(defaultFiles()), false
	if env, ok := os.LookupEnv("NQUEENS_CONFIG"); ok {
		path, explicit = env, true
	}
	if f := flags.Lookup("config"); f != nil && f.Changed {
		path, explicit = f.Value.String(), true
	}
	values, err := readFile(ctx, path, explicit, note)
	if err != nil {
		return Config{}, err
	}
	if err := v.MergeConfigMap(values); err != nil {
		return Config{}, err
	}
	cfg := Config{DB: v.GetString("db"), Quiet: v.GetBool("quiet")}
	if cfg.Workers, err = whole(v, "workers"); err != nil {
		return Config{}, err
	}
	if cfg.MaxRowsN, err = whole(v, "max_rows_n"); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// flagOf returns the flag of flags that sets k: its former flag
// (Key.Former) if that was given, with a note that says what it is
// renamed, else its flag, nil if flags has none. Both given is an error.
func flagOf(k Key, flags *pflag.FlagSet, note func(string)) (*pflag.Flag, error) {
	f := flags.Lookup(k.Flag)
	old := flags.Lookup(k.Former.Flag)
	if k.Former.Flag == "" || old == nil || !old.Changed {
		return f, nil
	}
	if f != nil && f.Changed {
		return nil, fmt.Errorf("--%s and --%s set the same key, %s: give --%s alone", old.Name, f.Name, k.Name, f.Name)
	}
	if note != nil {
		note(fmt.Sprintf("--%s is renamed --%s", old.Name, k.Flag))
	}
	return old, nil
}

// whole returns the whole number key of v, read from viper's text of it by
// Key.Parse, the one reader of whole numbers, rather than by viper's
// GetInt, which reads Go literals ("010" is 8). Every source was checked
// before it reached v, so an error here is one line naming the key.
func whole(v *viper.Viper, key string) (int, error) {
	k, _ := lookup(key)
	s := v.GetString(key)
	n, err := k.Parse(s)
	if err != nil {
		return 0, fmt.Errorf("%s %s: %w", key, phrase.Quote(s), err)
	}
	return n.(int), nil
}

// firstFile returns the first of paths that exists (as anything: a
// directory or an unreadable file there is reported by readFile), or "" if
// none does.
func firstFile(paths []string) string {
	for _, p := range paths {
		if _, err := os.Lstat(p); err == nil {
			return p
		}
	}
	return ""
}

// readFile reads and checks (ParseYAML, with note) the config file at
// path; a missing file sets nothing unless it was named explicitly.
func readFile(ctx context.Context, path string, explicit bool, note func(string)) (map[string]any, error) {
	if path == "" {
		if explicit {
			return nil, errors.New("config file: empty path")
		}
		return nil, nil
	}
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("config file %s: %w", path, errors.Unwrap(err))
	}
	if st.IsDir() {
		return nil, fmt.Errorf("config file %s: is a directory", path)
	}
	data, err := input.ReadFile(ctx, path, input.MaxSmall)
	switch {
	case ctx.Err() != nil:
		return nil, fmt.Errorf("%w while reading config file %s", ErrInterrupted, path)
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("config file %s: %w", path, err)
	}
	return parseYAML(path, data, note)
}
