package main

// Tests of a catalog with two names (hard links): written through one name
// only, read through any.

import (
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTwoNamesRefuseWriters gives a built catalog a second name, as
// `ln` or `cp -al` does, and checks that build and merge through either
// name are refused in one line that names the cause and the way out, the
// catalog's bytes unchanged, while every reader works through both names;
// once the second name goes, build works again.
func TestTwoNamesRefuseWriters(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	mustRun(t, "build", "1-8", "-q", "--db", a)
	s0, s1 := filepath.Join(dir, "s0.db"), filepath.Join(dir, "s1.db")
	mustRun(t, "build", "9", "-q", "--shard", "0/2", "--db", s0)
	mustRun(t, "build", "9", "-q", "--shard", "1/2", "--db", s1)
	if err := os.Link(a, b); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	want, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{a, b} {
		for _, args := range [][]string{{"build", "9", "--db", name}, {"merge", name, s0, s1}} {
			_, _, err := runCLI(t, args...)
			line := errText(err)
			if err == nil || strings.Contains(line, "\n") || !strings.Contains(line, "2 names") || !strings.Contains(line, "cp") {
				t.Errorf("%s: %v, want one line naming the 2 names and the way out:\n%s", strings.Join(args, " "), err, line)
			}
		}
		for _, args := range [][]string{{"stats"}, {"verify"}, {"show", "8", "--class", "3"}, {"export", "8", "--format", "csv"}} {
			if _, stderr, err := runCLI(t, append(args, "--db", name)...); err != nil {
				t.Errorf("%s through %s: %v\n%s", args[0], filepath.Base(name), err, stderr)
			}
		}
	}
	if got, _ := os.ReadFile(a); string(got) != string(want) {
		t.Error("the catalog changed")
	}
	if err := os.Remove(b); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "build", "9", "-q", "--db", a)
}

// errText is err's message, or "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestTwoNamesRace runs two builds at once, as two processes, through two
// names of one catalog: at most one may write it, and the catalog must
// pass SQLite's integrity check and hold every n a build reported done.
func TestTwoNamesRace(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	mustRun(t, "build", "1-6", "-q", "--db", a)
	if err := os.Link(a, b); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	var cmds []*exec.Cmd
	var outs []*strings.Builder
	for i, name := range []string{a, b} {
		cmd := exec.Command(exe, "build", []string{"7-11", "7-12"}[i], "-q", "--db", name)
		cmd.Env = append(os.Environ(), "NQUEENS_TEST_AS_MAIN=1")
		out := new(strings.Builder)
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, out)
	}
	ok := 0
	for i, cmd := range cmds {
		if err := cmd.Wait(); err == nil {
			ok++
		} else if !strings.Contains(outs[i].String(), "2 names") {
			t.Errorf("build %d: %v, want a refusal naming the 2 names:\n%s", i, err, outs[i])
		}
	}
	if ok > 1 {
		t.Errorf("both builds through two names of one catalog ran:\n%s\n%s", outs[0], outs[1])
	}
	db, err := sql.Open("sqlite", "file:"+a+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var check string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity_check: %q, %v", check, err)
	}
}
