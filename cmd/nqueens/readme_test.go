package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/internal/testutil"
)

// example is one command of a Markdown file (README.md, docs/*.md), a
// line "$ COMMAND" in a code block, and the output printed under it.
type example struct {
	line    int    // of the command in its file, from 1
	command string // for sh -c
	want    []string
}

// readmeExamples returns the examples of the Markdown file at path in order: every line
// of a code block (indented, or fenced) that starts with "$ " and runs
// nqueens (alone, or in a shell loop or pipe) or the sqlite3 shell, with
// the lines under it up to the next command, an empty line, or the end of
// the block as its output, less the command's indentation (a line of the
// indentation alone is a blank line of the output).
func readmeExamples(t *testing.T, path string) []example {
	t.Helper()
	data := testutil.ReadFile(t, path)
	var out []example
	var cur *example
	indent := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	for i := 1; sc.Scan(); i++ {
		line := sc.Text()
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case strings.HasPrefix(trimmed, "$ ") && runsNqueens.MatchString(trimmed):
			out = append(out, example{line: i, command: strings.TrimPrefix(trimmed, "$ ")})
			cur = &out[len(out)-1]
			indent = line[:len(line)-len(trimmed)]
		case cur != nil && trimmed != "" && !strings.HasPrefix(trimmed, "```") && strings.HasPrefix(line, indent):
			cur.want = append(cur.want, strings.TrimPrefix(line, indent))
		case cur != nil && indent != "" && line == indent:
			// A line of the indentation alone is a blank line of output;
			// an empty line ends the example.
			cur.want = append(cur.want, "")
		default:
			cur = nil
		}
	}
	return out
}

// runsNqueens matches a command line that runs nqueens or sqlite3.
var runsNqueens = regexp.MustCompile(`(^\$ |[;|] *|do )(nqueens|sqlite3) `)

// masks turn what differs from run to run into fixed words, in both the
// README's output and the program's: times, durations, seconds in JSON
// (which print 0 for a run under a millisecond), decimals (rates), and the
// directories of absolute paths. Runs of spaces count as
// one, so that a wider number does not break a table.
var masks = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)`), "TIME"},
	{regexp.MustCompile(`\b(under )?\d+(\.\d+)? (µs|ms|s|min|h|days?|months?|years?)\b( \d+ (s|min|h|days?|months?)\b)?`), "DURATION"},
	{regexp.MustCompile(`\b\d+(\.\d+)?(ns|µs|ms|s|m|h)\b`), "DURATION"},
	{regexp.MustCompile(`("(search_)?seconds": )\d+(\.\d+)?`), "${1}SECONDS"},
	{regexp.MustCompile(`\b\d+\.\d+\b`), "DECIMAL"},
	{regexp.MustCompile(`(/[\w.\-]+)+/`), "DIR/"},
	{regexp.MustCompile(`\s+`), " "},
}

func mask(s string) string {
	for _, m := range masks {
		s = m.re.ReplaceAllString(s, m.with)
	}
	return strings.TrimSpace(s)
}

// matchLines reports whether got matches want, line by line after mask: a
// want line of "..." stands for any lines (or none), and "..." within a
// line for any text.
func matchLines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	w := mask(want[0])
	if w == "..." {
		for k := 0; k <= len(got); k++ {
			if matchLines(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	if len(got) == 0 {
		return false
	}
	parts := strings.Split(w, "...")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	if !regexp.MustCompile("^" + strings.Join(parts, ".*") + "$").MatchString(mask(got[0])) {
		return false
	}
	return matchLines(want[1:], got[1:])
}

// TestREADMEExamples runs every example of README.md and of every manual
// page in docs/*.md, each file's in order in one new directory, with nqueens
// (this test binary) on PATH, and compares what it prints (stdout and
// stderr, as a terminal shows them) with the output under it in the file:
// the documentation cannot drift from the program.
func TestREADMEExamples(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds catalogs")
	}
	docs, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil || len(docs) < 5 {
		t.Fatalf("the manual's pages: %v %v", docs, err)
	}
	// The fewest examples each page holds, fewer meaning the parser lost
	// some; a page not named may hold none.
	least := map[string]int{"README.md": 3, "docs/cli.md": 30, "docs/catalog.md": 8, "docs/cluster.md": 7}
	type page struct {
		path string
		min  int
	}
	pages := []page{{"README.md", least["README.md"]}}
	for _, d := range docs {
		rel := "docs/" + filepath.Base(d)
		pages = append(pages, page{rel, least[rel]})
	}
	for _, doc := range pages {
		t.Run(doc.path, func(t *testing.T) {
			t.Parallel()
			examples := readmeExamples(t, filepath.Join("..", "..", doc.path))
			if len(examples) < doc.min {
				t.Fatalf("found %d examples in %s, want %d or more; the parser lost them?", len(examples), doc.path, doc.min)
			}
			dir := t.TempDir()
			env := nqueensOnPath(t, dir)
			for _, ex := range examples {
				cmd := exec.Command("sh", "-c", ex.command)
				cmd.Dir = dir
				cmd.Env = env
				out, _ := cmd.CombinedOutput()
				got := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
				if len(out) == 0 {
					got = nil
				}
				if !matchLines(ex.want, got) {
					t.Errorf("%s:%d: $ %s\nwant:\n\t%s\ngot:\n\t%s", doc.path, ex.line, ex.command,
						strings.Join(ex.want, "\n\t"), strings.Join(got, "\n\t"))
				}
			}
		})
	}
}

// nqueensOnPath returns the environment of a shell command that runs
// nqueens and sqlite3 as a user does, from PATH: both are this test binary
// (see TestMain and sqlite3Main), through wrappers it writes to dir/.bin,
// so that the SQL examples run where the shell is not installed. The
// NQUEENS_ variables of the test's own environment are left out.
func nqueensOnPath(t *testing.T, dir string) []string {
	t.Helper()
	bin := filepath.Join(dir, ".bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for name, env := range map[string]string{"nqueens": "NQUEENS_TEST_AS_MAIN", "sqlite3": "NQUEENS_TEST_AS_SQLITE3"} {
		wrapper := "#!/bin/sh\n" + env + "=1 exec '" + exe + "' \"$@\"\n"
		testutil.WriteExecutable(t, filepath.Join(bin, name), []byte(wrapper))
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "NQUEENS_") && !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	return append(env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), childGORACE())
}

// TestMask checks that what differs from run to run masks alike, and that
// what a reader relies on does not.
func TestMask(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{`"started_at": "2026-11-23T04:45:46Z",`, `"started_at": "2026-11-26T10:17:16Z",`, true},
		{`built n=8 in 3ms`, `built n=8 in 1.2s`, true},
		{`built 12 classes (92 solutions) in 310 µs`, `built 12 classes (92 solutions) in 1 min 4 s`, true},
		{`in 8 ms`, `in 2 days 3 h`, true},
		{`about 4.3 s left`, `about 1 h 20 min left`, true},
		{`built 12 classes`, `built 13 classes`, false},
		{`built 2,279,184 solutions`, `built 2,279,185 solutions`, false},
		{`"seconds": 0`, `"seconds": 0.004`, true},
		{`"seconds": 0.004,`, `"seconds": 12,`, true},
		{`  8      92`, `  8   92`, true},
		{`wrote /tmp/a/b/out.csv`, `wrote /home/x/out.csv`, true},
		{`"total": 92,`, `"total": 93,`, false},
		{`n=8 class 3`, `n=8 class 4`, false},
		{`"units_done": 0,`, `"units_done": 1,`, false},
	} {
		if got := mask(c.a) == mask(c.b); got != c.same {
			t.Errorf("mask(%q) == mask(%q) is %v, want %v (%q, %q)", c.a, c.b, got, c.same, mask(c.a), mask(c.b))
		}
	}
}
