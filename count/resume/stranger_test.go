package resume

// Tests in which another user, nobody, controls a directory on the path of
// root's state file: the state is refused before anything is written.

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/nqueens/nqueens/count"
)

// nobody is the uid and gid of the stranger.
const nobody = 65534

// asNobody runs the shell script script in dir as nobody.
func asNobody(t *testing.T, dir, script string) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("as nobody: %s: %v\n%s", script, err, out)
	}
}

// TestOpenRefusesStrangersPath opens, as root, state files whose path
// passes through a directory nobody can change: each is refused in one
// line naming the directory, and nothing is written anywhere, neither at
// the path nor where nobody's link leads. A path through root's own
// directories in a sticky directory is taken.
func TestOpenRefusesStrangersPath(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to run a step as nobody (uid 65534)")
	}
	base := t.TempDir()
	for d := base; d != "/"; d = filepath.Dir(d) {
		// nobody must reach the test's directories, as it would reach /tmp.
		if fi, err := os.Stat(d); err == nil && fi.Mode().Perm()&0o005 != 0o005 {
			if err := os.Chmod(d, fi.Mode().Perm()|0o055); err != nil {
				t.Fatal(err)
			}
		}
	}
	mkdir := func(name string, mode os.FileMode) string {
		p := filepath.Join(base, name)
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	elsewhere := mkdir("elsewhere", 0o755) // root's own directory
	open := mkdir("open", 0o777)           // anyone may write, no sticky bit
	sticky := mkdir("sticky", 0o777|os.ModeSticky)
	// The attack of the issue: root's directory in a directory nobody
	// may write, replaced by nobody with a link to root's elsewhere.
	if err := os.Mkdir(filepath.Join(open, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	asNobody(t, open, "mv sub old && ln -s "+elsewhere+" sub")
	// A directory of nobody's in the sticky directory, a link of
	// nobody's there, and a state file of nobody's there.
	asNobody(t, sticky, "mkdir mine && ln -s "+elsewhere+" link && : > theirs.state && chmod 666 theirs.state")
	if err := os.Mkdir(filepath.Join(sticky, "roots"), 0o755); err != nil {
		t.Fatal(err)
	}
	h := header(8, "v1")
	u := count.ConstellationUnits(count.Constellations(8))
	for _, tc := range []struct{ path, want string }{
		{filepath.Join(open, "sub", "c.state"), open + " can be changed by other users (mode drwxrwxrwx, no sticky bit)"},
		{filepath.Join(open, "new", "c.state"), open + " can be changed by other users (mode drwxrwxrwx, no sticky bit)"},
		{filepath.Join(sticky, "mine", "c.state"), filepath.Join(sticky, "mine") + " belongs to uid 65534"},
		{filepath.Join(sticky, "link", "c.state"), filepath.Join(sticky, "link") + " is a symbolic link in " + sticky + ", which other users can change"},
		{filepath.Join(sticky, "theirs.state"), filepath.Join(sticky, "theirs.state") + " belongs to uid 65534"},
	} {
		s, err := Open(context.Background(), tc.path, h, u)
		if err == nil {
			s.Close()
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want one line saying %q", tc.path, err, tc.want)
		}
	}
	if left, _ := os.ReadDir(elsewhere); len(left) > 0 {
		t.Errorf("root's %s holds %v: a state went through nobody's link", elsewhere, left[0].Name())
	}
	if _, err := os.Lstat(filepath.Join(open, "new")); err == nil {
		t.Errorf("%s/new was made", open)
	}
	if fi, _ := os.Stat(filepath.Join(sticky, "theirs.state")); fi == nil || fi.Size() != 0 {
		t.Errorf("nobody's state file was written")
	}
	// Root's own directories in a sticky directory, one of them new: no
	// one else can change them.
	for _, p := range []string{filepath.Join(sticky, "roots", "c.state"), filepath.Join(sticky, "new", "deeper", "c.state")} {
		s, err := Open(context.Background(), p, h, u)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		s.remove()
	}
}
