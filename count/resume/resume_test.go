package resume

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/store"
)

func header(n int, version string) Header {
	return NewHeader(n, nqueens.Shard{}, count.ConstellationUnits(count.Constellations(n)), version)
}

func open(t *testing.T, path string, h Header) *State {
	t.Helper()
	s, err := Open(context.Background(), path, h, count.ConstellationUnits(count.Constellations(h.N)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// record returns the line of a record of unit i with its checksum under
// header h, as a state writes it.
func record(h Header, i int, solutions uint64) string {
	head, _ := json.Marshal(h)
	rec := fmt.Sprintf("%d %d", i, solutions)
	sum := crc32.Update(crc32.Checksum(head, crc32.MakeTable(crc32.Castagnoli)), crc32.MakeTable(crc32.Castagnoli), []byte(rec))
	return fmt.Sprintf("%s %08x\n", rec, sum)
}

// appendTo appends text to the file at path.
func appendTo(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// TestResume records solutions, closes the state and opens it again: the
// same count finds them, and appends after them.
func TestResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "count-8.state")
	h := header(8, "v1")
	s := open(t, path, h)
	if s.len_() != 0 || s.replaced != "" {
		t.Fatalf("new state: %d known, replaced %q", s.len_(), s.replaced)
	}
	for i, v := range map[int]uint64{0: 5, 3: 0, 7: 1} {
		if err := s.Record(i, v); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	if data, _ := os.ReadFile(path); !bytes.Contains(data, []byte("\n"+strings.TrimSpace(record(h, 0, 5))+"\n")) {
		t.Fatalf("the state does not hold the record of unit 0 with its checksum:\n%s", data)
	}
	s = open(t, path, h)
	want := map[int]uint64{0: 5, 3: 0, 7: 1}
	if got := s.Known(); !reflect.DeepEqual(got, want) || s.replaced != "" || s.dropped != 0 {
		t.Fatalf("reopened: %v, replaced %q, dropped %d; want %v", got, s.replaced, s.dropped, want)
	}
	s.Record(2, 9)
	s.Close()
	want[2] = 9
	if got := open(t, path, h).Known(); !reflect.DeepEqual(got, want) {
		t.Fatalf("after a second run: %v, want %v", got, want)
	}
}

// TestResumeDropsCutLine checks that a record cut short by a kill is
// dropped, and the next record is appended on a line of its own.
func TestResumeDropsCutLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s")
	h := header(8, "v1")
	s := open(t, path, h)
	s.Record(1, 4)
	s.Close()
	appendTo(t, path, record(h, 2, 12)[:6])
	s = open(t, path, h)
	if got := s.Known(); !reflect.DeepEqual(got, map[int]uint64{1: 4}) {
		t.Fatalf("with a cut line: %v, want only unit 1", got)
	}
	s.Record(2, 3)
	s.Close()
	if got := open(t, path, h).Known(); !reflect.DeepEqual(got, map[int]uint64{1: 4, 2: 3}) {
		t.Fatalf("after the cut line: %v", got)
	}
}

// TestResumeDropsBadLines checks that a line that fails its checksum or
// its unit's bounds, or contradicts another, costs its own unit only:
// every other line is kept.
func TestResumeDropsBadLines(t *testing.T) {
	const n = 12
	h := header(n, "v1")
	cs := count.Constellations(n)
	big := uint64(14200)/uint64(cs[15].Orbit()) + 1 // more than the board holds
	// Units 0 to 9 and 20 have good lines; the lines under test are of
	// units 13 to 15, which have none, or contradict unit 3's.
	for _, tc := range []struct {
		name, lines string
		lost        []int // good units lost
	}{
		{"edited", strings.Replace(record(h, 13, 40), "13 40", "13 41", 1), nil},
		{"merged", record(h, 13, 40)[:4] + record(h, 14, 7), nil},
		{"garbled", "2211 91\n", nil},
		{"another count's", record(header(11, "v1"), 13, 40), nil},
		{"another version's", record(header(n, "v0"), 13, 40), nil},
		{"out of range", record(h, len(cs), 1), nil},
		{"beyond the board", record(h, 15, big), nil},
		{"contradicted", record(h, 13, 40) + record(h, 13, 41), nil},
		{"contradicting a good line", record(h, 3, 41), []int{3}},
		{"empty", "\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s")
			s := open(t, path, h)
			want := map[int]uint64{}
			for i := range 10 {
				s.Record(i, uint64(i))
				want[i] = uint64(i)
			}
			s.Close()
			appendTo(t, path, tc.lines+record(h, 20, 2))
			want[20] = 2
			for _, i := range tc.lost {
				delete(want, i)
			}
			s = open(t, path, h)
			if got := s.Known(); !reflect.DeepEqual(got, want) || s.dropped == 0 {
				t.Errorf("%d known, %d lines dropped; want %d known (all but units %v), some dropped", s.len_(), s.dropped, len(want), tc.lost)
			}
			s.Close()
		})
	}
}

// TestResumeOtherCount checks that the state of the same board by another
// split, version or format is replaced and says why, and that the state of
// another board (n or shard) is refused, left as it was: it is another
// count's work, which a --state naming the wrong file must not destroy.
func TestResumeOtherCount(t *testing.T) {
	dir := t.TempDir()
	h := header(8, "v1")
	sharded := NewHeader(8, nqueens.Shard{Index: 1, Count: 2}, count.ConstellationUnits(count.Constellations(8)[:3]), "v1")
	for name, tc := range map[string]struct {
		old  Header
		want string
	}{
		"n":     {header(9, "v1"), "holds the state of another count, of n=9 (1 work unit kept)"},
		"shard": {sharded, "holds the state of another count, of n=8 shard 1/2 (1 work unit kept)"},
	} {
		path := filepath.Join(dir, name)
		s, err := Open(context.Background(), path, tc.old, count.ConstellationUnits(count.Constellations(8)))
		if err != nil {
			t.Fatal(err)
		}
		s.Record(0, 1)
		s.Close()
		before, _ := os.ReadFile(path)
		if _, err := Open(context.Background(), path, h, count.ConstellationUnits(count.Constellations(8))); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Open = %v, want an error saying %q", name, err, tc.want)
		}
		if after, _ := os.ReadFile(path); string(after) != string(before) {
			t.Errorf("%s: the other count's state changed", name)
		}
	}
	resplit := h
	resplit.Split = count.Digest(count.Constellations(8)[1:])
	for name, tc := range map[string]struct {
		old  Header
		want string
	}{
		"split":   {resplit, "split the board otherwise"},
		"version": {header(8, "v0"), "nqueens v0"},
	} {
		path := filepath.Join(dir, name)
		s, err := Open(context.Background(), path, tc.old, count.ConstellationUnits(count.Constellations(8)))
		if err != nil {
			t.Fatal(err)
		}
		s.Record(0, 1)
		s.Close()
		s = open(t, path, h)
		if s.len_() != 0 || !strings.Contains(s.replaced, tc.want) {
			t.Errorf("%s: %d known, replaced %q; want none, saying %q", name, s.len_(), s.replaced, tc.want)
		}
		s.Close()
		if s = open(t, path, h); s.replaced != "" {
			t.Errorf("%s: the replaced state is not this count's: %q", name, s.replaced)
		}
		s.Close()
	}
	// A state of the first format: a header line, then "index solutions".
	path := filepath.Join(dir, "format 1")
	os.WriteFile(path, []byte(`{"format":"nqueens count state 1","n":8,"shard":"","units":3,"split":"sha256:00","version":"v1"}`+"\n0 5\n"), 0o644)
	if s := open(t, path, h); s.len_() != 0 || !strings.Contains(s.replaced, `another format, "nqueens count state 1"`) {
		t.Errorf("format 1: %d known, replaced %q", s.len_(), s.replaced)
	}
	// An empty file is a new state.
	path = filepath.Join(dir, "empty")
	os.WriteFile(path, nil, 0o644)
	if s := open(t, path, h); s.replaced != "" || s.len_() != 0 {
		t.Errorf("empty: replaced %q, %d known", s.replaced, s.len_())
	}
}

// TestOpenRefuses gives Open paths that are no state file: each is
// refused with one line naming it, and left exactly as it was.
func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	h := header(8, "v1")
	write := func(name, data string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, mode)
		return p
	}
	catalog := write("nq.db", "SQLite format 3\x00"+strings.Repeat("\x00", 100), 0o644)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	target := write("target", "keep me\n", 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(target, link)
	os.Mkdir(filepath.Join(dir, "dir"), 0o755)
	devNull := "/dev/null"
	if os.Geteuid() == 0 {
		// As root an Open that took it for a state would change the
		// machine's own: use a device node of the test's.
		devNull = filepath.Join(dir, "null")
		if err := syscall.Mknod(devNull, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ path, want string }{
		{catalog, "is not a count state (it is a SQLite database)"},
		{write("nq.db-wal", "", 0o644), "is a file of the SQLite catalog " + catalog},
		{write("nq.db.lock", "", 0o644), "is a file of the SQLite catalog " + catalog},
		{write("nq.db-journal", "x", 0o644), "is a file of the SQLite catalog " + catalog},
		{write("notes", "hello\n1 2\n", 0o644), `is not a count state (its first line is "hello")`},
		{write("readonly", "", 0o444), "is read-only (mode -r--r--r--)"},
		{write("readonly-state", record(h, 0, 1), 0o400), "is read-only"},
		{fifo, "is a FIFO, not a state file"},
		{link, "is a symbolic link, not a state file"},
		{filepath.Join(dir, "dir"), "is a directory, not a state file"},
		{devNull, "is a device, not a state file"},
	} {
		before, _ := os.Lstat(tc.path)
		var data []byte
		if before.Mode().IsRegular() {
			data, _ = os.ReadFile(tc.path)
		}
		_, err := Open(context.Background(), tc.path, h, count.ConstellationUnits(count.Constellations(8)))
		if err == nil || !strings.Contains(err.Error(), tc.path+" "+tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want one line saying %q", tc.path, err, tc.want)
		}
		after, err := os.Lstat(tc.path)
		switch {
		case err != nil:
			t.Errorf("%s is gone: %v", tc.path, err)
		case after.Mode() != before.Mode() || after.Size() != before.Size() || !os.SameFile(before, after):
			t.Errorf("%s changed: %v %d, was %v %d", tc.path, after.Mode(), after.Size(), before.Mode(), before.Size())
		case before.Mode().IsRegular():
			if now, _ := os.ReadFile(tc.path); !bytes.Equal(now, data) {
				t.Errorf("%s: its bytes changed", tc.path)
			}
		}
	}
	if now, _ := os.ReadFile(target); string(now) != "keep me\n" {
		t.Errorf("the link's target changed: %q", now)
	}
}

// TestOpenLocks opens one state twice: the second is refused at once,
// naming this process, until the first is closed.
func TestOpenLocks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s")
	h := header(8, "v1")
	s := open(t, path, h)
	s.Record(1, 4)
	_, err := Open(context.Background(), path, h, count.ConstellationUnits(count.Constellations(8)))
	if want := "state file " + path + " is in use by process " + strconv.Itoa(os.Getpid()); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("second open: %v; want %q", err, want)
	}
	s.Close()
	if got := open(t, path, h).Known(); !reflect.DeepEqual(got, map[int]uint64{1: 4}) {
		t.Errorf("after the first closed: %v", got)
	}
}

// TestOpenInterrupted opens a state with a cancelled context: the open
// stops with an error that says so, and the file stays.
func TestOpenInterrupted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s")
	h := header(8, "v1")
	s := open(t, path, h)
	s.Record(1, 4)
	s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Open(ctx, path, h, count.ConstellationUnits(count.Constellations(8))); err == nil || !strings.Contains(err.Error(), "interrupted while opening it") {
		t.Errorf("open with a cancelled context: %v", err)
	}
	if got := open(t, path, h).Known(); !reflect.DeepEqual(got, map[int]uint64{1: 4}) {
		t.Errorf("after the interrupted open: %v", got)
	}
}

// TestKeeperEnd checks what becomes of a state at the end of its count:
// removed after right numbers, set aside (never over another file) after
// numbers that are not the published ones, kept after an interruption.
func TestKeeperEnd(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "s")
	cs := count.Constellations(8)
	start := func() *Keeper {
		k := &Keeper{Path: path, N: 8, Version: "v1"}
		if _, err := k.Resume(ctx, count.ConstellationUnits(cs)); err != nil {
			t.Fatal(err)
		}
		k.Keep(0, 1)
		return k
	}
	stopped := count.Interrupted(context.Canceled)
	if err := start().End(stopped); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), fmt.Sprintf("interrupted; 1 of %d work units kept in %s", len(cs), path)) {
		t.Errorf("interrupted: %v", err)
	}
	wrong := nqueens.CheckKnown(8, nqueens.Counts{Total: 100, Unique: 13})
	os.WriteFile(path+".bad", []byte("mine"), 0o644)
	err := start().End(wrong)
	if want := "total 100, unique 13; OEIS A000170/A002562 say 92, 12; counted with the state in " + path + ", set aside as " + path + ".bad2"; err == nil || err.Error() != want {
		t.Errorf("mismatch: %v; want %q", err, want)
	}
	if data, _ := os.ReadFile(path + ".bad"); string(data) != "mine" {
		t.Errorf("%s.bad was replaced: %q", path, data)
	}
	if _, err := os.Stat(path + ".bad2"); err != nil {
		t.Errorf("the state was not set aside: %v", err)
	}
	if err := start().End(count.ErrOverflow); err == nil || !strings.Contains(err.Error(), "the state in "+path+" cannot be right: delete it to start afresh") {
		t.Errorf("overflow: %v", err)
	}
	if err := start().End(nil); err != nil {
		t.Errorf("done: %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("state after a count done: %v", err)
	}
}

// TestDefaultPath checks the state's place in the user's cache directory.
// TestKeeperOptional checks that a keeper of the default state (Optional)
// whose file cannot be made says so and keeps nothing, where one of a
// file the user named fails; and that neither passes over a refusal.
func TestKeeperOptional(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	cs := count.Constellations(8)
	var said []string
	k := &Keeper{Path: filepath.Join(file, "nqueens", "count-8.state"), N: 8, Version: "v1", Optional: true,
		Log: func(msg string) { said = append(said, msg) }}
	known, err := k.Resume(ctx, count.ConstellationUnits(cs))
	if err != nil || known != nil || len(said) != 1 || !strings.Contains(said[0], "the work is not kept for a resume") {
		t.Errorf("optional keeper under a file: %v, %v, said %q; want nothing kept, said once", known, err, said)
	}
	k.Keep(0, 1)
	if err := k.End(nil); err != nil || k.Len() != 0 {
		t.Errorf("End of a keeper that keeps nothing: %v, %d kept", err, k.Len())
	}
	named := &Keeper{Path: k.Path, N: 8, Version: "v1"}
	if _, err := named.Resume(ctx, count.ConstellationUnits(cs)); err == nil {
		t.Error("a named state that cannot be made: no error")
	}
	refused := &Keeper{Path: file, N: 8, Version: "v1", Optional: true}
	if _, err := refused.Resume(ctx, count.ConstellationUnits(cs)); err == nil || !strings.Contains(err.Error(), "not a count state") {
		t.Errorf("an optional keeper of a file that is no state: %v, want the refusal", err)
	}
}

func TestDefaultPath(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	for s, want := range map[nqueens.Shard]string{
		{}:                    "count-20.state",
		{Index: 3, Count: 64}: "count-20-shard-3-of-64.state",
	} {
		got, err := DefaultPath(20, s)
		if err != nil || got != filepath.Join(cache, "nqueens", want) {
			t.Errorf("DefaultPath(20, %v) = %q, %v; want %s in %s/nqueens", s, got, err, want, cache)
		}
	}
}

// TestOpenRefusesCatalogFiles makes a catalog with the store and gives
// Open each file the store says the catalog is made of (store.Files),
// present and not yet made: the catalog itself is refused as a SQLite
// database, and each file beside it as a file of the catalog, left as it
// was or not made. A file the store adds to a catalog's files is refused
// here as soon as the store names it.
func TestOpenRefusesCatalogFiles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	catalog := filepath.Join(dir, "c.db")
	db, err := store.Open(ctx, catalog, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Run(ctx, 4, nqueens.Shard{}, store.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	files := store.Files(catalog)
	if len(files) < 5 || files[0] != catalog {
		t.Fatalf("store.Files(%s) = %v: want the catalog and the files beside it", catalog, files)
	}
	h := header(8, "v1")
	u := count.ConstellationUnits(count.Constellations(8))
	for _, path := range files {
		if path == catalog {
			_, err := Open(ctx, path, h, u)
			if err == nil || !strings.Contains(err.Error(), "is not a count state (it is a SQLite database)") {
				t.Errorf("Open(the catalog %s) = %v", path, err)
			}
			continue
		}
		want := fmt.Sprintf("state file %s is a file of the SQLite catalog %s: it is left as it is", path, catalog)
		os.Remove(path) // the build lock stays beside a closed catalog
		if _, err := Open(ctx, path, h, u); err == nil || err.Error() != want {
			t.Errorf("Open(%s), not there: %v, want %q", path, err, want)
		}
		if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("Open(%s) made it: %v", path, err)
		}
		if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(ctx, path, h, u); err == nil || err.Error() != want {
			t.Errorf("Open(%s), there: %v, want %q", path, err, want)
		}
		if data, _ := os.ReadFile(path); string(data) != "x" {
			t.Errorf("Open(%s) changed it to %q", path, data)
		}
		os.Remove(path)
	}
}
