//go:build unix

package output_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/nqueens/nqueens/output"
)

// catalog is what the tests protect, as the nqueens command does.
var catalog = output.Options{
	Protect:   []string{"nqueens.db", "nqueens.db-wal", "nqueens.db-shm", "nqueens.db-journal", "nqueens.db.lock"},
	Protected: "the catalog (or one of its files)",
}

// text returns a write func writing s.
func text(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

// snapshot records every entry under dir: its type and mode, and a
// file's content or a link's target.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		v := fi.Mode().String()
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			v += " -> " + l
		case fi.Mode().IsRegular():
			b, _ := os.ReadFile(p)
			v += " " + string(b)
		}
		m[p] = v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// temps lists the temporary files beside dir/name.
func temps(t *testing.T, dir, name string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "."+name+".tmp-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestProtected writes to the catalog's files in every spelling: each is
// refused, naming the path as given, and nothing changes on disk.
func TestProtected(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "work")
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "nqueens.db"), []byte("catalog"), 0o644)
	os.WriteFile(filepath.Join(dir, "nqueens.db.lock"), nil, 0o644)
	os.Symlink("nqueens.db", filepath.Join(dir, "link"))
	os.Symlink("link", filepath.Join(dir, "chain"))
	os.Symlink("nqueens.db-wal", filepath.Join(dir, "dangling"))
	os.Symlink("../nqueens.db-shm", filepath.Join(dir, "sub", "up"))
	os.Symlink(".", filepath.Join(dir, "here"))
	os.Link(filepath.Join(dir, "nqueens.db"), filepath.Join(dir, "hard"))
	t.Chdir(dir)
	abs := filepath.Join(dir, "nqueens.db")

	for _, tt := range []struct {
		path    string
		protect []string // instead of the catalog's relative names
	}{
		{path: "nqueens.db"},
		{path: "./nqueens.db"},
		{path: "../work/nqueens.db"},
		{path: "sub/../nqueens.db"},
		{path: "here/nqueens.db"},
		{path: abs},
		{path: "nqueens.db", protect: []string{abs}},
		{path: "../work/nqueens.db-wal", protect: []string{abs + "-wal"}},
		{path: "nqueens.db-wal"},
		{path: "nqueens.db-shm"},
		{path: "nqueens.db-journal"},
		{path: "./nqueens.db.lock"},
		{path: "link"},
		{path: "chain"},
		{path: "hard"},
		{path: "dangling"},
		{path: "sub/up"},
	} {
		t.Run(tt.path, func(t *testing.T) {
			opts := catalog
			if tt.protect != nil {
				opts.Protect = tt.protect
			}
			before := snapshot(t, root)
			err := output.Write(tt.path, opts, text("oops"))
			if !errors.Is(err, output.ErrProtected) {
				t.Fatalf("Write(%q) = %v, want ErrProtected", tt.path, err)
			}
			want := "output " + tt.path + ": is the catalog (or one of its files); choose another file"
			if err.Error() != want {
				t.Errorf("error %q, want %q", err, want)
			}
			if err := output.Check(tt.path, opts); !errors.Is(err, output.ErrProtected) {
				t.Errorf("Check(%q) = %v, want ErrProtected", tt.path, err)
			}
			if after := snapshot(t, root); !maps.Equal(before, after) {
				t.Errorf("files changed:\nbefore %v\nafter  %v", before, after)
			}
		})
	}

	// Names that only look alike are written.
	for _, p := range []string{"nqueens.db2", "sub/nqueens.db", "nqueens.db-walrus", "-"} {
		if err := output.Check(p, catalog); err != nil {
			t.Errorf("Check(%q) = %v, want nil", p, err)
		}
	}
	if err := output.Write("sub/nqueens.db", catalog, text("ok")); err != nil {
		t.Errorf("Write(sub/nqueens.db) = %v", err)
	}
}

// TestProtectedThroughBindMount writes the catalog's journal, which does
// not exist yet, through a bind mount of the catalog's directory: a path
// that no string comparison ties to the catalog. It is refused, as the
// directory is the same. Bind mounts need root; without it the test skips.
func TestProtectedThroughBindMount(t *testing.T) {
	root := t.TempDir()
	dir, mnt := filepath.Join(root, "dir"), filepath.Join(root, "mnt")
	os.Mkdir(dir, 0o755)
	os.Mkdir(mnt, 0o755)
	os.WriteFile(filepath.Join(dir, "nqueens.db"), []byte("catalog"), 0o644)
	if err := syscall.Mount(dir, mnt, "", syscall.MS_BIND, ""); err != nil {
		t.Skipf("cannot bind-mount (needs root): %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(mnt, syscall.MNT_DETACH) })
	opts := catalog
	opts.Protect = nil
	for _, name := range catalog.Protect {
		opts.Protect = append(opts.Protect, filepath.Join(dir, name))
	}
	for _, name := range []string{"nqueens.db", "nqueens.db-journal", "nqueens.db-wal"} {
		path := filepath.Join(mnt, name)
		if err := output.Write(path, opts, text("oops")); !errors.Is(err, output.ErrProtected) {
			t.Errorf("Write(%s) through the mount = %v, want ErrProtected", name, err)
		}
	}
	if got, _ := os.ReadDir(dir); len(got) != 1 {
		t.Errorf("the catalog's directory holds %d entries, want the catalog alone", len(got))
	}
	if err := output.Write(filepath.Join(mnt, "other.csv"), opts, text("ok")); err != nil {
		t.Errorf("Write(other.csv) through the mount = %v", err)
	}
}

// TestStdout writes "-" and the process's own standard output to
// Options.Stdout, creating nothing.
func TestStdout(t *testing.T) {
	t.Chdir(t.TempDir())
	paths := []string{"-"}
	if _, err := os.Stat("/dev/stdout"); err == nil {
		paths = append(paths, "/dev/stdout")
	}
	for _, p := range paths {
		var buf bytes.Buffer
		opts := catalog
		opts.Stdout = &buf
		if err := output.Write(p, opts, text("hello\n")); err != nil {
			t.Fatalf("Write(%q): %v", p, err)
		}
		if buf.String() != "hello\n" || !output.IsStdout(p) {
			t.Errorf("Write(%q) wrote %q to Stdout, IsStdout %v", p, buf.String(), output.IsStdout(p))
		}
	}
	if entries, _ := os.ReadDir("."); len(entries) > 0 {
		t.Errorf("created %v", entries)
	}
	if output.IsStdout("out.txt") {
		t.Error("IsStdout(out.txt) = true")
	}
}

// TestWriteThroughFIFO writes into a FIFO as it is, to the reader on the
// other end, and leaves it a FIFO.
func TestWriteThroughFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs:", err)
	}
	// Opened without blocking, the reader lets Write's open go through;
	// what Write writes waits in the pipe's buffer until read below.
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := output.Write(fifo, catalog, text("through the pipe\n")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Fatalf("after the write: %v, %v; want a FIFO", fi.Mode(), err)
	}
	if b, err := io.ReadAll(r); string(b) != "through the pipe\n" {
		t.Errorf("reader got %q, %v", b, err)
	}
}

// devices returns a null and a full character device to write to: as root,
// copies made in a temporary directory, so that a regression replaces
// those and not the system's; otherwise /dev/null and /dev/full, which
// only root could replace.
func devices(t *testing.T) (null, full string) {
	if os.Geteuid() != 0 {
		for _, p := range []string{"/dev/null", "/dev/full"} {
			if _, err := os.Stat(p); err != nil || output.IsStdout(p) {
				t.Skip("no usable", p)
			}
		}
		return "/dev/null", "/dev/full"
	}
	dir := t.TempDir()
	null, full = filepath.Join(dir, "null"), filepath.Join(dir, "full")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Skip("mknod:", err)
	}
	if err := syscall.Mknod(full, syscall.S_IFCHR|0o666, 1<<8|7); err != nil {
		t.Skip("mknod:", err)
	}
	return null, full
}

// TestWriteThroughDevice writes to null and full devices as they are: they
// stay devices, and the error of the full one names it.
func TestWriteThroughDevice(t *testing.T) {
	null, full := devices(t)
	if err := output.Write(null, catalog, text("gone\n")); err != nil {
		t.Errorf("Write(%s): %v", null, err)
	}
	err := output.Write(full, catalog, func(w io.Writer) error {
		_, err := io.WriteString(w, "too much\n")
		return fmt.Errorf("write csv: %w", err)
	})
	if want := "output " + full + ": no space left on device"; err == nil || err.Error() != want {
		t.Errorf("Write(%s) = %v, want %s", full, err, want)
	}
	for _, p := range []string{null, full} {
		if fi, err := os.Lstat(p); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
			t.Errorf("%s after the write: %v, %v; want a character device", p, fi.Mode(), err)
		}
	}
}

// TestSymlinkFollowed writes through links, chains of links and a dangling
// link: the links stay links, the files they lead to get the output.
func TestSymlinkFollowed(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.Mkdir("sub", 0o755)
	os.WriteFile("real.txt", []byte("old"), 0o600)
	os.Symlink("real.txt", "link")
	os.Symlink("link", "chain")
	os.Symlink("../real.txt", "sub/up")
	os.Symlink(filepath.Join(dir, "sub", "new.txt"), "dangling")
	for _, tt := range []struct{ path, file string }{
		{"link", "real.txt"},
		{"chain", "real.txt"},
		{"sub/up", "real.txt"},
		{"dangling", "sub/new.txt"},
	} {
		if err := output.Write(tt.path, catalog, text("via "+tt.path)); err != nil {
			t.Fatalf("Write(%q): %v", tt.path, err)
		}
		if b, _ := os.ReadFile(tt.file); string(b) != "via "+tt.path {
			t.Errorf("Write(%q): %s holds %q", tt.path, tt.file, b)
		}
	}
	for link, to := range map[string]string{"link": "real.txt", "chain": "link", "sub/up": "../real.txt", "dangling": filepath.Join(dir, "sub", "new.txt")} {
		if got, err := os.Readlink(link); err != nil || got != to {
			t.Errorf("%s: now %q, %v; want a link to %s", link, got, err, to)
		}
	}
	if fi, _ := os.Stat("real.txt"); fi.Mode().Perm() != 0o600 {
		t.Errorf("real.txt mode %v, want 0600", fi.Mode().Perm())
	}
	if len(temps(t, dir, "real.txt"))+len(temps(t, "sub", "new.txt")) > 0 {
		t.Error("temporary files left")
	}
}

// TestMode keeps an existing file's permission bits and gives a new file
// 0666 less the umask.
func TestMode(t *testing.T) {
	dir := t.TempDir()
	for _, mode := range []fs.FileMode{0o600, 0o755, 0o640, 0o444} {
		p := filepath.Join(dir, fmt.Sprintf("old%o", mode))
		os.WriteFile(p, []byte("old"), 0o600)
		os.Chmod(p, mode)
		if err := output.Write(p, catalog, text("new")); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(p); fi.Mode() != mode {
			t.Errorf("existing %o: now %v", mode, fi.Mode())
		}
	}
	for _, umask := range []int{0o022, 0o077, 0o002} {
		old := syscall.Umask(umask)
		p := filepath.Join(dir, fmt.Sprintf("new%o", umask))
		err := output.Write(p, catalog, text("new"))
		syscall.Umask(old)
		if err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(p); fi.Mode() != fs.FileMode(0o666&^umask) {
			t.Errorf("new file, umask %03o: mode %v, want %v", umask, fi.Mode(), fs.FileMode(0o666&^umask))
		}
	}
}

// TestFailedWrite leaves an existing file as it was, creates no new one,
// and leaves no temporary file.
func TestFailedWrite(t *testing.T) {
	dir := t.TempDir()
	boom := errors.New("boom")
	fail := func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	}
	old := filepath.Join(dir, "old.csv")
	os.WriteFile(old, []byte("old content"), 0o644)
	if err := output.Write(old, catalog, fail); err != boom {
		t.Errorf("Write = %v, want the writer's error", err)
	}
	if b, _ := os.ReadFile(old); string(b) != "old content" {
		t.Errorf("old.csv holds %q", b)
	}
	if err := output.Write(filepath.Join(dir, "new.csv"), catalog, fail); err != boom {
		t.Errorf("Write = %v, want the writer's error", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left %v, want only old.csv", entries)
	}
}

// TestBadTargets: a directory, a missing directory.
func TestBadTargets(t *testing.T) {
	t.Chdir(t.TempDir())
	os.Mkdir("dir", 0o755)
	os.Symlink("dir", "dirlink")
	for path, want := range map[string]string{
		"dir":         "output dir: is a directory",
		"dirlink":     "output dirlink: is a directory",
		"nodir/x.csv": "output nodir/x.csv: cannot write there: no such file or directory",
	} {
		if err := output.Write(path, catalog, text("x")); err == nil || err.Error() != want {
			t.Errorf("Write(%q) = %v, want %s", path, err, want)
		}
	}
}

// TestStaleTemps removes a dead writer's temporary file before writing,
// and keeps one still locked by a live writer.
func TestStaleTemps(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "out.csv")
	dead := filepath.Join(dir, ".out.csv.tmp-dead")
	live := filepath.Join(dir, ".out.csv.tmp-live")
	other := filepath.Join(dir, ".other.csv.tmp-dead")
	for _, p := range []string{dead, live, other} {
		os.WriteFile(p, []byte("partial"), 0o644)
	}
	f, err := os.Open(live)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Skip("no flock:", err)
	}
	if err := output.Write(target, catalog, text("done")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dead); err == nil {
		t.Error("the dead writer's temporary file is still there")
	}
	for _, p := range []string{live, other} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s removed", filepath.Base(p))
		}
	}
}

// TestKilledWriter kills a process part way through a write: its
// temporary file stays while it lives, writes beside it succeed, and the
// first write after its death removes the file.
func TestKilledWriter(t *testing.T) {
	if target := os.Getenv("OUTPUT_TEST_WRITER"); target != "" {
		// The child: write half, say so, wait for the kill.
		output.Write(target, output.Options{}, func(w io.Writer) error {
			io.WriteString(w, "half")
			fmt.Println("writing")
			io.ReadAll(os.Stdin)
			return nil
		})
		os.Exit(0)
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "big.csv")
	child := exec.Command(os.Args[0], "-test.run=^TestKilledWriter$")
	child.Env = append(os.Environ(), "OUTPUT_TEST_WRITER="+target)
	stdin, _ := child.StdinPipe() // held open: the child waits on it
	defer stdin.Close()
	stdout, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Process.Kill()
	if line, err := bufio.NewReader(stdout).ReadString('\n'); line != "writing\n" {
		t.Fatalf("child said %q, %v", line, err)
	}
	tmp := temps(t, dir, "big.csv")
	if len(tmp) != 1 {
		t.Fatalf("temporary files while the child writes: %v", tmp)
	}
	if err := output.Write(target, catalog, text("first")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tmp[0]); err != nil {
		t.Fatal("a live writer's temporary file was removed")
	}
	child.Process.Kill()
	child.Wait()
	if err := output.Write(target, catalog, text("second")); err != nil {
		t.Fatal(err)
	}
	if left := temps(t, dir, "big.csv"); len(left) > 0 {
		t.Errorf("a dead writer's temporary file stayed: %v", left)
	}
	if b, _ := os.ReadFile(target); string(b) != "second" {
		t.Errorf("big.csv holds %q", b)
	}
}
