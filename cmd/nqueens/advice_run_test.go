package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// advised returns the nqueens commands in a message, as arguments: the
// subcommand, then its n, flags and flag values (a word after --db or
// --max-rows-n), up to the first plain word.
func advised(msg string) [][]string {
	var cmds [][]string
	for _, m := range regexp.MustCompile(`nqueens ([a-z]+)((?: [^ ;()]+)*)`).FindAllStringSubmatch(msg, -1) {
		args := []string{m[1]}
		for _, w := range strings.Fields(m[2]) {
			prev := args[len(args)-1]
			if w[0] >= '0' && w[0] <= '9' || strings.HasPrefix(w, "--") || prev == "--db" || prev == "--max-rows-n" {
				args = append(args, w)
				continue
			}
			break
		}
		cmds = append(cmds, args)
	}
	return cmds
}

// interruptedBuild starts a build of args and cancels it after its work
// unit 5, as Ctrl-C does.
func interruptedBuild(t *testing.T, args ...string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	testHookUnitAdded = func(_ context.Context, unit int) {
		if unit == 5 {
			cancel()
		}
	}
	defer func() { testHookUnitAdded = nil }()
	if err := run(ctx, append(args, "-q", "--workers", "1"), &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
		t.Fatalf("nqueens %s was not interrupted", strings.Join(args, " "))
	}
}

// TestAdviceWorks provokes each piece of advice the command prints (an
// unfinished build of rows and of an index, one of rows above max_rows_n,
// an n not built, a missing and an empty catalog, a shard), each on a
// catalog that is not the default one, and runs the command it advises as
// printed, in another working directory: each succeeds, and the command
// that gave the advice then succeeds too. It interrupts builds through
// testHookUnitAdded, so it does not run in parallel.
func TestAdviceWorks(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(t.TempDir()) // an advice that forgets --db builds here, not in dir
	db := func(name string) string { return filepath.Join(dir, name) }
	mustRun(t, "build", "8", "-q", "--db", db("c.db"))
	interruptedBuild(t, "build", "10", "--db", db("rows.db"))
	interruptedBuild(t, "build", "12", "--index", "--db", db("index.db"))
	interruptedBuild(t, "build", "11", "--max-rows-n", "11", "--db", db("over.db"))
	mustRun(t, "build", "9", "--shard", "0/2", "-q", "--db", db("s0.db"))
	mustRun(t, "build", "9", "--shard", "1/2", "-q", "--db", db("s1.db"))
	if err := os.WriteFile(db("empty.db"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string // the command that advises
		want string   // a part of its advice
	}{
		{name: "unfinished rows", args: []string{"show", "10", "--db", db("rows.db")}, want: "to finish it"},
		{name: "unfinished index", args: []string{"show", "12", "--db", db("index.db")}, want: "build 12 --index --db"},
		{name: "unfinished rows above max_rows_n", env: map[string]string{"NQUEENS_MAX_ROWS_N": "9"},
			args: []string{"show", "11", "--db", db("over.db")}, want: "build 11 --max-rows-n 11 --db"},
		{name: "n not built", args: []string{"show", "9", "--db", db("c.db")}, want: "first"},
		{name: "n not built, stats", args: []string{"stats", "6", "--db", db("c.db")}, want: "makes it"},
		{name: "no catalog", args: []string{"stats", "--db", db("missing.db")}, want: "to make one"},
		{name: "no catalog, one n", args: []string{"show", "7", "--db", db("missing7.db")}, want: "to make one"},
		{name: "empty catalog", args: []string{"stats", "--db", db("empty.db")}, want: "to make it a catalog"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			out, stderr, err := runCLI(t, tc.args...)
			msg := stderr
			if err != nil {
				msg += err.Error()
			}
			cmds := advised(msg)
			if !strings.Contains(msg, tc.want) || len(cmds) == 0 {
				t.Fatalf("nqueens %s: %v\n%s%s\nwant advice with %q", strings.Join(tc.args, " "), err, out, stderr, tc.want)
			}
			for _, c := range cmds {
				if _, stderr, err := runCLI(t, append(c, "-q")...); err != nil {
					t.Errorf("the advice of nqueens %s: nqueens %s: %v\n%s", strings.Join(tc.args, " "), strings.Join(c, " "), err, stderr)
				}
			}
			if _, stderr, err := runCLI(t, tc.args...); err != nil || strings.Contains(stderr, tc.want) {
				t.Errorf("nqueens %s after its advice: %v\n%s", strings.Join(tc.args, " "), err, stderr)
			}
		})
	}
	if left, _ := os.ReadDir("."); len(left) > 0 {
		t.Errorf("an advice wrote %s in the working directory", left[0].Name())
	}
}

// TestShardAdvice reads one shard of a sharded build: the advice is to
// merge the shard catalogs, and nqueens merge, as advised, makes a
// catalog that holds n whole.
func TestShardAdvice(t *testing.T) {
	dir := t.TempDir()
	db := func(name string) string { return filepath.Join(dir, name) }
	mustRun(t, "build", "9", "--shard", "0/2", "-q", "--db", db("s0.db"))
	mustRun(t, "build", "9", "--shard", "1/2", "-q", "--db", db("s1.db"))
	_, _, err := runCLI(t, "show", "9", "--db", db("s0.db"))
	cmds := [][]string{}
	if err != nil {
		cmds = advised(err.Error())
	}
	if len(cmds) != 1 || len(cmds[0]) < 1 || cmds[0][0] != "merge" {
		t.Fatalf("show 9 of a shard: %v; want advice to run nqueens merge", err)
	}
	mustRun(t, "merge", "-q", db("whole.db"), db("s0.db"), db("s1.db"))
	mustRun(t, "show", "9", "--db", db("whole.db"))
}

// TestVerifyAdvice damages a catalog of rows (a class deleted) and an
// index (a bit of a block flipped), each in a catalog that is not the
// default: the reader's error advises nqueens verify on that catalog, and
// the command, run as printed, verifies it and names the fault (exit 3).
func TestVerifyAdvice(t *testing.T) {
	t.Chdir(t.TempDir()) // an advice that forgets --db verifies nothing here
	rows, index := sharedCatalog(t, "8"), sharedCatalog(t, "12", "--index")
	rows = tamperedCopy(t, rows, `DELETE FROM classes WHERE n = 8 AND class = 5`)
	flip := editBlocks(t, index, func(blocks map[int64][]byte) { blocks[0][9] ^= 4 })
	index = tamperedCopy(t, index, flip)
	for _, tc := range []struct {
		args  []string
		fault string
	}{
		{[]string{"export", "8", "--format", "csv", "--db", rows}, "class 5"},
		{[]string{"show", "12", "--class", "1", "--db", index}, "index block 0"},
	} {
		_, stderr, err := runCLI(t, tc.args...)
		msg := stderr
		if err != nil {
			msg += err.Error()
		}
		var verifies [][]string
		for _, c := range advised(msg) {
			if c[0] == "verify" {
				verifies = append(verifies, c)
			}
		}
		if len(verifies) == 0 {
			t.Fatalf("nqueens %s: %v\n%s: want advice to run nqueens verify", strings.Join(tc.args, " "), err, stderr)
		}
		for _, c := range verifies {
			out, _, err := runCLI(t, c...)
			if exitCode(err) != exitMismatch || !strings.Contains(out, tc.fault) {
				t.Errorf("the advice of nqueens %s: nqueens %s: exit %d, %v\n%s; want %d naming %q", strings.Join(tc.args, " "), strings.Join(c, " "), exitCode(err), err, out, exitMismatch, tc.fault)
			}
		}
	}
	if left, _ := os.ReadDir("."); len(left) > 0 {
		t.Errorf("an advice wrote %s in the working directory", left[0].Name())
	}
}
