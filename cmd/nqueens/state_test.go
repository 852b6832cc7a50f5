package main

// Tests of count's state file as a user meets it: two counts on one
// state, damaged and edited states, and paths that are no state.

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/count/resume"
)

// runChild runs nqueens with args in dir, its stdin empty, and returns its
// stdout, stderr and exit status. A guard kills it after 30 seconds, a
// failure deadline only: each run here ends at once or counts n <= 13.
func runChild(t *testing.T, dir string, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	cmd := command(t, dir, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	guard := time.AfterFunc(30*time.Second, func() { cmd.Process.Kill() })
	err := cmd.Wait()
	if !guard.Stop() {
		t.Fatalf("nqueens %s did not end within 30s", strings.Join(args, " "))
	}
	return out.String(), errOut.String(), exitStatus(err)
}

// published matches the row of the published counts of n = 12, 13 or 16
// in count's table.
var published = map[string]*regexp.Regexp{
	"12": regexp.MustCompile(`(?m)^ +12 +14200 +1787 `),
	"13": regexp.MustCompile(`(?m)^ +13 +73712 +9233 `),
	"16": regexp.MustCompile(`(?m)^ +16 +14772512 +1846955 `),
}

// checkPublished fails t unless a count of n exited 0 and printed the
// published counts.
func checkPublished(t *testing.T, n, stdout, stderr string, status int) {
	t.Helper()
	if status != 0 || !published[n].MatchString(stdout) {
		t.Fatalf("count %s: status %d, want 0 and the published counts:\n%s%s", n, status, stdout, stderr)
	}
}

// killedState returns the path of the state of count n killed with SIGKILL
// once its state held units work units.
func killedState(t *testing.T, n string, units int, flags ...string) string {
	t.Helper()
	state := filepath.Join(t.TempDir(), "count-"+n+".state")
	b := startPausedCount(t, state, n, units, flags...)
	b.stop()
	if got := records(t, state); got != units {
		t.Fatalf("the state of the count killed at %d work units holds %d", units, got)
	}
	return state
}

// TestSecondCountOnStateRefused starts a second count on the state of a
// count that is running (paused in the middle of its work): it is refused
// at once, in one line naming the process that holds the state, and
// changes nothing; the first, killed, is resumed to the published counts.
func TestSecondCountOnStateRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	state := filepath.Join(dir, "st")
	b := startPausedCount(t, state, "13", 300)
	before, _ := os.ReadFile(state)
	out, stderr, status := runChild(t, dir, "count", "13", "--state", state, "--json", "-q")
	want := fmt.Sprintf("nqueens: count n=13: state file %s is in use by process %d, another count of the same board: wait for it to end, or give this count a state file of its own\n", state, b.cmd.Process.Pid)
	if status != exitError || out != "" || stderr != want {
		t.Errorf("second count: status %d, stdout %q, stderr %q; want status %d, nothing printed, %q", status, out, stderr, exitError, want)
	}
	if after, _ := os.ReadFile(state); !bytes.Equal(after, before) {
		t.Errorf("the refused count changed the state")
	}
	b.stop()
	out, stderr, status = runChild(t, dir, "count", "13", "--state", state)
	checkPublished(t, "13", out, stderr, status)
	if want := "resuming with 300 of 1,105 work units kept in " + state; !strings.Contains(stderr, want) {
		t.Errorf("the resume did not say %q:\n%s", want, stderr)
	}
}

// TestTwoCountsOnOneState runs the race of two counts of 13 on one state,
// round after round: the second starts while the first runs (paused at a
// work unit drawn for the round), each is killed where it stands (the
// second, if not refused, paused at a unit of its own), and a third count
// resumes from whatever the state then holds. The second count is refused
// in one line or runs; the resume prints the published counts, never
// others. The lock alone refuses the second count (TestSecondCountOnState
// Refused fails without it); this test holds the outcome that the lock,
// whole appended lines, their checksums and the published-count check
// promise together.
func TestTwoCountsOnOneState(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	state := filepath.Join(dir, "st")
	refused := regexp.MustCompile(`^nqueens: count n=13: state file .* is in use by (process \d+|another process), .*\n$`)
	rng := rand.New(rand.NewPCG(32, 1))
	total := len(count.Constellations(13))
	for round := range 6 {
		first := startPausedCount(t, state, "13", 1+rng.IntN(total/3))
		second := command(t, dir, "count", "13", "--workers", "1", "--state", state, "--json", "-q")
		second.Env = append(second.Env, fmt.Sprintf("%s=%d", pauseCountEnv, 1+rng.IntN(total/3)))
		var out bytes.Buffer
		errOut := &watchWriter{want: pausedCountLine, seen: make(chan struct{})}
		second.Stdout, second.Stderr = &out, errOut
		if err := second.Start(); err != nil {
			t.Fatal(err)
		}
		// The second ends refused, or pauses: wait for either, then kill
		// both where they stand.
		exited := make(chan error, 1)
		go func() { exited <- second.Wait() }()
		var err error
		select {
		case err = <-exited:
		case <-errOut.seen:
			second.Process.Kill()
			err = <-exited
		}
		first.stop()
		killed := exitStatus(err) == -1 // ended by the kill: ExitCode says -1
		if !killed && !(exitStatus(err) == exitError && refused.MatchString(errOut.String()) && out.String() == "") {
			t.Errorf("round %d: the second count: status %d, neither refused in one line nor running:\n%s%s", round, exitStatus(err), out.String(), errOut.String())
		}
		stdout, stderr, status := runChild(t, dir, "count", "13", "--state", state)
		checkPublished(t, "13", stdout, stderr, status)
	}
}

// TestGarbledStateGivesPublishedCounts overwrites the lines of a state at
// offsets that are not line boundaries, with lines of the same state, as
// two writers each with an offset of its own would, and adds lines a
// torn write leaves: the resume drops the damaged lines, keeps the others
// and prints the published counts.
func TestGarbledStateGivesPublishedCounts(t *testing.T) {
	t.Parallel()
	state := killedState(t, "12", 400)
	clean, _ := os.ReadFile(state)
	head := bytes.IndexByte(clean, '\n') + 1
	lines := bytes.SplitAfter(clean[head:], []byte("\n"))
	dir := filepath.Dir(state)
	for round := range 6 {
		r := rand.New(rand.NewPCG(uint64(round), 32))
		data := bytes.Clone(clean)
		for range 1 + r.IntN(4) {
			at := head + r.IntN(len(data)-head)
			over := bytes.Join(lines[r.IntN(len(lines)-3):][:1+r.IntN(3)], nil)
			copy(data[at:], over)
		}
		data = append(data, "2211 91\n7 \n"...)
		garbled := filepath.Join(dir, "garbled-"+strconv.Itoa(round))
		os.WriteFile(garbled, data, 0o644)
		out, stderr, status := runChild(t, dir, "count", "12", "--state", garbled)
		checkPublished(t, "12", out, stderr, status)
		if !strings.Contains(stderr, "dropped ") || !strings.Contains(stderr, "resuming with ") {
			t.Errorf("round %d: the resume did not say what it dropped and kept:\n%s", round, stderr)
		}
	}
}

// TestTornLineCostsItsUnit tears one line in the middle of a state (its
// end lost, its newline kept), and cuts the last one short: the resume
// drops the torn line alone, keeps every other, and prints the published
// counts.
func TestTornLineCostsItsUnit(t *testing.T) {
	t.Parallel()
	state := killedState(t, "13", 500)
	data, _ := os.ReadFile(state)
	lines := bytes.SplitAfter(data, []byte("\n"))
	lines[200] = append(lines[200][:len(lines[200])/2], '\n')
	torn := append(bytes.Join(lines, nil), "12 4"...)
	os.WriteFile(state, torn, 0o644)
	out, stderr, status := runChild(t, filepath.Dir(state), "count", "13", "--state", state)
	checkPublished(t, "13", out, stderr, status)
	for _, want := range []string{"dropped 1 line of the state in " + state, "resuming with 499 of 1,105 work units kept in " + state} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the resume did not say %q:\n%s", want, stderr)
		}
	}
}

// TestEditedStateRecord edits a record of a state: without its checksum
// the line is dropped and its unit counted again (the published counts);
// with a checksum made for it, the count differs from the published one:
// it prints no counts, names both and the state, sets the state aside as
// .bad and exits 3.
func TestEditedStateRecord(t *testing.T) {
	t.Parallel()
	state := killedState(t, "12", 100, "--engine", "cpu")
	data, _ := os.ReadFile(state)
	lines := bytes.SplitAfter(data, []byte("\n"))
	i, sol, _ := bytes.Cut(lines[50], []byte(" "))
	k := bytes.IndexAny(sol, " \n")
	v, _ := strconv.ParseUint(string(sol[:k]), 10, 64)
	lines[50] = fmt.Appendf(nil, "%s %d%s", i, v+1, sol[k:])
	os.WriteFile(state, bytes.Join(lines, nil), 0o644)
	out, stderr, status := runChild(t, filepath.Dir(state), "count", "12", "--engine", "cpu", "--state", state)
	checkPublished(t, "12", out, stderr, status)
	if want := "resuming with 99 of 730 work units"; !strings.Contains(stderr, want) {
		t.Errorf("the resume did not say %q:\n%s", want, stderr)
	}

	// The same edit with its checksum, as this version writes it: one
	// unit of orbit 8 gains a solution.
	cs := count.Constellations(12)
	state = filepath.Join(t.TempDir(), "edited")
	st, err := resume.Open(context.Background(), state, resume.NewHeader(12, nqueens.Shard{}, count.ConstellationUnits(cs), version(commit)), count.ConstellationUnits(cs))
	if err != nil {
		t.Fatal(err)
	}
	edited := -1
	for i, c := range cs[:100] {
		s := c.Solutions()
		if edited < 0 && c.Orbit() == 8 && s > 0 {
			edited, s = i, s+1
		}
		st.Record(i, s)
	}
	st.Close()
	before, _ := os.ReadFile(state)
	out, stderr, status = runChild(t, filepath.Dir(state), "count", "12", "--engine", "cpu", "--state", state)
	want := fmt.Sprintf("nqueens: count n=12: total 14208, unique 1788; OEIS A000170/A002562 say 14200, 1787; counted with the state in %s, set aside as %s.bad\n", state, state)
	if status != exitMismatch || out != "" || !strings.HasSuffix(stderr, want) {
		t.Errorf("edited unit %d: status %d, stdout %q, stderr %q; want status %d, nothing printed, %q", edited, status, out, stderr, exitMismatch, want)
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Errorf("the state is still at its path: %v", err)
	}
	if after, _ := os.ReadFile(state + ".bad"); !bytes.HasPrefix(after, before) {
		t.Errorf("%s.bad does not hold the state's lines", state)
	}
}

// TestEditedJoinState is TestEditedStateRecord's second half for the
// join's units: a record of a join's state edited with a checksum made for
// it gives counts that are not the published ones; count prints none,
// names both and the state, sets the state aside and exits 3.
func TestEditedJoinState(t *testing.T) {
	t.Parallel()
	killed := killedState(t, "12", 100, "--engine", "join")
	data, _ := os.ReadFile(killed)
	u := count.JoinUnitsOf(12)
	state := filepath.Join(t.TempDir(), "edited")
	st, err := resume.Open(context.Background(), state, resume.NewHeader(12, nqueens.Shard{}, u, version(commit)), u)
	if err != nil {
		t.Fatal(err)
	}
	edited := -1
	for _, line := range bytes.Split(data, []byte("\n"))[1:] {
		f := strings.Fields(string(line))
		if len(f) != 3 {
			continue
		}
		i, _ := strconv.Atoi(f[0])
		s, _ := strconv.ParseUint(f[1], 10, 64)
		if edited < 0 && s > 0 {
			edited, s = i, s+1
		}
		st.Record(i, s)
	}
	st.Close()
	if edited < 0 {
		t.Fatal("no unit of the killed count has solutions")
	}
	out, stderr, status := runChild(t, filepath.Dir(state), "count", "12", "--engine", "join", "--state", state)
	// One solution more forms no whole classes, which the error says too.
	said := "nqueens: count n=12: total 14201; OEIS A000170/A002562 say 14200, 1787 ("
	want := fmt.Sprintf("; counted with the state in %s, set aside as %s.bad\n", state, state)
	if status != exitMismatch || out != "" || !strings.Contains(stderr, said) || !strings.HasSuffix(stderr, want) {
		t.Errorf("edited unit %d: status %d, stdout %q, stderr %q; want status %d, nothing printed, %q ... %q", edited, status, out, stderr, exitMismatch, said, want)
	}
	if _, err := os.Stat(state + ".bad"); err != nil {
		t.Errorf("the state was not set aside: %v", err)
	}
}

// TestStateRefusesOtherFiles points --state at what is no state: a
// catalog and its lock file, a read-only file, a symbolic link, /dev/null,
// /dev/stdout (as root, a node and a link of their own) and a FIFO. Each count exits 1 at once with one line and
// leaves the file exactly as it was: its bytes, and the link and the
// device node themselves.
func TestStateRefusesOtherFiles(t *testing.T) {
	t.Parallel()
	db := builtCatalog(t, "1-8")
	dir := filepath.Dir(db)
	readOnly := filepath.Join(dir, "ro")
	os.WriteFile(readOnly, []byte("mine\n"), 0o444)
	os.Chmod(readOnly, 0o444)
	link := filepath.Join(dir, "link")
	os.Symlink(db, link)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	devNull, devStdout := "/dev/null", "/dev/stdout"
	if os.Geteuid() == 0 {
		// As root a count that took them for states would remove the
		// machine's own: use a device node and a link of the test's.
		devNull, devStdout = filepath.Join(dir, "null"), filepath.Join(dir, "stdout")
		if err := syscall.Mknod(devNull, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
			t.Fatal(err)
		}
		os.Symlink("/proc/self/fd/1", devStdout)
	}
	paths := []string{db, readOnly, link, devNull, devStdout, fifo}
	if _, err := os.Stat(db + ".lock"); err == nil {
		paths = append(paths, db+".lock")
	}
	for _, path := range paths {
		before, _ := os.Lstat(path)
		var data []byte
		if before.Mode().IsRegular() {
			data, _ = os.ReadFile(path)
		}
		dbBytes, _ := os.ReadFile(db)
		out, stderr, status := runChild(t, dir, "count", "10", "--state", path)
		if status != exitError || out != "" || !strings.HasPrefix(stderr, "nqueens: count n=10: state file "+path+" ") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("--state %s: status %d, stdout %q, stderr %q; want status %d and one line", path, status, out, stderr, exitError)
		}
		after, err := os.Lstat(path)
		switch {
		case err != nil:
			t.Errorf("--state %s: gone: %v", path, err)
		case after.Mode() != before.Mode() || !os.SameFile(before, after):
			t.Errorf("--state %s: now %v, was %v", path, after.Mode(), before.Mode())
		case before.Mode().IsRegular():
			if now, _ := os.ReadFile(path); !bytes.Equal(now, data) {
				t.Errorf("--state %s: its bytes changed", path)
			}
		}
		if now, _ := os.ReadFile(db); !bytes.Equal(now, dbBytes) {
			t.Errorf("--state %s: the catalog's bytes changed", path)
		}
	}
	// The catalog's companions that do not exist yet are refused too: a
	// state there would be taken for the catalog's log or journal.
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		path := db + suffix
		os.Remove(path)
		out, stderr, status := runChild(t, dir, "count", "10", "--state", path)
		if status != exitError || out != "" || !strings.Contains(stderr, "is a file of the SQLite catalog") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("--state %s: status %d, stdout %q, stderr %q; want status %d and one line", path, status, out, stderr, exitError)
		}
		if _, err := os.Lstat(path); err == nil {
			t.Errorf("--state %s: made the file", path)
		}
	}
}

// TestBuildChecksPublishedCounts kills a build of 12 in the middle, adds a
// class of orbit 8 to the counts its catalog records so far, and runs the
// build again: it resumes and finishes, but the counts it records are not
// the ones OEIS publishes, so it prints no table, names both and exits 3;
// verify then fails too.
func TestBuildChecksPublishedCounts(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "c.db")
	b := startPausedBuild(t, db, 12, len(canonical.Units(12))/2, commitRowsEnv+"=100")
	b.stop()
	edit(t, db, `UPDATE builds SET total = total + 8, unique_count = unique_count + 1, orbit8 = orbit8 + 1 WHERE n = 12`)
	out, stderr, status := runChild(t, filepath.Dir(db), "build", "12", "--db", db, "-q")
	want := "nqueens: build n=12: finished with total 14208, unique 1788; OEIS A000170/A002562 say 14200, 1787\n"
	if status != exitMismatch || out != "" || stderr != want {
		t.Errorf("build: status %d, stdout %q, stderr %q; want status %d, nothing printed, %q", status, out, stderr, exitMismatch, want)
	}
	out, _, status = runChild(t, filepath.Dir(db), "verify", "--db", db)
	if status != exitMismatch || !strings.Contains(out, "n=12 MISMATCH: ") {
		t.Errorf("verify: status %d:\n%s", status, out)
	}
}
