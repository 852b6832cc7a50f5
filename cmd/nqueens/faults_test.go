package main

// Fault-injection tests that run nqueens as a child process under real
// faults: a file-size limit (a full disk as the process sees it), kills
// during the creation of a catalog, and symlinked catalog paths.

import (
	"bufio"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/testutil"
)

// limited returns a command running nqueens with args in dir under a
// file-size limit of blocks 512-byte blocks (RLIMIT_FSIZE, as ulimit -f
// sets it) with SIGXFSZ ignored, so that a write past the limit fails with
// EFBIG as a write to a full disk fails with ENOSPC.
func limited(t *testing.T, dir string, blocks int, args ...string) *exec.Cmd {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("needs sh to set the file-size limit")
	}
	cmd := command(t, dir, args...)
	script := `trap '' XFSZ; ulimit -f ` + strconv.Itoa(blocks) + ` && exec "$0" "$@"`
	cmd.Args = append([]string{"sh", "-c", script, cmd.Path}, cmd.Args[1:]...)
	cmd.Path, _ = exec.LookPath("sh")
	return cmd
}

// catalogDigest returns a digest of the classes of n in the catalog at db,
// as export writes them, and fails the test if verify does not pass.
func catalogDigest(t *testing.T, db string, n string) [32]byte {
	t.Helper()
	if out, _, err := runCLI(t, "--db", db, "verify", n); err != nil {
		t.Fatalf("verify %s: %v\n%s", db, err, out)
	}
	return exportDigest(t, db, n)
}

// exportDigest returns a digest of the classes of n in the catalog at db,
// as export writes them.
func exportDigest(t *testing.T, db string, n string) [32]byte {
	t.Helper()
	csv, _, err := runCLI(t, "--db", db, "export", n, "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256([]byte(csv))
}

// TestFullDiskBuildResumes builds under file-size limits that stop the
// build at several points: each run must fail with one line and leave a
// catalog that every command reads, that verify finds consistent
// (incomplete), and that the same build, once the limit is lifted,
// finishes with exactly the classes of a clean build. One catalog also
// goes through the limits of n=14 in turn, each run getting further.
//
// The builds commit more often than a user's do (see commitRowsEnv), so
// that small catalogs reach each point: n=14, 1.4 MB, committing every
// 2,000 classes, stops while the catalog is created (40 blocks of 512
// bytes), in its first transaction (120: a new catalog takes 112), and
// after some commits, with the log holding them (600, 2,400, 3,200). n=15, 9 MB, committing every
// 20,000 classes, passes the 1,000 pages of log at which SQLite
// checkpoints it into the catalog file: under 9,000 blocks the build stops
// after a checkpoint; under 12,000 a checkpoint cannot grow the file, so
// SQLite keeps the committed pages in its log, and the build finishes:
// the catalog must then be whole and right. Each limit's catalog, and the
// one that goes through them all, is a subtest of its own, run in
// parallel. The default run takes n=14 at 2,400 blocks and through all
// its limits in turn (the first, 40 blocks, on no catalog, as alone); the
// limits of n=15, and the other limits of n=14 alone, are for
// NQUEENS_LONG.
func TestFullDiskBuildResumes(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds n=14 and 15 several times")
	}
	// The digests of clean catalogs, made when a subtest first needs one,
	// so that the builds under limits start at once: the references, which
	// the catalogs built under limits must verify and equal.
	type digest struct {
		mu   sync.Mutex
		sum  [32]byte
		made bool
	}
	digests := map[string]*digest{"14": {}, "15": {}}
	clean := func(t *testing.T, n string) [32]byte {
		d := digests[n]
		d.mu.Lock()
		defer d.mu.Unlock()
		if !d.made {
			d.sum, d.made = exportDigest(t, sharedCatalog(t, n), n), true
		}
		return d.sum
	}
	type limit struct {
		n          string
		commitRows int
		blocks     int
		stop       stop
		long       bool // alone, only with NQUEENS_LONG
	}
	limits := []limit{ // the longest first
		{"15", 20000, 9000, stopsAfterCommits, true},
		{"15", 20000, 12000, finishes, true},
		{"14", 2000, 40, stopsCreating, true},
		{"14", 2000, 120, stopsBuilding, true},
		{"14", 2000, 600, stopsAfterCommits, true},
		{"14", 2000, 2400, stopsAfterCommits, false},
		{"14", 2000, 3200, stopsAfterCommits, true},
	}
	for _, l := range limits {
		t.Run(fmt.Sprintf("n=%s limit %d", l.n, l.blocks), func(t *testing.T) {
			if l.long {
				testutil.LongOnly(t)
			}
			t.Parallel()
			dir := t.TempDir()
			db := filepath.Join(dir, "c.db")
			buildUnderLimit(t, dir, db, l.n, l.commitRows, l.blocks, l.stop, func() [32]byte { return clean(t, l.n) })
			if l.stop == finishes {
				return // and its catalog checked
			}
			buildApart(t, db, l.n)
			if got := catalogDigest(t, db, l.n); got != clean(t, l.n) {
				t.Errorf("limit %d: resumed build differs from a clean build", l.blocks)
			}
		})
	}
	// Through the limits of n=14 in turn, each build resuming the one
	// before: each stops where it stops alone, or later, and the last may
	// finish.
	t.Run("n=14 stepwise", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		db := filepath.Join(dir, "c.db")
		var steps []limit
		for _, l := range limits {
			if l.n == "14" {
				steps = append(steps, l)
			}
		}
		prev := leftNoCatalog
		for i, l := range steps {
			want := l.stop
			if i == len(steps)-1 {
				want = mayStop
			}
			units := buildUnderLimit(t, dir, db, l.n, l.commitRows, l.blocks, want, func() [32]byte { return clean(t, l.n) })
			if units < prev {
				t.Errorf("limit %d: %d units committed after the build, %d before it", l.blocks, units, prev)
			}
			prev = units
		}
		buildApart(t, db, "14")
		if got := catalogDigest(t, db, "14"); got != clean(t, "14") {
			t.Errorf("stepwise: resumed build differs from a clean build")
		}
	})
}

// stop is how far a build under a file-size limit gets.
type stop string

const (
	stopsCreating     stop = "stops creating the catalog"        // no catalog, or one without the n
	stopsBuilding     stop = "stops before its first commit"     // the n begun, none of its units committed
	stopsAfterCommits stop = "stops after committing some units" // some of its units committed
	finishes          stop = "finishes"
	mayStop           stop = "stops after committing some units, or finishes"
)

// leftNoCatalog is what buildUnderLimit returns for a build that left no
// catalog.
const leftNoCatalog = -1

// buildUnderLimit runs build n, committing every commitRows classes, on
// the catalog db in dir under a file-size limit of blocks 512-byte blocks,
// and checks that it stops as want says, failing with one line and
// leaving a consistent, incomplete catalog (or none), or that it finishes
// with a catalog whose digest is clean's, that of a clean build. It
// returns the units of n the catalog holds committed: leftNoCatalog if there
// is none, math.MaxInt for a finished build.
func buildUnderLimit(t *testing.T, dir, db, n string, commitRows, blocks int, want stop, clean func() [32]byte) int {
	t.Helper()
	cmd := limited(t, dir, blocks, "build", n, "--db", db, "--workers", "1", "-q")
	cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%d", commitRowsEnv, commitRows))
	out, err := cmd.CombinedOutput()
	if want == finishes && err != nil {
		t.Fatalf("limit %d: build %s failed: %v\n%s", blocks, n, err, out)
	}
	if err == nil && (want == finishes || want == mayStop) {
		t.Logf("limit %d blocks: the build finished, its log holding %d bytes", blocks, size(db+"-wal"))
		if want == finishes && size(db+"-wal") == 0 {
			t.Errorf("limit %d: the build finished with its log empty: every checkpoint grew the catalog, so this limit tests nothing", blocks)
		}
		if got := catalogDigest(t, db, n); got != clean() {
			t.Errorf("limit %d: a build that finished under the limit differs from a clean build", blocks)
		}
		return math.MaxInt
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("limit %d: build %s did not fail: %v\n%s", blocks, n, err, out)
	}
	if lines := strings.Split(strings.TrimSpace(string(out)), "\n"); len(lines) != 1 || !strings.HasPrefix(lines[0], "nqueens: ") || strings.HasSuffix(lines[0], ":") {
		t.Errorf("limit %d: want one line of error, got:\n%s", blocks, out)
	}
	if _, err := os.Stat(db); err != nil {
		t.Logf("limit %d blocks: no catalog: %s", blocks, strings.TrimSpace(string(out)))
		if want != stopsCreating {
			t.Errorf("limit %d: the build left no catalog, want one that %s", blocks, want)
		}
		return leftNoCatalog // the limit stopped the catalog's creation: nothing there
	}
	// Whatever the run left is a consistent, incomplete catalog.
	stats, _, err := runCLI(t, "--db", db, "stats", "--json")
	if err != nil {
		t.Fatalf("limit %d: stats after the failure: %v", blocks, err)
	}
	var builds []struct {
		N         int  `json:"n"`
		Complete  bool `json:"complete"`
		UnitsDone int  `json:"units_done"`
	}
	if err := json.Unmarshal([]byte(stats), &builds); err != nil {
		t.Fatalf("limit %d: stats --json: %v\n%s", blocks, err, stats)
	}
	got, units := stopsCreating, 0
	for _, b := range builds {
		switch {
		case strconv.Itoa(b.N) != n:
			continue
		case b.Complete:
			t.Fatalf("limit %d: n=%s complete after a failed build:\n%s", blocks, n, stats)
		case b.UnitsDone > 0:
			got = stopsAfterCommits
		default:
			got = stopsBuilding
		}
		units = b.UnitsDone
	}
	t.Logf("limit %d blocks: %s, %d units committed: %s", blocks, got, units, strings.TrimSpace(string(out)))
	if got != want && (want != mayStop || got != stopsAfterCommits) {
		t.Errorf("limit %d: the build %s, want one that %s:\n%s", blocks, got, want, stats)
	}
	if v, _, err := runCLI(t, "--db", db, "verify", n); err == nil || strings.Contains(v, "add up to") {
		t.Errorf("limit %d: verify after the failure: %v\n%s", blocks, err, v)
	}
	return units
}

// nobody is the unprivileged user the second-user tests run as.
const nobody = 65534

// sharedDir makes a directory that every user can enter and read, holding
// a copy of this test binary that every user can run, and returns both.
// It skips the test unless it runs as root, which alone can act as
// another user.
func sharedDir(t *testing.T) (dir, exe string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to run commands as another user")
	}
	dir, err := os.MkdirTemp("", "nqueens-users-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	exe = filepath.Join(dir, "nqueens")
	testutil.WriteExecutable(t, exe, data)
	return dir, exe
}

// runAs runs nqueens (exe) with args in dir as the user uid and returns its
// combined output and error.
func runAs(t *testing.T, uid int, exe, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = []string{"NQUEENS_TEST_AS_MAIN=1", "HOME=" + dir, "PATH=/usr/bin:/bin", childGORACE()}
	if uid != os.Geteuid() {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// readAll runs every reading command on the catalog at db as uid and fails
// the test if one fails.
func readAll(t *testing.T, uid int, exe, dir, db string) {
	t.Helper()
	for _, args := range [][]string{
		{"stats"}, {"stats", "--json"}, {"show", "8", "--class", "3"},
		{"export", "8", "--format", "csv"}, {"export", "8", "--all", "--format", "ndjson"}, {"verify"},
	} {
		out, err := runAs(t, uid, exe, dir, append(args, "--db", db)...)
		if err != nil {
			t.Errorf("uid %d: %s: %v\n%s", uid, strings.Join(args, " "), err, out)
		}
	}
}

// TestAnotherUsersCatalog reads a catalog owned by root as an unprivileged
// user, in a directory that user cannot write and in a sticky shared one:
// every reading command works and leaves no file behind, a build says in
// one line that it cannot write and why, and the owner builds on after.
func TestAnotherUsersCatalog(t *testing.T) {
	t.Parallel()
	dir, exe := sharedDir(t)
	for _, tc := range []struct {
		name string
		mode os.FileMode
	}{{"private", 0o755}, {"sticky", 0o777 | os.ModeSticky}} {
		sub := filepath.Join(dir, tc.name)
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(sub, tc.mode); err != nil {
			t.Fatal(err)
		}
		db := filepath.Join(sub, "c.db")
		if out, err := runAs(t, 0, exe, dir, "build", "6-8", "-q", "--db", db); err != nil {
			t.Fatalf("%s: owner's build: %v\n%s", tc.name, err, out)
		}
		before := testutil.ReadDir(t, sub)
		data, _ := os.ReadFile(db)
		readAll(t, nobody, exe, dir, db)
		if after := testutil.ReadDir(t, sub); !slices.Equal(after, before) {
			t.Errorf("%s: another user's reads changed the directory from %v to %v", tc.name, before, after)
		}
		if got, _ := os.ReadFile(db); string(got) != string(data) {
			t.Errorf("%s: another user's reads changed the catalog", tc.name)
		}
		out, err := runAs(t, nobody, exe, dir, "build", "9", "--db", db)
		if err == nil || strings.Count(strings.TrimSpace(out), "\n") > 0 ||
			!strings.Contains(out, "cannot write "+db+": permission denied") {
			t.Errorf("%s: another user's build: %v\n%s", tc.name, err, out)
		}
		if out, err := runAs(t, 0, exe, dir, "build", "9", "-q", "--db", db); err != nil {
			t.Errorf("%s: the owner's build after another user's reads: %v\n%s", tc.name, err, out)
		}
	}
}

// TestReadOnlyMount reads a catalog on a file system mounted read-only:
// every reading command works, and a build names the cause.
func TestReadOnlyMount(t *testing.T) {
	t.Parallel()
	dir, exe := sharedDir(t)
	mnt := filepath.Join(dir, "mnt")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a file system here: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", mnt).Run() })
	db := filepath.Join(mnt, "c.db")
	if out, err := runAs(t, 0, exe, dir, "build", "6-8", "-q", "--db", db); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	if out, err := exec.Command("mount", "-o", "remount,ro", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot remount read-only here: %v %s", err, out)
	}
	readAll(t, 0, exe, dir, db)
	readAll(t, nobody, exe, dir, db)
	out, err := runAs(t, 0, exe, dir, "build", "9", "--db", db)
	if err == nil || !strings.Contains(out, "cannot write "+db+": read-only file system") {
		t.Errorf("build on a read-only mount: %v\n%s", err, out)
	}
}

// TestKillDuringCreation kills build 1 on a new catalog at every tenth
// millisecond of its first 75 (every millisecond with NQUEENS_LONG):
// whenever it dies, the path holds nothing or a catalog that every
// command reads, and the next build succeeds. (The store's tests kill the
// creation at each of its steps; this loop covers the command around it.)
func TestKillDuringCreation(t *testing.T) {
	t.Parallel()
	dir, db := slowCatalog(t, "starts 150 processes")
	nothing, whole := 0, 0
	step := 10
	if testutil.Long() {
		step = 1
	}
	for i := 0; i < 75; i += step {
		os.Remove(db)
		cmd := command(t, dir, "build", "1", "-q", "--db", db)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The moment of the kill is the fault injected, not something the
		// test waits for: every moment must leave a catalog that opens.
		time.Sleep(time.Duration(i%75) * time.Millisecond)
		cmd.Process.Kill()
		cmd.Wait()
		_, _, err := runCLI(t, "--db", db, "stats")
		switch {
		case err != nil && strings.Contains(err.Error(), "no catalog"):
			nothing++
		case err != nil:
			t.Fatalf("kill %d: stats after the kill: %v", i, err)
		default:
			whole++
		}
		// In a child, as the killed build: see buildApart.
		if out, err := command(t, dir, "build", "1", "-q", "--db", db).CombinedOutput(); err != nil {
			t.Fatalf("kill %d: build after the kill: %v\n%s", i, err, out)
		}
		if left, _ := filepath.Glob(filepath.Join(dir, ".c.db.new-*")); len(left) > 0 {
			t.Errorf("kill %d: the next build left %v", i, left)
		}
	}
	t.Logf("%d kills: %d left no catalog, %d a catalog that opened", nothing+whole, nothing, whole)
}

// TestConcurrentFirstBuilds starts eight builds of one new catalog at once,
// 4 times (10 with NQUEENS_LONG): each one builds, or is told at once
// that another build holds the catalog; none fails otherwise, and the
// catalog verifies.
func TestConcurrentFirstBuilds(t *testing.T) {
	t.Parallel()
	dir, _ := slowCatalog(t, "starts 32 processes")
	rounds := 4
	if testutil.Long() {
		rounds = 10
	}
	var built, busy int
	for round := range rounds {
		db := filepath.Join(dir, "c"+strconv.Itoa(round)+".db")
		var cmds []*exec.Cmd
		outs := make([]*strings.Builder, 8)
		for i := range outs {
			cmd := command(t, dir, "build", "4-6", "-q", "--db", db)
			outs[i] = new(strings.Builder)
			cmd.Stdout, cmd.Stderr = outs[i], outs[i]
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			cmds = append(cmds, cmd)
		}
		for i, cmd := range cmds {
			err := cmd.Wait()
			switch {
			case err == nil:
				built++
			case strings.Contains(outs[i].String(), "catalog is busy: another build is writing to this catalog"):
				busy++
			default:
				t.Errorf("round %d, build %d: %v\n%s", round, i, err, outs[i])
			}
		}
		if out, _, err := runCLI(t, "--db", db, "verify"); err != nil {
			t.Errorf("round %d: verify: %v\n%s", round, err, out)
		}
	}
	t.Logf("%d concurrent first builds: %d built, %d told the catalog was busy", 8*rounds, built, busy)
}

// TestSymlinkBuildLock builds through a catalog's name while a second build
// goes through a symbolic link to it: the second is refused at once, as
// the same file holds the one lock.
func TestSymlinkBuildLock(t *testing.T) {
	t.Parallel()
	dir, real := slowCatalog(t, "builds n=16")
	link := filepath.Join(dir, "link.db")
	if err := os.Symlink("c.db", link); err != nil {
		t.Fatal(err)
	}
	b := startPausedBuild(t, real, 16, 0)
	defer b.stop()
	out, err := command(t, dir, "build", "16", "--db", link).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "catalog is busy: another build is writing to this catalog") {
		t.Errorf("second build through the link: %v\n%s", err, out)
	}
	if out, _, err := runCLI(t, "--db", link, "stats"); err != nil {
		t.Errorf("stats through the link during the build: %v\n%s", err, out)
	}
}

// TestReadWhileBuildStarts starts an export, holds it part way (its pipe
// full), starts a build of another n in the same catalog and lets it
// commit and grow its log past the size that starts a checkpoint, then
// reads the rest as the build goes on to its end: the export is exactly
// the one made before, as the reader shares the build's log. NQUEENS_LONG
// runs it; the default run has readers go on through a build's commits
// and checkpoints in TestReadersDuringBuild.
func TestReadWhileBuildStarts(t *testing.T) {
	testutil.LongOnly(t)
	t.Parallel()
	dir, db := slowCatalog(t, "builds n=14 and 15")
	buildApart(t, db, "14")
	want := mustRun(t, "--db", db, "export", "14", "--format", "csv")
	export, stdout := startPiped(t, dir, nil, "export", "14", "--format", "csv", "--db", db, "-q")
	r := bufio.NewReaderSize(stdout, 1<<10)
	first, err := r.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	// The export waits on its full pipe, in the middle of its read. The
	// build of n=15 commits every 20,000 classes; its first 3,000 of 5,023
	// units hold more than 150,000, so it has committed several times and
	// its log has passed 1,000 pages, where SQLite checkpoints after a
	// commit, when it pauses.
	build := startPausedBuild(t, db, 15, 3000, commitRowsEnv+"=20000")
	defer build.stop()
	done, _ := unitsDone(t, db, 15)
	st, err := os.Stat(db + "-wal")
	if err != nil || st.Size() < 1000*4096 || done < 2000 {
		t.Fatalf("the build paused at unit 3,000 has committed %d units and a log of %d bytes (%v); want several commits and past 1,000 pages of 4 KiB", done, sizeOf(st), err)
	}
	t.Logf("paused at unit 3,000: %d units committed, a log of %d bytes", done, st.Size())
	// The build goes on, committing and checkpointing, as the export reads
	// the rest.
	build.resume()
	rest, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := export.Wait(); err != nil {
		t.Fatalf("export beside the build: %v", err)
	}
	if got := first + string(rest); got != want {
		t.Errorf("export beside a build that started during it: %d bytes, want the %d of before", len(got), len(want))
	}
	if err := build.wait(); err != nil {
		t.Errorf("the build beside the export: %v\n%s", err, build.stderr)
	}
}
