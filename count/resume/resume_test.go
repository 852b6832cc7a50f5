package resume_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/count/resume"
)

func header(n int, version string) resume.Header {
	return resume.NewHeader(n, nqueens.Shard{}, count.Constellations(n), version)
}

func open(t *testing.T, path string, h resume.Header) *resume.State {
	t.Helper()
	s, err := resume.Open(path, h)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestResume records solutions, closes the state and opens it again: the
// same count finds them, and appends after them.
func TestResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "count-8.state")
	h := header(8, "v1")
	s := open(t, path, h)
	if s.Len() != 0 || s.Replaced != "" {
		t.Fatalf("new state: %d known, replaced %q", s.Len(), s.Replaced)
	}
	for i, v := range map[int]uint64{0: 5, 3: 0, 7: 1 << 40} {
		if err := s.Record(i, v); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s = open(t, path, h)
	want := map[int]uint64{0: 5, 3: 0, 7: 1 << 40}
	if got := s.Known(); !reflect.DeepEqual(got, want) || s.Replaced != "" {
		t.Fatalf("reopened: %v, replaced %q; want %v", got, s.Replaced, want)
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
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("2 12")
	f.Close()
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

// TestResumeOtherCount checks that the state of another count is replaced
// and says why: another n, shard, split or version, or no state at all.
func TestResumeOtherCount(t *testing.T) {
	dir := t.TempDir()
	h := header(8, "v1")
	sharded := resume.NewHeader(8, nqueens.Shard{Index: 1, Count: 2}, count.Constellations(8)[:3], "v1")
	resplit := h
	resplit.Split = resume.Digest(count.Constellations(8)[1:])
	for name, tc := range map[string]struct {
		old  resume.Header
		want string
	}{
		"n":       {header(9, "v1"), "n=9"},
		"shard":   {sharded, `shard "1/2"`},
		"split":   {resplit, "split the board otherwise"},
		"version": {header(8, "v0"), "nqueens v0"},
	} {
		path := filepath.Join(dir, name)
		s := open(t, path, tc.old)
		s.Record(0, 1)
		s.Close()
		s = open(t, path, h)
		if s.Len() != 0 || !strings.Contains(s.Replaced, tc.want) {
			t.Errorf("%s: %d known, replaced %q; want none, saying %q", name, s.Len(), s.Replaced, tc.want)
		}
		s.Close()
		if s = open(t, path, h); s.Replaced != "" {
			t.Errorf("%s: the replaced state is not this count's: %q", name, s.Replaced)
		}
	}
	path := filepath.Join(dir, "junk")
	os.WriteFile(path, []byte("hello\n1 2\n"), 0o644)
	if s := open(t, path, h); !strings.Contains(s.Replaced, "not a count state") {
		t.Errorf("junk: replaced %q", s.Replaced)
	}
}

// TestResumeBadRecord checks that a malformed or contradictory record is
// an error naming the file and the line, not a silent loss.
func TestResumeBadRecord(t *testing.T) {
	h := header(8, "v1")
	for _, tc := range []struct{ rec, want string }{
		{"1 x\n", `line 3: "1 x" is not a work unit`},
		{"99 1\n", `line 3: "99 1" is not a work unit below`},
		{"-1 1\n", "line 3"},
		{"1 5\n", "line 3: unit 1 found twice, with 4 and 5"},
	} {
		path := filepath.Join(t.TempDir(), "s")
		s := open(t, path, h)
		s.Record(1, 4)
		s.Close()
		f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(tc.rec)
		f.Close()
		_, err := resume.Open(path, h)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("record %q: %v; want an error naming %s and saying %q", tc.rec, err, path, tc.want)
		}
	}
}

// TestRemove checks that a finished count's state goes.
func TestRemove(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s")
	s := open(t, path, header(6, "v1"))
	if err := s.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("state after Remove: %v", err)
	}
}

// TestDefaultPath checks the state's place in the user's cache directory.
func TestDefaultPath(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	for s, want := range map[nqueens.Shard]string{
		{}:                    "count-20.state",
		{Index: 3, Count: 64}: "count-20-shard-3-of-64.state",
	} {
		got, err := resume.DefaultPath(20, s)
		if err != nil || got != filepath.Join(cache, "nqueens", want) {
			t.Errorf("DefaultPath(20, %v) = %q, %v; want %s in %s/nqueens", s, got, err, want, cache)
		}
	}
}
