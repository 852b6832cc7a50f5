package main

// Tests in which another user, nobody, attacks a catalog of root's in a
// directory both may write: a log planted beside it, a lock held.

import (
	"bufio"
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/nqueens/nqueens/internal/testutil"
)

// stickyDir makes a sticky directory that every user may write, as /tmp
// is, in dir.
func stickyDir(t *testing.T, dir string) string {
	t.Helper()
	sub := filepath.Join(dir, "sticky")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(sub, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	return sub
}

// asNobody returns a command running name with args in dir as nobody.
func asNobody(dir, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + dir, "PATH=/usr/bin:/bin"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	return cmd
}

// builtNs returns the n of the builds that nqueens stats --json lists for
// the catalog at db, run as root.
func builtNs(t *testing.T, exe, dir, db string) []int {
	t.Helper()
	out, err := runAs(t, 0, exe, dir, "stats", "--json", "--db", db)
	if err != nil {
		t.Fatalf("stats: %v\n%s", err, out)
	}
	var builds []struct{ N int }
	if err := json.Unmarshal([]byte(out), &builds); err != nil {
		t.Fatalf("stats --json: %v\n%s", err, out)
	}
	var ns []int
	for _, b := range builds {
		ns = append(ns, b.N)
	}
	return ns
}

// plantedLog returns the bytes of a write-ahead log that deletes the
// builds and classes of n >= 9 from the catalog at db, made on a copy of it in a new
// directory with automatic checkpoints off, as another user who may read
// the catalog can make one.
func plantedLog(t *testing.T, db string) []byte {
	t.Helper()
	cp := filepath.Join(t.TempDir(), "copy.db")
	if err := os.WriteFile(cp, testutil.ReadFile(t, db), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := sql.Open("sqlite", "file:"+cp+"?_pragma=journal_mode(WAL)&_pragma=wal_autocheckpoint(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.SetMaxOpenConns(1)
	for _, table := range []string{"builds", "classes"} {
		if _, err := w.Exec("DELETE FROM " + table + " WHERE n >= 9"); err != nil {
			t.Fatal(err)
		}
	}
	// The log holds the committed delete while the connection is open; its
	// close would checkpoint it into the copy and remove it.
	log := testutil.ReadFile(t, cp+"-wal")
	if len(log) == 0 {
		t.Fatal("the copy's log is empty")
	}
	return log
}

// TestPlantedLog plants a write-ahead log that deletes n = 9 and 10 beside
// root's catalog in a sticky directory, as nobody, and runs every command
// on the catalog as root: each reader must read the catalog without it
// (n 1 to 10), build must refuse it in one line naming the file and its
// owner, and the catalog's bytes and the planted file stay as they were.
// The same log beside a copy of the catalog that root owns is
// applied (n = 9 and 10 are gone): it is a log SQLite would apply. A
// -shm, a -journal, and a symbolic link planted by nobody are met the
// same way.
func TestPlantedLog(t *testing.T) {
	t.Parallel()
	dir, exe := sharedDir(t)
	sub := stickyDir(t, dir)
	db := filepath.Join(sub, "c.db")
	if out, err := runAs(t, 0, exe, dir, "build", "1-10", "-q", "--db", db); err != nil {
		t.Fatalf("owner's build: %v\n%s", err, out)
	}
	log := plantedLog(t, db)
	src := filepath.Join(dir, "planted")
	if err := os.WriteFile(src, log, 0o644); err != nil {
		t.Fatal(err)
	}

	// The control: root's own copy of the log beside a copy of the catalog.
	control := filepath.Join(t.TempDir(), "c.db")
	if err := os.WriteFile(control, testutil.ReadFile(t, db), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(control+"-wal", log, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := builtNs(t, exe, dir, control); fmt.Sprint(got) != "[1 2 3 4 5 6 7 8]" {
		t.Fatalf("the log beside root's copy leaves n %v, want 1 to 8: it is no log SQLite applies", got)
	}

	want := testutil.ReadFile(t, db)
	for _, tc := range []struct {
		suffix string
		plant  []string // run as nobody in sub
	}{
		{"-wal", []string{"cp", src, "c.db-wal"}},
		{"-shm", []string{"cp", src, "c.db-shm"}},
		{"-journal", []string{"cp", src, "c.db-journal"}},
		{"-wal", []string{"ln", "-s", src, "c.db-wal"}},
	} {
		what := strings.Join(tc.plant, " ")
		if out, err := asNobody(sub, tc.plant[0], tc.plant[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("nobody: %s: %v\n%s", what, err, out)
		}
		planted, _ := os.Readlink(db + tc.suffix)
		if planted == "" {
			planted = string(testutil.ReadFile(t, db+tc.suffix))
		}
		// Readers read the catalog without the planted file: n 1 to 10.
		for _, args := range [][]string{
			{"verify"}, {"stats"}, {"show", "9", "--class", "1"}, {"export", "10", "--format", "csv"},
			{"lookup", "1 3 0 2"},
		} {
			if out, err := runAs(t, 0, exe, dir, append(args, "--db", db)...); err != nil {
				t.Errorf("%s, then root's %s: %v\n%s", what, args[0], err, out)
			}
		}
		if got := builtNs(t, exe, dir, db); fmt.Sprint(got) != "[1 2 3 4 5 6 7 8 9 10]" {
			t.Errorf("%s: root's stats reads n %v, want 1 to 10: the planted file was read", what, got)
		}
		out, err := runAs(t, 0, exe, dir, "build", "11", "--db", db)
		line := strings.TrimSpace(out)
		if err == nil || strings.Contains(line, "\n") || !strings.Contains(line, db+tc.suffix) ||
			!(strings.Contains(line, "uid 65534 (nobody)") || strings.Contains(line, "symbolic link")) {
			t.Errorf("%s, then root's build: %v, want one line naming the file and its owner:\n%s", what, err, out)
		}
		if got := testutil.ReadFile(t, db); !bytes.Equal(got, want) {
			t.Fatalf("%s: the catalog changed", what)
		}
		now, _ := os.Readlink(db + tc.suffix)
		if now == "" {
			now = string(testutil.ReadFile(t, db+tc.suffix))
		}
		if now != planted {
			t.Errorf("%s: the planted file changed", what)
		}
		if err := os.Remove(db + tc.suffix); err != nil {
			t.Fatal(err)
		}
	}
	if got := builtNs(t, exe, dir, db); fmt.Sprint(got) != "[1 2 3 4 5 6 7 8 9 10]" {
		t.Errorf("the catalog holds n %v after the attacks, want 1 to 10", got)
	}
	// The journal that root's connections claim for their first read is
	// gone with the log and index once they close.
	if got := testutil.ReadDir(t, sub); fmt.Sprint(got) != "[c.db c.db.lock]" {
		t.Errorf("root's commands left %v", got)
	}
}

// lockerEnv makes this test binary a lock holder (see holdLock).
const lockerEnv = "NQUEENS_TEST_AS_LOCKER"

func init() {
	if path := os.Getenv(lockerEnv); path != "" {
		os.Exit(holdLock(path))
	}
}

// holdLock opens the file at path, for reading and writing if it may and
// for reading otherwise, takes an exclusive flock on it and says "held",
// or says why not, and holds the lock until its stdin closes.
func holdLock(path string) int {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		f, err = os.Open(path)
	}
	if err == nil {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	}
	if err != nil {
		fmt.Printf("not held: %v\n", err)
		return 1
	}
	fmt.Println("held")
	bufio.NewReader(os.Stdin).ReadString('\n')
	return 0
}

// TestNobodyHoldsTheLock has nobody take the build lock of root's catalog
// in a sticky directory, as flock does with any descriptor, while root
// builds: root's build must succeed, whether nobody's attempt finds the
// lock file of a catalog this version made or one that an older version
// left readable by every user (0644), which nobody opens before root's
// build starts.
func TestNobodyHoldsTheLock(t *testing.T) {
	t.Parallel()
	dir, exe := sharedDir(t)
	sub := stickyDir(t, dir)
	for _, tc := range []struct {
		name   string
		legacy bool
	}{{"lock file of this version", false}, {"lock file readable by all", true}} {
		db := filepath.Join(sub, fmt.Sprintf("c%v.db", tc.legacy))
		if out, err := runAs(t, 0, exe, dir, "build", "1-8", "-q", "--db", db); err != nil {
			t.Fatalf("owner's build: %v\n%s", err, out)
		}
		if tc.legacy {
			os.Remove(db + ".lock")
			if err := os.WriteFile(db+".lock", nil, 0o644); err != nil {
				t.Fatal(err)
			}
			os.Chmod(db+".lock", 0o644)
		}
		locker := asNobody(sub, exe)
		locker.Env = append(locker.Env, lockerEnv+"="+db+".lock")
		stdin, err := locker.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		stdout, err := locker.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := locker.Start(); err != nil {
			t.Fatal(err)
		}
		said, _ := bufio.NewReader(stdout).ReadString('\n')
		t.Logf("%s: nobody's lock: %s", tc.name, strings.TrimSpace(said))
		if tc.legacy && said != "held\n" {
			t.Errorf("%s: nobody could not hold the old lock file: %s", tc.name, said)
		}
		out, err := runAs(t, 0, exe, dir, "build", "9", "-q", "--db", db)
		stdin.Close()
		locker.Wait()
		if err != nil {
			t.Errorf("%s: root's build while nobody tries to hold the lock: %v\n%s", tc.name, err, out)
		}
		fi, err := os.Stat(db + ".lock")
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: the lock file's mode is %v after root's build, want -rw-------", tc.name, fi.Mode())
		}
	}
}
