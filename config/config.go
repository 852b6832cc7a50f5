// Package config holds the rules of nqueens's configuration: its four keys
// (db, workers, max_rows_n and quiet), the type and range of each, and
// strict readers for the two sources that arrive as text, a YAML config
// file and the NQUEENS_* environment variables. Every error is one line
// that names the source (the file and the key, or the variable), the value
// and what is allowed:
//
//	config.yaml: workers: 2.5: want a whole number from 0 to 1024
//	config.yaml: unknown key "worker" (did you mean "workers"?)
//	NQUEENS_QUIET="maybe": want true or false (or 1, 0, t, f)
//
// A key's former names (Key.Former) are read as the key, each with a note
// of one line that says what it is renamed:
//
//	config.yaml: line 3: max_build_n is renamed max_rows_n
//
// Load resolves a configuration from all four sources: a command's flags
// over the environment over the file over Defaults.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/phrase"
)

// Config is a resolved configuration.
type Config struct {
	// DB is the path of the catalog file.
	DB string
	// Workers is the number of search goroutines; 0 means all cores.
	Workers int
	// MaxRowsN is the largest n build stores as rows, a row for each
	// class; above it build stores the n's index instead.
	MaxRowsN int
	// Quiet silences progress messages on stderr.
	Quiet bool
}

// Defaults are the built-in values, used where no source sets a key.
var Defaults = Config{DB: "nqueens.db", Workers: 0, MaxRowsN: 17, Quiet: false}

// Kind is the type of a key's value.
type Kind int

const (
	// path is a file name: a string of 1 to MaxPath bytes without NUL.
	path Kind = iota
	// Whole is a whole number from the key's Min to its Max.
	Whole
	// boolKey is true or false.
	boolKey
)

// maxPath is the longest file name, in bytes, a Path key accepts.
const maxPath = 4096

// Key is one configuration key.
type Key struct {
	// Name is the key in the config file.
	Name string
	// Env is the environment variable that sets the key.
	Env string
	// Flag is the command-line flag that sets the key, without dashes.
	Flag string
	// Kind is the type of the value.
	Kind Kind
	// Min and Max bound a Whole value.
	Min, Max int
	// Former holds the names the key went by before it was renamed, in
	// each source ("" where it had none): a source that uses one of them
	// sets the key, with a note that says it is renamed.
	Former Names
}

// Names are the names of a key in the config file, the environment and on
// the command line (without dashes).
type Names struct{ Name, Env, Flag string }

// Keys are the configuration keys, in the order messages list them.
var Keys = []Key{
	{Name: "db", Env: "NQUEENS_DB", Flag: "db", Kind: path},
	{Name: "workers", Env: "NQUEENS_WORKERS", Flag: "workers", Kind: Whole, Min: 0, Max: 1024},
	{Name: "max_rows_n", Env: "NQUEENS_MAX_ROWS_N", Flag: "max-rows-n", Kind: Whole, Min: 1, Max: nqueens.MaxN,
		Former: Names{Name: "max_build_n", Env: "NQUEENS_MAX_BUILD_N", Flag: "max-n"}},
	{Name: "quiet", Env: "NQUEENS_QUIET", Flag: "quiet", Kind: boolKey},
}

// lookup returns the key called name, which must match exactly.
func lookup(name string) (Key, bool) {
	for _, k := range Keys {
		if k.Name == name {
			return k, true
		}
	}
	return Key{}, false
}

// lookupFormer returns the key whose former name in the config file is
// name, which must match exactly.
func lookupFormer(name string) (Key, bool) {
	for _, k := range Keys {
		if k.Former.Name != "" && k.Former.Name == name {
			return k, true
		}
	}
	return Key{}, false
}

// Allowed says what k accepts, as in "want a whole number from 0 to 1024".
func (k Key) Allowed() string {
	switch k.Kind {
	case Whole:
		return fmt.Sprintf("a whole number from %d to %d", k.Min, k.Max)
	case boolKey:
		return "true or false"
	}
	return fmt.Sprintf("a file name (a string of 1 to %d bytes, no NUL)", maxPath)
}

// Parse parses s, the text of an environment variable, a flag or a whole
// number in the config file, and returns the value as a string, int or
// bool according to k's Kind. A whole number is read by nqueens.ParseWhole:
// decimal digits, without sign or leading zeros (NQUEENS_WORKERS=010 is
// refused, not read as 8 or 10); a bool in one of the forms of
// strconv.ParseBool. The error says what is allowed; the caller names the
// source.
func (k Key) Parse(s string) (any, error) {
	switch k.Kind {
	case Whole:
		n, err := nqueens.ParseWhole(s)
		if err != nil || n > uint64(k.Max) {
			return nil, errors.New("want " + k.Allowed() + nqueens.WholeHint(s))
		}
		return int(n), k.checkWhole(int64(n))
	case boolKey:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return nil, errors.New("want true or false (or 1, 0, t, f)")
		}
		return b, nil
	}
	return s, k.checkPath(s)
}

func (k Key) want() error { return errors.New("want " + k.Allowed()) }

func (k Key) checkWhole(n int64) error {
	if n < int64(k.Min) || n > int64(k.Max) {
		return k.want()
	}
	return nil
}

func (k Key) checkPath(s string) error {
	if s == "" || len(s) > maxPath || strings.ContainsRune(s, 0) {
		return k.want()
	}
	return nil
}

// checkEnv checks the environment variable of every key, read through
// lookup (os.LookupEnv), and its former variable (Key.Former); an empty
// variable counts as unset. The error names the first bad variable, its
// value and what is allowed:
// NQUEENS_WORKERS="abc": want a whole number from 0 to 1024. For each
// former variable set, note, if not nil, is called with a line that says
// what it is renamed, and that the key's variable wins where both are set.
func checkEnv(lookup func(string) (string, bool), note func(string)) error {
	set := func(name string) (string, bool) {
		s, ok := lookup(name)
		return s, ok && s != ""
	}
	for _, k := range Keys {
		for _, env := range []string{k.Env, k.Former.Env} {
			s, ok := set(env)
			if env == "" || !ok {
				continue
			}
			if _, err := k.Parse(s); err != nil {
				return fmt.Errorf("%s=%s: %w", env, phrase.Quote(s), err)
			}
		}
		if _, ok := set(k.Former.Env); ok && k.Former.Env != "" && note != nil {
			msg := fmt.Sprintf("%s is renamed %s", k.Former.Env, k.Env)
			if _, both := set(k.Env); both {
				msg += fmt.Sprintf(" (both are set: %s wins)", k.Env)
			}
			note(msg)
		}
	}
	return nil
}

// parseYAML parses data, the content of the config file called name, and
// returns the value of each key it sets, as a string, int or bool according
// to the key's Kind. It refuses, with one line that starts with name: YAML
// that does not parse, more than one YAML document, anything but a mapping
// at the top, a key that is not one of Keys (suggesting the nearest when it
// is close), a key given twice, and a value of the wrong YAML type (a
// quoted "4" is not a number, 2.5 not a whole number, yes not a bool),
// empty, or out of range. A whole number is read from its text as written,
// by Key.Parse, so that YAML's other forms of integers (010 for octal 8,
// 0o10, 0x10, 1_000, +5) are refused, not read. An empty file sets
// nothing. A key's former name (Key.Former) sets the key: note, if not nil,
// is called with a line that says so, "c.yaml: line 3: max_build_n is
// renamed max_rows_n", and the key given by both names is a key given
// twice.
func parseYAML(name string, data []byte, note func(string)) (map[string]any, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var docs []*yaml.Node
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: not valid YAML: %s", name, strings.TrimPrefix(oneLine(err.Error()), "yaml: "))
		}
		docs = append(docs, &doc)
	}
	out := map[string]any{}
	switch {
	case len(docs) == 0:
		return out, nil
	case len(docs) > 1:
		return nil, fmt.Errorf("%s: holds %d YAML documents; want one", name, len(docs))
	}
	root := docs[0]
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind == yaml.ScalarNode && root.ShortTag() == "!!null" {
		return out, nil // a document of comments, "---" or "~"
	}
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: want a mapping of keys (%s), got %s", name, keyList(", "), show(root))
	}
	type given struct {
		line int
		as   string // the name the key was given by
	}
	seen := map[string]given{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		kn, vn := root.Content[i], root.Content[i+1]
		if kn.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("%s: line %d: want a key (%s), got %s", name, kn.Line, keyList(", "), show(kn))
		}
		k, ok := lookup(kn.Value)
		former := false
		if !ok {
			k, former = lookupFormer(kn.Value)
			ok = former
		}
		if !ok {
			if s := suggest(kn.Value); s != "" {
				return nil, fmt.Errorf("%s: unknown key %s (did you mean %q?)", name, phrase.Quote(kn.Value), s)
			}
			return nil, fmt.Errorf("%s: unknown key %s: want %s", name, phrase.Quote(kn.Value), keyList(" or "))
		}
		if g, dup := seen[k.Name]; dup && g.as != kn.Value {
			return nil, fmt.Errorf("%s: key %q given twice (as %s on line %d and %s on line %d)", name, k.Name, g.as, g.line, kn.Value, kn.Line)
		} else if dup {
			return nil, fmt.Errorf("%s: key %q given twice (lines %d and %d)", name, k.Name, g.line, kn.Line)
		}
		seen[k.Name] = given{kn.Line, kn.Value}
		if former && note != nil {
			note(fmt.Sprintf("%s: line %d: %s is renamed %s", name, kn.Line, kn.Value, k.Name))
		}
		v, err := k.node(vn)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %s: %w", name, kn.Value, show(vn), err)
		}
		out[k.Name] = v
	}
	return out, nil
}

// node returns the value of the YAML node n for k.
func (k Key) node(n *yaml.Node) (any, error) {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind != yaml.ScalarNode {
		return nil, k.want()
	}
	switch tag := n.ShortTag(); {
	case k.Kind == Whole && (tag == "!!int" || tag == "!!float"):
		// The text as written, not YAML's reading of it, which takes
		// 010 for octal 8, 0x10 for 16 and 1_000 for 1000.
		return k.Parse(n.Value)
	case k.Kind == boolKey && tag == "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, k.want()
		}
		return b, nil
	case k.Kind == path && tag == "!!str":
		return n.Value, k.checkPath(n.Value)
	}
	return nil, k.want()
}

// show describes the YAML node n for a message: a string quoted, another
// scalar as written, "no value" for an empty one.
func show(n *yaml.Node) string {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	}
	switch tag := n.ShortTag(); {
	case tag == "!!null" && n.Value == "":
		return "no value"
	case tag == "!!str":
		return phrase.Quote(n.Value)
	}
	if q := phrase.Quote(n.Value); q != strconv.Quote(n.Value) {
		return q // cut short
	}
	return n.Value
}

// keyList lists the key names separated by sep, the last by " or " when
// sep is " or ": "db, workers, max_rows_n or quiet".
func keyList(sep string) string {
	names := make([]string, len(Keys))
	for i, k := range Keys {
		names[i] = k.Name
	}
	if sep == " or " {
		return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	}
	return strings.Join(names, sep)
}

// suggest returns the key nearest to name, ignoring case, if it is at most
// two edits away; otherwise "".
func suggest(name string) string {
	names := make([]string, len(Keys))
	for i, k := range Keys {
		names[i] = k.Name
	}
	return Nearest(name, names)
}

// Nearest returns the one of options nearest to name, ignoring case, if it
// is at most two edits (Levenshtein) away and closer than name is long;
// otherwise "". Ties go to the first. The command suggests flags with it
// too.
func Nearest(name string, options []string) string {
	best, bestD := "", 3
	for _, o := range options {
		if d := distance(strings.ToLower(name), strings.ToLower(o)); d < bestD && d < len(name) {
			best, bestD = o, d
		}
	}
	return best
}

// distance returns the Levenshtein distance between a and b, in bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// oneLine keeps a message on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
