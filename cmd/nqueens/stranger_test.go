package main

// Tests in which nobody plants a file beside the catalog of another
// unprivileged user (who, unlike root, cannot remove it from a sticky
// directory): the catalog stays readable, its writers are refused with the
// way to get it back, and build warns when it creates a catalog where
// others can write.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/internal/testutil"
)

// owner is the unprivileged owner of the catalog in these tests.
const owner = 1000

// TestStrangersFile has owner build a catalog in a sticky directory (build
// must warn that others can write it), then has nobody plant, one at a
// time, an empty -wal, a -wal holding a log that deletes n >= 9, a -shm
// directory, a -journal holding the same log, and a .lock where there is
// none. Each time the owner's readers must read the catalog whole (n 1 to
// 10: the planted log is never read), the owner's build must be refused
// in one line naming the file and the way back, and neither the catalog
// nor the planted file may change. The way back, a copy in a directory
// only the owner can write, must build.
func TestStrangersFile(t *testing.T) {
	t.Parallel()
	dir, exe := sharedDir(t)
	sub := stickyDir(t, dir)
	db := filepath.Join(sub, "c.db")
	out, err := runAs(t, owner, exe, dir, "build", "1-10", "--db", db)
	if err != nil {
		t.Fatalf("owner's build: %v\n%s", err, out)
	}
	if !strings.Contains(out, "others can write") {
		t.Errorf("build in a sticky directory every user may write gave no warning:\n%s", out)
	}
	log := plantedLog(t, db)
	src := filepath.Join(dir, "planted")
	if err := os.WriteFile(src, log, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := asNobody(sub, "rm", "-f", "c.db.lock").CombinedOutput(); err == nil {
		t.Fatalf("nobody removed the owner's lock file in a sticky directory: %s", out)
	}
	want := testutil.ReadFile(t, db)
	for _, tc := range []struct {
		file  string
		plant []string // run as nobody in sub
	}{
		{"c.db-wal", []string{"touch", "c.db-wal"}},
		{"c.db-wal", []string{"cp", src, "c.db-wal"}},
		{"c.db-shm", []string{"mkdir", "c.db-shm"}},
		{"c.db-journal", []string{"cp", src, "c.db-journal"}},
		{"c.db.lock", []string{"touch", "c.db.lock"}},
	} {
		what := strings.Join(tc.plant, " ")
		if tc.file == "c.db.lock" {
			if out, err := runAs(t, owner, "/bin/rm", sub, "c.db.lock"); err != nil {
				t.Fatalf("owner removes the lock: %v\n%s", err, out)
			}
		}
		if out, err := asNobody(sub, tc.plant[0], tc.plant[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("nobody: %s: %v\n%s", what, err, out)
		}
		if out, err := runAs(t, owner, "/bin/rm", sub, "-rf", tc.file); err == nil {
			t.Fatalf("%s: the owner removed nobody's file from a sticky directory: %s", what, out)
		}
		planted := testutil.ReadDir(t, sub)
		if got := ownerNs(t, exe, dir, db); fmt.Sprint(got) != "[1 2 3 4 5 6 7 8 9 10]" {
			t.Errorf("%s: owner's stats reads n %v, want 1 to 10", what, got)
		}
		for _, args := range [][]string{{"verify"}, {"show", "9", "--class", "1"}, {"export", "10", "--format", "csv"}} {
			if out, err := runAs(t, owner, exe, dir, append(args, "--db", db)...); err != nil {
				t.Errorf("%s: owner's %s: %v\n%s", what, args[0], err, out)
			}
		}
		out, err := runAs(t, owner, exe, dir, "build", "11", "--db", db)
		line := strings.TrimSpace(out)
		if err == nil || strings.Contains(line, "\n") || !strings.Contains(line, filepath.Join(sub, tc.file)) || !strings.Contains(line, "copy") {
			t.Errorf("%s: owner's build: %v, want one line naming the file and the way back:\n%s", what, err, out)
		}
		if got := testutil.ReadFile(t, db); !bytes.Equal(got, want) {
			t.Fatalf("%s: the catalog changed", what)
		}
		if got := testutil.ReadDir(t, sub); fmt.Sprint(got) != fmt.Sprint(planted) {
			t.Errorf("%s: the owner's commands left %v, want %v", what, got, planted)
		}
		if err := os.RemoveAll(filepath.Join(sub, tc.file)); err != nil { // root, as asked
			t.Fatal(err)
		}
	}

	// The way back: a copy in a directory only the owner can write.
	mine := filepath.Join(dir, "mine")
	if err := os.Mkdir(mine, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(mine, owner, owner); err != nil {
		t.Fatal(err)
	}
	if out, err := asNobody(sub, "touch", "c.db-wal").CombinedOutput(); err != nil {
		t.Fatalf("nobody: %v\n%s", err, out)
	}
	if out, err := runAs(t, owner, "/bin/cp", dir, db, mine); err != nil {
		t.Fatalf("owner's copy: %v\n%s", err, out)
	}
	if out, err := runAs(t, owner, exe, dir, "build", "11", "--db", filepath.Join(mine, "c.db")); err != nil {
		t.Errorf("owner's build of the copy: %v\n%s", err, out)
	} else if strings.Contains(out, "others can write") {
		t.Errorf("build in a private directory warned:\n%s", out)
	}
}

// ownerNs returns the n of the builds that nqueens stats --json lists for
// the catalog at db, run as owner.
func ownerNs(t *testing.T, exe, dir, db string) []int {
	t.Helper()
	out, err := runAs(t, owner, exe, dir, "stats", "--json", "--db", db)
	if err != nil {
		t.Errorf("owner's stats: %v\n%s", err, out)
		return nil
	}
	var builds []struct{ N int }
	if err := json.Unmarshal([]byte(out), &builds); err != nil {
		t.Errorf("owner's stats --json: %v\n%s", err, out)
	}
	var ns []int
	for _, b := range builds {
		ns = append(ns, b.N)
	}
	return ns
}
