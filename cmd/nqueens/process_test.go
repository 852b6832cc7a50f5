package main

// Tests that run nqueens as a separate process, to kill it, interrupt it,
// close its pipes and run readers beside it.

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/internal/testutil"
)

// command returns a command running nqueens (this test binary, see
// TestMain) with args in dir.
func command(t *testing.T, dir string, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "NQUEENS_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "NQUEENS_TEST_AS_MAIN=1", childGORACE())
	return cmd
}

// childGORACE is the GORACE setting of every nqueens a test starts: the
// caller's, or no sleep at exit. Built with -race, a process sleeps for a
// second as it exits (atexit_sleep_ms) so that its other threads can
// report a race; the tests wait for their children to exit, so that
// second is most of the race run, one a child.
func childGORACE() string {
	if v, ok := os.LookupEnv("GORACE"); ok {
		return "GORACE=" + v
	}
	return "GORACE=atexit_sleep_ms=0"
}

// buildApart runs nqueens build with args (an n list, then any flags)
// on the catalog at db in a child process, quietly, and fails t if the
// build fails. Tests that run in parallel build this way, as a user's
// build runs: a build in its own process holds its own build lock, which
// it releases explicitly (see dbfile.TestReleaseWhileAChildHoldsTheFile).
func buildApart(t *testing.T, db string, args ...string) {
	t.Helper()
	args = append(append([]string{"build"}, args...), "-q", "--db", db)
	if out, err := command(t, filepath.Dir(db), args...).CombinedOutput(); err != nil {
		t.Fatalf("nqueens %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// shared holds the catalogs that several tests read or copy and none
// writes, each built once per run of the test binary (see sharedCatalog),
// in a directory removed when the tests end (see TestMain).
var shared struct {
	mu     sync.Mutex
	dir    string
	builds map[string]*sharedBuild
}

// sharedBuild is one shared catalog: db is its path once built.
type sharedBuild struct {
	mu sync.Mutex
	db string
}

// sharedCatalog returns the path of a catalog of ns (an n list) built
// with flags as buildApart builds it, but once for all the tests that ask
// for the same: the test must only read it (builtCatalog gives a copy to
// write). A test that asks while another builds it waits; one that asks
// after a build failed tries again.
func sharedCatalog(t *testing.T, ns string, flags ...string) string {
	t.Helper()
	key := strings.Join(append([]string{ns}, flags...), " ")
	shared.mu.Lock()
	if shared.dir == "" {
		dir, err := os.MkdirTemp("", "nqueens-shared-")
		if err != nil {
			shared.mu.Unlock()
			t.Fatal(err)
		}
		shared.dir, shared.builds = dir, map[string]*sharedBuild{}
	}
	b := shared.builds[key]
	if b == nil {
		b = &sharedBuild{}
		shared.builds[key] = b
	}
	dir := shared.dir
	shared.mu.Unlock()

	b.mu.Lock()
	defer b.mu.Unlock()
	if b.db == "" {
		sub, err := os.MkdirTemp(dir, "")
		if err != nil {
			t.Fatal(err)
		}
		db := filepath.Join(sub, "c.db")
		buildApart(t, db, append([]string{ns}, flags...)...)
		b.db = db
	}
	return b.db
}

// removeShared removes the shared catalogs, once the tests have ended.
func removeShared() {
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
}

// builtCatalog returns the path of a new catalog c.db, in a new
// directory, of ns (an n list such as "4-10") built with flags (see
// buildApart): a copy of the shared one (see sharedCatalog) and of the
// lock file its build left beside it, which the test may change.
func builtCatalog(t *testing.T, ns string, flags ...string) string {
	t.Helper()
	src := sharedCatalog(t, ns, flags...)
	db := filepath.Join(t.TempDir(), "c.db")
	for _, suffix := range []string{"", ".lock"} {
		data := testutil.ReadFile(t, src+suffix)
		if err := os.WriteFile(db+suffix, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// startPiped starts nqueens with args in dir (see command), its stderr
// going to stderr (nil: discarded), and returns it with a pipe of its
// stdout.
func startPiped(t *testing.T, dir string, stderr io.Writer, args ...string) (*exec.Cmd, io.ReadCloser) {
	t.Helper()
	cmd := command(t, dir, args...)
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, stdout
}

// startReady starts cmd (from command, its stdin and environment set as
// the test needs) with NQUEENS_TEST_READY=1, and waits for the line that
// says its signal handlers are installed. It returns the child's stderr
// after that line, and a guard that kills the child if it is still
// running 30 seconds later: a failure deadline only, stopped by the
// caller, which reports whether the guard fired.
func startReady(t *testing.T, cmd *exec.Cmd) (*bufio.Reader, func() (fired bool)) {
	t.Helper()
	cmd.Env = append(cmd.Env, "NQUEENS_TEST_READY=1")
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	guard := time.AfterFunc(30*time.Second, func() { cmd.Process.Kill() })
	stderr := bufio.NewReader(pipe)
	if line, err := stderr.ReadString('\n'); line != readyLine+"\n" {
		cmd.Process.Kill()
		rest, _ := io.ReadAll(stderr)
		cmd.Wait()
		t.Fatalf("nqueens %s: no readiness line: %q %v %s", strings.Join(cmd.Args[1:], " "), line, err, rest)
	}
	return stderr, func() bool { return !guard.Stop() }
}

// signalAndWait sends sig to cmd (started by startReady), reads the rest
// of its stderr and waits for it; it fails the test if the guard of
// startReady had to kill it.
func signalAndWait(t *testing.T, cmd *exec.Cmd, stderr *bufio.Reader, guardFired func() bool, sig os.Signal) ([]byte, error) {
	t.Helper()
	cmd.Process.Signal(sig)
	rest, _ := io.ReadAll(stderr)
	err := cmd.Wait()
	if guardFired() {
		t.Fatalf("nqueens did not end within 30s of %v", sig)
	}
	return rest, err
}

// unitsDone reads the progress of the build of n in the catalog at path,
// read-only, as the sqlite3 shell would: -1 if there is none yet.
func unitsDone(t *testing.T, path string, n int) (done int, complete bool) {
	t.Helper()
	u := url.URL{Scheme: "file", Path: path, RawQuery: "mode=ro&_pragma=busy_timeout(5000)"}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.QueryRow(`SELECT units_done, complete FROM builds WHERE n = ?`, n).Scan(&done, &complete)
	if err != nil {
		return -1, false
	}
	return done, complete
}

// pauseEnv names the work unit at which a child build (started by
// startPausedBuild) pauses: once the unit is handed to the catalog, the
// child writes pausedLine and that index on stderr and blocks until its
// stdin closes or SIGINT or SIGTERM has cancelled the build. A kill or a
// signal sent then lands in the middle of the build, however fast the
// machine.
const pauseEnv = "NQUEENS_TEST_PAUSE_AT_UNIT"

const pausedLine = "test: paused at work unit"

// commitRowsEnv sets, in a child build, the most classes it commits at
// once (testCommitRows).
const commitRowsEnv = "NQUEENS_TEST_COMMIT_ROWS"

func init() {
	if hook := pauseHook(pauseEnv, pausedLine); hook != nil {
		testHookUnitAdded = hook
	}
	testCommitRows, _ = strconv.Atoi(os.Getenv(commitRowsEnv))
}

// pauseHook returns, for a child whose environment variable env holds a
// number k, a hook that, called with k and the command's context, writes
// line and k on stderr and blocks until stdin closes or the context is
// cancelled (by SIGINT or SIGTERM, see mainExit); nil without env. It
// waits for the cancellation, not for the signal, so that the command
// goes on only once it can see that it must stop.
func pauseHook(env, line string) func(context.Context, int) {
	k, err := strconv.Atoi(os.Getenv(env))
	if err != nil {
		return nil
	}
	return func(ctx context.Context, at int) {
		if at != k {
			return
		}
		fmt.Fprintln(os.Stderr, line, at)
		released := make(chan struct{})
		go func() {
			io.Copy(io.Discard, os.Stdin)
			close(released)
		}()
		select {
		case <-released:
		case <-ctx.Done():
		}
	}
}

// pausedBuild is a child build that pauses at a work unit (see pauseEnv).
type pausedBuild struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *watchWriter
	exited chan struct{} // closed when the child has ended
	err    error         // the child's end, once exited is closed
}

// startPausedBuild starts nqueens build n on the catalog at db, on one
// worker, and returns once the build has handed work unit unit (an index
// into all the units of n) to the catalog and paused there, with env
// (KEY=VALUE) added to its environment. It fails t if the build ends
// first.
func startPausedBuild(t *testing.T, db string, n, unit int, env ...string) *pausedBuild {
	t.Helper()
	cmd := command(t, filepath.Dir(db), "build", strconv.Itoa(n), "--db", db, "--workers", "1")
	cmd.Env = append(cmd.Env, env...)
	return startPaused(t, cmd, pauseEnv, pausedLine, unit)
}

// startPaused starts cmd, a child nqueens whose pause hook (pauseHook)
// reads the variable env, set to at, and returns once the child has
// written line and at on stderr and paused. It fails t if the child ends
// first.
func startPaused(t *testing.T, cmd *exec.Cmd, env, line string, at int) *pausedBuild {
	t.Helper()
	cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%d", env, at))
	b := &pausedBuild{cmd: cmd, stderr: &watchWriter{want: fmt.Sprintln(line, at), seen: make(chan struct{})}, exited: make(chan struct{})}
	cmd.Stderr = b.stderr
	var err error
	if b.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		b.err = cmd.Wait()
		close(b.exited)
	}()
	select {
	case <-b.stderr.seen:
	case <-b.exited:
		t.Fatalf("nqueens %s ended before pausing at %d: %v\n%s", strings.Join(cmd.Args[1:], " "), at, b.err, b.stderr)
	}
	return b
}

// resume lets the paused build go on.
func (b *pausedBuild) resume() { b.stdin.Close() }

// wait waits for the build to end and returns its error.
func (b *pausedBuild) wait() error {
	<-b.exited
	return b.err
}

// stop kills the build if it still runs and waits for it.
func (b *pausedBuild) stop() {
	b.cmd.Process.Kill()
	b.wait()
}

// watchWriter keeps what is written to it and closes seen once it holds
// want.
type watchWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen chan struct{}
	once sync.Once
}

func (w *watchWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

func (w *watchWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestStoppedBuildResumes stops nqueens build 14 five times, each time
// while the build is paused in the middle of its work (so in an open
// transaction): three times with SIGKILL, then with SIGINT and with
// SIGTERM. After each kill the catalog opens and reports n=14 incomplete
// with no more units than were handed to it; each signal stops the build
// with status 1, commits every unit handed to the catalog and says how to
// resume. Each run resumes from the units the one before committed, and
// the last completes the build, whose catalog verifies. The builds commit
// every 1,000 classes (see commitRowsEnv), some 70 of n=14's 3,242 units,
// as a build of n=16 or more commits every 200,000: a unit is a small part
// of a transaction, so a kill loses work that a resume then redoes.
func TestStoppedBuildResumes(t *testing.T) {
	t.Parallel()
	_, db := slowCatalog(t, "builds n=14 six times")
	const n = 14
	total := len(canonical.Units(n))
	stops := []os.Signal{os.Kill, os.Kill, os.Kill, os.Interrupt, syscall.SIGTERM}
	prev := 0
	for i, sig := range stops {
		at := (i + 1) * total / (len(stops) + 1)
		b := startPausedBuild(t, db, n, at, commitRowsEnv+"=1000")
		if resume := fmt.Sprintf("n=14: resuming at work unit %s of %s", phrase.Count(prev), phrase.Count(total)); prev > 0 && !strings.Contains(b.stderr.String(), resume) {
			t.Errorf("%v at unit %d: the run did not say %q:\n%s", sig, at, resume, b.stderr)
		}
		if sig == os.Kill {
			b.stop()
		} else {
			sent := time.Now()
			b.cmd.Process.Signal(sig)
			err := b.wait()
			t.Logf("%v at unit %d: stopped in %v", sig, at, time.Since(sent).Round(time.Millisecond))
			if code := exitStatus(err); code != exitError {
				t.Errorf("%v: exit %v, want status %d", sig, err, exitError)
			}
			if !strings.Contains(b.stderr.String(), "run the same build again to resume") {
				t.Errorf("%v: stderr does not say how to resume:\n%s", sig, b.stderr)
			}
		}
		done, complete := unitsDone(t, db, n)
		switch {
		case complete || done < prev:
			t.Fatalf("%v at unit %d: %d units committed, complete %v; want at least %d, incomplete", sig, at, done, complete, prev)
		case sig == os.Kill && done > at+1:
			t.Fatalf("kill at unit %d: %d units committed; want at most %d", at, done, at+1)
		case sig != os.Kill && done <= at:
			t.Fatalf("%v at unit %d: %d units committed; want every unit handed to the catalog, more than %d", sig, at, done, at)
		}
		t.Logf("%v at unit %d: %d of %d units (%.0f%%) committed; this run resumed at unit %d, skipping %.0f%% of the work", sig, at, done, total, 100*float64(done)/float64(total), prev, 100*float64(prev)/float64(total))
		if stats := mustRun(t, "--db", db, "stats", "--json"); !strings.Contains(stats, `"complete": false`) {
			t.Fatalf("stats after %v:\n%s", sig, stats)
		}
		prev = done
	}
	last := command(t, filepath.Dir(db), "build", "14", "--db", db)
	last.Env = append(last.Env, commitRowsEnv+"=1000")
	var stderr bytes.Buffer
	last.Stderr = &stderr
	out, err := last.Output()
	if err != nil {
		t.Fatalf("last run: %v\n%s", err, stderr.Bytes())
	}
	if resume := fmt.Sprintf("n=14: resuming at work unit %s of %s", phrase.Count(prev), phrase.Count(total)); !strings.Contains(stderr.String(), resume) {
		t.Errorf("last run did not say %q:\n%s", resume, stderr.Bytes())
	}
	if !regexp.MustCompile(`(?m)^ +14 +365596 +45752 .* yes `).Match(out) {
		t.Errorf("build table:\n%s", out)
	}
	if v := mustRun(t, "--db", db, "verify", "14"); !strings.Contains(v, "n=14 ok: 365,596 solutions in 45,752 classes") {
		t.Fatalf("verify after the stops:\n%s", v)
	}
}

// exitStatus returns the exit status of a child process from the error
// of its Wait: 0 for none, -1 for an error that is not an exit (a child
// killed by a signal, or not started).
func exitStatus(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	return -1
}

// TestReadersDuringBuild runs stats, export, show and verify of a complete
// n in a loop while another process builds n=15 into the same catalog, and
// a second build, which must fail at once. The build of n=15 commits
// part way (at 200,000 rows) and checkpoints the log (past 1,000 pages)
// before its last commit, so the readers go on through an open
// transaction, commits and checkpoints. NQUEENS_LONG runs it: the default
// run reads beside a build through its commits and checkpoints in serve
// (TestServeStalledExportLetsBuildCheckpoint, TestServeBesideBuild) and in
// store (TestIndexReadDuringBuild).
func TestReadersDuringBuild(t *testing.T) {
	testutil.LongOnly(t)
	t.Parallel()
	dir, db := slowCatalog(t, "builds n=15")
	buildApart(t, db, "10")
	wantCSV := mustRun(t, "--db", db, "export", "10", "--format", "csv")
	b := startPausedBuild(t, db, 15, 0)
	defer b.stop()

	start := time.Now()
	second := command(t, dir, "build", "15", "--db", db)
	out, err := second.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "catalog is busy: another build is writing to this catalog") {
		t.Errorf("second build: %v\n%s", err, out)
	}
	t.Logf("second build gave up in %v", time.Since(start).Round(time.Millisecond))

	// Three rounds while the build holds its transaction open at its
	// first unit, then rounds until it ends.
	rounds := 0
	for running := true; running; rounds++ {
		if rounds == 3 {
			b.resume()
		}
		if rounds > 3 {
			select {
			case <-b.exited:
				if b.err != nil {
					t.Fatalf("build: %v\n%s", b.err, b.stderr)
				}
				running = false
			default:
			}
		}
		js, _, err := runCLI(t, "--db", db, "stats", "--json")
		if err != nil {
			t.Fatalf("stats during the build: %v", err)
		}
		var builds []struct {
			N        int    `json:"n"`
			Unique   uint64 `json:"unique"`
			Complete bool   `json:"complete"`
		}
		if err := json.Unmarshal([]byte(js), &builds); err != nil || len(builds) != 2 || builds[0].Unique != 92 || !builds[0].Complete {
			t.Fatalf("stats during the build: %v\n%s", err, js)
		}
		// n=15 is complete with all its classes, or incomplete with at most
		// all: its last 567 of 5,023 units hold no class, so a commit among
		// them holds every class before the build is complete.
		if b := builds[1]; b.N != 15 || b.Unique > 285053 || b.Complete && b.Unique != 285053 {
			t.Errorf("stats during the build: n=%d complete %v with %d classes", b.N, b.Complete, b.Unique)
		}
		got, _, err := runCLI(t, "--db", db, "export", "10", "--format", "csv")
		if err != nil || got != wantCSV {
			t.Fatalf("export during the build: %v (%d bytes, want %d)", err, len(got), len(wantCSV))
		}
		if _, _, err := runCLI(t, "--db", db, "show", "10", "--class", "92"); err != nil {
			t.Fatalf("show during the build: %v", err)
		}
		if _, _, err := runCLI(t, "--db", db, "verify", "10"); err != nil {
			t.Fatalf("verify during the build: %v", err)
		}
	}
	t.Logf("%d rounds of stats, export, show and verify during the build", rounds)
	if _, _, err := runCLI(t, "--db", db, "verify"); err != nil {
		t.Fatal(err)
	}
}

// TestExportToClosedPipe reads a few lines of nqueens export and closes
// the pipe, as head does: nqueens ends quietly.
func TestExportToClosedPipe(t *testing.T) {
	t.Parallel()
	db := builtCatalog(t, "13")
	var stderr bytes.Buffer
	cmd, stdout := startPiped(t, filepath.Dir(db), &stderr, "export", "13", "--all", "--format", "csv", "--db", db)
	r := bufio.NewReader(stdout)
	for range 10 {
		if _, err := r.ReadString('\n'); err != nil {
			t.Fatal(err)
		}
	}
	stdout.Close()
	err := cmd.Wait()
	if stderr.Len() > 0 {
		t.Errorf("export to a closed pipe wrote to stderr:\n%s", stderr.String())
	}
	// Killed by SIGPIPE, as a shell pipeline expects (status 141 there), or
	// a clean exit: never an error message.
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ProcessState.Sys().(syscall.WaitStatus).Signal() == syscall.SIGPIPE) {
		t.Errorf("export to a closed pipe: %v", err)
	}
}

// TestKilledExportLeavesNoPartialFile kills an export to a file part way
// and interrupts another: the target keeps its old content, and the
// interrupted one leaves no temporary file either.
func TestKilledExportLeavesNoPartialFile(t *testing.T) {
	t.Parallel()
	dir, _ := slowCatalog(t, "exports n=14")
	db := sharedCatalog(t, "14")
	target := filepath.Join(dir, "out.csv")
	old := []byte("the previous export\n")
	os.WriteFile(target, old, 0o644)
	for _, sig := range []os.Signal{os.Kill, os.Interrupt} {
		cmd := command(t, dir, "export", "14", "--all", "--format", "csv", "-o", target, "--db", db)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Wait until the temporary file has grown, then stop the export.
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(2 * time.Millisecond) {
			if tmp := temps(t, dir); len(tmp) > 0 && size(tmp[0]) > 1<<20 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("no temporary file grew")
			}
		}
		cmd.Process.Signal(sig)
		cmd.Wait()
		if got, _ := os.ReadFile(target); !bytes.Equal(got, old) {
			t.Errorf("%v: target holds %d bytes, not its old content", sig, len(got))
		}
		tmp := temps(t, dir)
		switch {
		case sig == os.Interrupt && len(tmp) > 0:
			t.Errorf("interrupted export left %v", tmp)
		case sig == os.Kill:
			// SIGKILL gives no chance to clean up: the half file stays under
			// its hidden temporary name, never at the target.
			for _, f := range tmp {
				os.Remove(f)
			}
		}
	}
}

func temps(t *testing.T, dir string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, ".out.csv.tmp-*"))
	return m
}

func size(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

// slowCatalog skips t in -short mode, saying why, and returns a new
// directory and the path of a catalog in it, not yet made.
func slowCatalog(t *testing.T, why string) (dir, db string) {
	t.Helper()
	if testing.Short() {
		t.Skip(why)
	}
	dir = t.TempDir()
	return dir, filepath.Join(dir, "c.db")
}

// TestInterruptedExportToStdoutStaysCut interrupts exports to stdout once
// their first bytes have come (in class order and in lexicographic order,
// whose iterator ends quietly on cancellation): what was written must not
// end as a whole JSON array would, so that a reader sees it is cut.
func TestInterruptedExportToStdoutStaysCut(t *testing.T) {
	t.Parallel()
	dir, _ := slowCatalog(t, "exports n=14")
	db := sharedCatalog(t, "14")
	for _, order := range []string{"class", "lex"} {
		cmd := command(t, dir, "export", "14", "--all", "--order", order, "--format", "json", "--db", db)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		stderr, guardFired := startReady(t, cmd)
		first := make([]byte, 1)
		if _, err := io.ReadFull(stdout, first); err != nil {
			t.Fatalf("--order %s: no output: %v", order, err)
		}
		rest := make(chan []byte)
		go func() { b, _ := io.ReadAll(stdout); rest <- b }()
		msg, err := signalAndWait(t, cmd, stderr, guardFired, os.Interrupt)
		if err == nil || !strings.Contains(string(msg), "export interrupted") {
			t.Errorf("--order %s: exit %v, stderr %q; want export interrupted", order, err, msg)
		}
		if out := append(first, <-rest...); bytes.HasSuffix(bytes.TrimSpace(out), []byte("]")) {
			t.Errorf("--order %s: the interrupted export ends as a whole array (%d bytes)", order, len(out))
		}
	}
}
