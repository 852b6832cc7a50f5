package main

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// completionProbe says how TestCompletionOffersWhatIsAccepted runs a
// command: its arguments, ARG standing for the first one, which is
// probed (with arg, a value it accepts, while the flags are probed).
type completionProbe struct {
	args []string
	arg  string
	// catalog: the first argument completes with the n the catalog
	// holds, those of the values accepted that it can read.
	catalog bool
	// skip, if not "", says why the command is not run: its flags must
	// complete no values.
	skip string
}

// completionProbes are the commands' probes; a command not listed is
// probed as one that takes one n.
var completionProbes = map[string]completionProbe{
	"build":      {args: []string{"ARG", "-q"}, arg: "4"},
	"export":     {args: []string{"ARG"}, arg: "4", catalog: true},
	"show":       {args: []string{"ARG"}, arg: "4", catalog: true},
	"stats":      {args: []string{"ARG"}, arg: "4", catalog: true},
	"verify":     {args: []string{"ARG"}, arg: "4", catalog: true},
	"sample":     {args: []string{"ARG", "--seed", "1"}, arg: "4"},
	"puzzle":     {args: []string{"ARG", "--seed", "1"}, arg: "6"},
	"lookup":     {args: []string{"-"}},
	"complete":   {args: []string{"-", "--list"}},
	"merge":      {args: []string{"whole.db", "part.db"}},
	"grade":      {args: []string{"puzzles.jsonl", "answers.jsonl"}},
	"completion": {args: []string{"ARG"}, arg: "bash"},
	"serve":      {skip: "it serves until it is stopped"},
	"help":       {skip: "cobra's"},
}

// notAValue is the value no flag or argument accepts.
const notAValue = "zz-not-a-value"

// TestCompletionOffersWhatIsAccepted checks, for every command, each of its
// flags and its first argument, that the shell completion offers exactly
// the values the command accepts there where it takes a fixed list of
// them (formats, engines, symmetries, shells, the n of a board): the
// values its refusal of another value names ("want join, cpu, gpu or
// classes", "must be one of json, ndjson, ...", "n must be between 1 and
// 32"), each of which it then runs to see it accepted; and none where the
// command takes any value, or more than a shell can offer (a seed, up to
// 10,000,000 for solve). The lists come from where the command reads
// them, so a format or a command added later is checked as it comes.
func TestCompletionOffersWhatIsAccepted(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir) // the files a probe writes, -o FILE and the like
	db := filepath.Join(dir, "c.db")
	mustRun(t, "--db", db, "build", "4-6", "-q")
	runs := func(args ...string) error {
		var out, errOut bytes.Buffer
		return run(context.Background(), append([]string{"--db", db}, args...), &out, &errOut)
	}
	// complete returns what the shell is offered for the word after the
	// command name and args: the values, not the extensions of the files
	// it lists (cobra's ShellCompDirectiveFilterFileExt).
	complete := func(name string, args ...string) []string {
		t.Helper()
		line := append([]string{"__complete", name, "--db", db}, append(args, "")...)
		var out, errOut bytes.Buffer
		if err := run(context.Background(), line, &out, &errOut); err != nil {
			t.Fatalf("__complete %v: %v\n%s", args, err, errOut.String())
		}
		var values []string
		for line := range strings.Lines(out.String()) {
			if d, ok := strings.CutPrefix(line, ":"); ok {
				if k, err := strconv.Atoi(strings.TrimSpace(d)); err == nil && cobra.ShellCompDirective(k)&cobra.ShellCompDirectiveFilterFileExt != 0 {
					return nil
				}
				break
			}
			v, _, _ := strings.Cut(strings.TrimSuffix(line, "\n"), "\t")
			values = append(values, v)
		}
		return values
	}
	// check compares what the shell is offered at what with what the
	// command accepts there, read from its refusal of notAValue (args)
	// and from running each value offered (with).
	check := func(what string, offered []string, refusal error, with func(v string) []string) {
		t.Helper()
		accepted, list := acceptedValues(refusal)
		if refusal == nil || !list {
			if len(offered) > 0 {
				t.Errorf("%s: the shell is offered %v, where the command takes any value (%v)", what, offered, refusal)
			}
			return
		}
		if !slices.Equal(offered, accepted) {
			t.Errorf("%s: the shell is offered %v, the command accepts %v (%v)", what, offered, accepted, refusal)
			return
		}
		if with == nil {
			return
		}
		// Each value offered is accepted: the command may fail for
		// another reason, but not with the list of what it accepts.
		listed := listText.FindString(refusal.Error()) + rangeText.FindString(refusal.Error())
		for _, v := range offered {
			if err := runs(with(v)...); err != nil && strings.Contains(err.Error(), listed) {
				t.Errorf("%s: %s is offered and refused: %v", what, v, err)
			}
		}
	}
	root := newRoot(&bytes.Buffer{}, &bytes.Buffer{})
	for _, cmd := range root.Commands() {
		name := cmd.Name()
		probe, ok := completionProbes[name]
		if !ok {
			probe = completionProbe{args: []string{"ARG"}, arg: "8"}
		}
		t.Run(name, func(t *testing.T) {
			if probe.skip != "" {
				cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
					if values := complete(name, "--"+f.Name); len(values) > 0 {
						t.Errorf("%s --%s: the shell is offered %v; the command is not probed (%s), so its flags may offer none", name, f.Name, values, probe.skip)
					}
				})
				return
			}
			args := func(arg string, more ...string) []string {
				out := []string{name}
				for _, a := range probe.args {
					if a == "ARG" {
						a = arg
					}
					out = append(out, a)
				}
				return append(out, more...)
			}
			// The first argument.
			offered := complete(name)
			if slices.Contains(probe.args, "ARG") {
				refusal := runs(args(notAValue)...)
				if probe.catalog {
					accepted, _ := acceptedValues(refusal)
					if want := []string{"4", "5", "6"}; !slices.Equal(offered, want) || !contains(accepted, want) {
						t.Errorf("%s: the shell is offered %v, want the n of the catalog %v, of those accepted %v", name, offered, want, accepted)
					}
				} else {
					check(name+" ARG", offered, refusal, nil)
				}
			} else if len(offered) > 0 {
				t.Errorf("%s: the shell is offered %v for its first argument, which takes no fixed values", name, offered)
			}
			// Each flag.
			cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
				if f.Hidden || f.Value.Type() == "bool" {
					return
				}
				flag := "--" + f.Name
				before := args(probe.arg)[1:]
				offered := complete(name, append(before, flag)...)
				refusal := runs(args(probe.arg, flag, notAValue)...)
				check(name+" "+flag, offered, refusal, func(v string) []string { return args(probe.arg, flag, v) })
			})
		})
	}
}

// listText finds the list of values a refusal names: "must be one of a,
// b, c", "want a, b or c" (each value perhaps followed by a few words in
// parentheses, the list by "(or a comma list of them)"); rangeText a range
// of whole numbers, "between 1 and 32", "from 1 to 32".
var (
	listText  = regexp.MustCompile(`(must be one of |want )([^:]*)$`)
	rangeText = regexp.MustCompile(`(between|from) (\d+) (and|to) (\d+)`)
)

// acceptedValues returns the values err, a refusal, names as the ones
// accepted, in its order, and whether it names a list of them: a range of
// whole numbers of at most 64 values is listed, a larger one is not.
func acceptedValues(err error) ([]string, bool) {
	if err == nil {
		return nil, false
	}
	if m := rangeText.FindStringSubmatch(err.Error()); m != nil {
		lo, err1 := strconv.Atoi(m[2])
		hi, err2 := strconv.Atoi(m[4])
		if err1 != nil || err2 != nil || hi-lo >= 64 {
			return nil, false
		}
		var values []string
		for k := lo; k <= hi; k++ {
			values = append(values, strconv.Itoa(k))
		}
		return values, true
	}
	m := listText.FindStringSubmatch(err.Error())
	if m == nil {
		return nil, false
	}
	text := regexp.MustCompile(` \([^)]*\)`).ReplaceAllString(m[2], "")
	var values []string
	for _, part := range strings.Split(text, ", ") {
		for v := range strings.SplitSeq(part, " or ") {
			if !regexp.MustCompile(`^[a-z0-9]+$`).MatchString(v) {
				return nil, false // words, not a list of values
			}
			values = append(values, v)
		}
	}
	return values, len(values) > 1
}

// contains reports whether every one of want is in values.
func contains(values, want []string) bool {
	for _, w := range want {
		if !slices.Contains(values, w) {
			return false
		}
	}
	return true
}
