// Package resume keeps the work of a long count: a state file that
// records each work unit's solutions as the count finds them (a
// constellation's, or a unit of the join's), so that a count stopped by
// Ctrl-C, a kill or a device fault resumes from the units it finished
// when it is run again.
//
// A state file is one line of JSON, the Header, then one line for each
// unit found: its index in the list counted, its solutions and a
// checksum, in decimal and hex ("17 52814 9c1e03aa\n"). The checksum is
// the CRC-32C of "index solutions" continued from the CRC-32C of the
// header line, so that a record edited, torn, merged with another or
// copied from another count's state fails it.
//
// The file is owned: the count that opens it holds an exclusive lock
// (flock) on it for its whole life, and a second count on the same file
// is refused at once, naming the process that holds it. Records are
// appended whole, one write(2) each, through O_APPEND. On reading, a line
// that fails its checksum or its unit's bounds is dropped and only its
// unit is searched again; every good line is kept. A file that is not a
// count state (anything but an empty file or a state, a symbolic link,
// a device, a FIFO, a read-only file, the files of a SQLite catalog) is
// refused and never written, truncated, renamed or removed. Each engine
// reports whole constellations (count.Engine), so a count stopped on one
// engine that counts constellations resumes on another; the join counts
// units of its own, so its states resume with the join alone.
package resume

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math/bits"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/input"
	"github.com/nqueens/nqueens/internal/catalogfile"
	"github.com/nqueens/nqueens/internal/phrase"
)

// format is the Header's format, which a state file of another format
// does not match: such a state is replaced.
const format = formatPrefix + "2"

// formatPrefix starts the format of every version of the state file: a
// header whose format has it is a count state, of this format or not.
const formatPrefix = "nqueens count state "

// Header says which count a state file belongs to: a count resumes only
// from a state of the same n, shard, split and version.
type Header struct {
	Format string `json:"format"`
	N      int    `json:"n"`
	// Shard is "I/K", or "" for the whole board.
	Shard string `json:"shard"`
	// Units is the number of work units counted, Split their Digest
	// (count.Units): which constellations, in which orientation and
	// order, or which units of the join.
	Units int    `json:"units"`
	Split string `json:"split"`
	// Version is the version of nqueens that counts, as nqueens --version
	// prints it.
	Version string `json:"version"`
}

// NewHeader returns the header of a count of u, the work units of a
// board of n or of shard s of it, by version.
func NewHeader(n int, s nqueens.Shard, u count.Units, version string) Header {
	h := Header{Format: format, N: n, Units: u.Len(), Split: u.Digest(), Version: version}
	if !s.IsWhole() {
		h.Shard = s.String()
	}
	return h
}

// castagnoli is the CRC-32C table of the records' checksums.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// State is an open state file, held by one count at a time (the lock goes
// when it is closed, removed or set aside, or the process ends).
type State struct {
	f     *os.File
	path  string
	seed  uint32 // the CRC-32C of the header line
	known map[int]uint64
	buf   []byte
	// replaced says why Open replaced a state file it found ("" if it
	// did not): another count's, another version's or format's.
	replaced string
	// dropped is the number of record lines Open dropped: each failed
	// its checksum or its unit's bounds, or contradicted another, and its
	// unit is searched again.
	dropped int
}

// Open opens the state file at path for the count h of the work units u
// (NewHeader), creating it (and its directory) if there is none, and
// locks it for the count's life. A state of another count (another
// header) is replaced, and State.Replaced says why; an empty file is
// taken as a new state. A cancelled ctx stops the open and the read at
// once, even where the disk does not answer, with an error that says
// "interrupted".
//
// It returns an error of one line naming the file, and changes nothing,
// if the file is held by another count (naming the process, where the
// system says), is not a regular file (a symbolic link, a directory, a
// device, a FIFO: refused before anything opens it, so without blocking),
// is read-only, is one of the files of a SQLite catalog (the catalog, or
// its -wal, -shm, -journal or .lock beside it), holds anything but a count
// state, or cannot be read or written; and, on Unix, if another user can
// change where the path leads: a directory on it that another user owns
// or may write (unless the sticky bit keeps this user's entries there),
// a symbolic link in a directory others may write, or a state file that
// another user owns.
func Open(ctx context.Context, path string, h Header, u count.Units) (*State, error) {
	head, err := json.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("state file: %w", err)
	}
	s := &State{path: path, seed: crc32.Checksum(head, castagnoli), known: map[int]uint64{}}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("state file %s: interrupted while opening it", path)
	}
	// The open runs in a goroutine, so that a cancelled ctx ends it at
	// once even on a disk that does not answer; a file it opens after
	// that is closed.
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened)
	go func() {
		f, err := openLocked(path)
		select {
		case done <- opened{f, err}:
		case <-ctx.Done():
			if f != nil {
				f.Close()
			}
		}
	}()
	select {
	case o := <-done:
		if o.err != nil {
			return nil, o.err
		}
		s.f = o.f
	case <-ctx.Done():
		return nil, fmt.Errorf("state file %s: interrupted while opening it", path)
	}
	if err := s.read(ctx, head, h, u); err != nil {
		s.f.Close()
		return nil, err
	}
	return s, nil
}

// openLocked opens the state file at path (openFile) and locks it, or
// returns the error that refuses it. First it checks that no other user
// can change the directories on the path (securePath).
func openLocked(path string) (*os.File, error) {
	if err := securePath(path); err != nil {
		return nil, err
	}
	for tries := 0; ; tries++ {
		f, err := openFile(path)
		if err != nil {
			return nil, err
		}
		held, pid, err := lock(f)
		if err != nil || held {
			f.Close()
		}
		switch {
		case err != nil:
			return nil, fmt.Errorf("lock state file %s: %w", path, err)
		case held && pid == 0 && tries < 10:
			continue // the holder may have let go since: look again
		case held:
			who := "another process"
			if pid > 0 {
				who = "process " + strconv.Itoa(pid)
			}
			return nil, fmt.Errorf("state file %s is in use by %s, another count of the same board: wait for it to end, or give this count a state file of its own", path, who)
		}
		// The file may have been removed or replaced between the open
		// and the lock (by the count that held it, once done): lock the
		// file that is at the path.
		if fi, err := os.Lstat(path); err == nil && sameFile(f, fi) {
			return f, nil
		}
		f.Close()
		if tries >= 10 {
			return nil, fmt.Errorf("state file %s keeps changing under this count", path)
		}
	}
}

// openFile opens the file at path for reading and appending, creating it
// if there is none, or returns the error that refuses it.
func openFile(path string) (*os.File, error) {
	for {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			// Not even a new file: SQLite would take it for the catalog's.
			if err := refuseCompanion(path); err != nil {
				return nil, err
			}
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return nil, &createError{fmt.Errorf("state file: %w", err)}
			}
			f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE|os.O_EXCL|noFollow, 0o600)
			if errors.Is(err, fs.ErrExist) {
				continue // made by another count meanwhile
			} else if err != nil {
				return nil, &createError{fmt.Errorf("create state file: %w", err)}
			}
			return f, nil
		} else if errors.Is(err, syscall.ENOTDIR) || errors.Is(err, fs.ErrPermission) {
			// A file where a directory should be, or one this user may
			// not search: no state can be made there.
			return nil, &createError{fmt.Errorf("state file: %w", err)}
		} else if err != nil {
			return nil, fmt.Errorf("state file: %w", err)
		}
		if err := refuse(path, fi); err != nil {
			return nil, err
		}
		// O_NONBLOCK and O_NOFOLLOW: should a FIFO or a link take the
		// file's place since Lstat, the open neither waits nor follows.
		f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|noFollow|noBlock, 0)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return nil, fmt.Errorf("open state file: %w", err)
		}
		if now, err := f.Stat(); err != nil || !now.Mode().IsRegular() || !os.SameFile(fi, now) {
			f.Close()
			continue
		}
		return f, nil
	}
}

// createError is openFile's error when a new state file, or its
// directory, cannot be made.
type createError struct{ err error }

func (e *createError) Error() string { return e.err.Error() }
func (e *createError) Unwrap() error { return e.err }

// refuse returns the error that refuses the file at path, of info fi, as
// a state, or nil: anything but a regular file, a file no one may write,
// and the files of a SQLite catalog.
func refuse(path string, fi fs.FileInfo) error {
	kind := ""
	switch m := fi.Mode(); {
	case m&fs.ModeSymlink != 0:
		kind = "a symbolic link"
	case m.IsDir():
		kind = "a directory"
	case m&fs.ModeNamedPipe != 0:
		kind = "a FIFO"
	case m&fs.ModeDevice != 0:
		kind = "a device"
	case m&fs.ModeSocket != 0:
		kind = "a socket"
	case !m.IsRegular():
		kind = "not a regular file"
	case m.Perm()&0o200 == 0:
		return fmt.Errorf("state file %s is read-only (mode %s): it is left as it is", path, m)
	}
	if kind != "" {
		return fmt.Errorf("state file %s is %s, not a state file: it is left as it is", path, kind)
	}
	return refuseCompanion(path)
}

// refuseCompanion returns the error that refuses path as a state if it
// names a file beside a SQLite catalog (catalogfile.Suffixes: its log,
// shared memory, journal or build lock), whether or not that file exists
// yet, or nil.
func refuseCompanion(path string) error {
	for _, suffix := range catalogfile.Suffixes() {
		if db, ok := strings.CutSuffix(path, suffix); ok && isSQLite(db) {
			return fmt.Errorf("state file %s is a file of the SQLite catalog %s: it is left as it is", path, db)
		}
	}
	return nil
}

// isSQLite reports whether path names a regular file (through links) that
// starts as a SQLite database does (catalogfile.IsSQLite).
func isSQLite(path string) bool {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	f, err := os.OpenFile(path, os.O_RDONLY|noBlock, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, len(catalogfile.Magic))
	_, err = io.ReadFull(f, buf)
	return err == nil && catalogfile.IsSQLite(buf)
}

// sameFile reports whether f is the file fi describes.
func sameFile(f *os.File, fi fs.FileInfo) bool {
	now, err := f.Stat()
	return err == nil && os.SameFile(now, fi)
}

// read reads the locked file into s.known if it is the state of h, makes
// it the state of h (writing head) if it is empty or another count's
// state, and refuses it otherwise.
func (s *State) read(ctx context.Context, head []byte, h Header, u count.Units) error {
	data, err := io.ReadAll(input.Reader(ctx, s.f))
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("state file %s: interrupted while reading it", s.path)
	case err != nil:
		return fmt.Errorf("read state file %s: %w", s.path, err)
	}
	first, rest, whole := bytes.Cut(data, []byte("\n"))
	var got Header
	switch {
	case len(data) == 0:
		return s.start(head)
	case !whole && bytes.HasPrefix(first, []byte(`{"format":"`+strings.TrimSpace(formatPrefix))):
		// A header cut short as it was written (a full disk).
		s.replaced = "its header was cut short"
		return s.start(head)
	case json.Unmarshal(first, &got) != nil || !strings.HasPrefix(got.Format, formatPrefix):
		what := "its first line is " + phrase.Quote(string(first))
		if catalogfile.IsSQLite(data) {
			what = "it is a SQLite database"
		}
		return fmt.Errorf("state file %s is not a count state (%s): it is left as it is", s.path, what)
	case got.Format != format:
		s.replaced = "it was a count state of another format, " + phrase.Quote(got.Format)
	case got.N != h.N || got.Shard != h.Shard:
		// Another count's work, whose own path this is: not this count's
		// to throw away.
		what := fmt.Sprintf("n=%d", got.N)
		if got.Shard != "" {
			what += " shard " + got.Shard
		}
		return fmt.Errorf("state file %s holds the state of another count, of %s (%s kept): give this count another file, or delete it", s.path, what, phrase.Plural(bytes.Count(rest, []byte("\n")), "work unit"))
	case got.Units != h.Units || got.Split != h.Split:
		s.replaced = "its count split the board otherwise"
	case got.Version != h.Version:
		s.replaced = fmt.Sprintf("it was made by nqueens %s", got.Version)
	case !bytes.Equal(first, head):
		s.replaced = "its header is not the one this version writes"
	}
	if s.replaced != "" {
		return s.start(head)
	}
	// Records: every whole line; a last line without its newline was cut
	// short by a kill or a full disk and is cut off, so that the next
	// record starts a line of its own.
	end := bytes.LastIndexByte(rest, '\n') + 1
	if end < len(rest) {
		if err := s.f.Truncate(int64(len(first) + 1 + end)); err != nil {
			return fmt.Errorf("state file %s: %w", s.path, err)
		}
	}
	var bound uint64 // the most solutions of a board, 0 if unknown
	if k, ok := nqueens.KnownCounts(h.N); ok {
		bound = k.Total
	}
	bad := map[int]bool{} // units found twice with different solutions
	for rec := range bytes.Lines(rest[:end]) {
		i, sol, ok := s.parse(bytes.TrimSuffix(rec, []byte("\n")), u.Len())
		if ok && bound > 0 {
			hi, lo := bits.Mul64(sol, u.Orbit(i))
			ok = hi == 0 && lo <= bound
		}
		switch prev, dup := s.known[i]; {
		case !ok:
			s.dropped++
		case bad[i] || dup && prev != sol:
			s.dropped++
			bad[i] = true
			delete(s.known, i)
		default:
			s.known[i] = sol
		}
	}
	return nil
}

// start makes the file a new state: it empties it and writes head.
func (s *State) start(head []byte) error {
	if err := s.f.Truncate(0); err != nil {
		return fmt.Errorf("state file %s: %w", s.path, err)
	}
	if _, err := s.f.Write(append(head, '\n')); err != nil {
		return fmt.Errorf("write state file %s: %w", s.path, err)
	}
	return nil
}

// parse reads a record, "index solutions checksum", and reports whether
// its checksum is right and its index that of one of units units.
func (s *State) parse(rec []byte, units int) (int, uint64, bool) {
	k := bytes.LastIndexByte(rec, ' ')
	if k < 0 {
		return 0, 0, false
	}
	sum, err := strconv.ParseUint(string(rec[k+1:]), 16, 32)
	if err != nil || len(rec)-k-1 != 8 || uint32(sum) != crc32.Update(s.seed, castagnoli, rec[:k]) {
		return 0, 0, false
	}
	a, b, ok := bytes.Cut(rec[:k], []byte(" "))
	i, err1 := strconv.Atoi(string(a))
	sol, err2 := strconv.ParseUint(string(b), 10, 64)
	if !ok || err1 != nil || err2 != nil || i < 0 || i >= units {
		return 0, 0, false
	}
	return i, sol, true
}

// Known returns the solutions of the work units the state holds, by
// index. The map is the caller's.
func (s *State) Known() map[int]uint64 {
	out := make(map[int]uint64, len(s.known))
	for i, v := range s.known {
		out[i] = v
	}
	return out
}

// Path returns the file's path.
func (s *State) Path() string { return s.path }

// Record appends the solutions of work unit i, with its checksum, in
// one write. Calls must not overlap.
func (s *State) Record(i int, solutions uint64) error {
	b := strconv.AppendInt(s.buf[:0], int64(i), 10)
	b = strconv.AppendUint(append(b, ' '), solutions, 10)
	sum := crc32.Update(s.seed, castagnoli, b)
	b = append(b, ' ')
	for shift := 28; shift >= 0; shift -= 4 {
		b = append(b, "0123456789abcdef"[sum>>uint(shift)&0xf])
	}
	s.buf = append(b, '\n')
	if _, err := s.f.Write(s.buf); err != nil {
		return fmt.Errorf("write state file %s: %w", s.path, err)
	}
	s.known[i] = solutions
	return nil
}

// len_ returns the number of work units the state holds.
func (s *State) len_() int { return len(s.known) }

// Close closes the file, which stays for the count to resume, and
// releases its lock.
func (s *State) Close() error {
	if err := s.f.Close(); err != nil {
		return fmt.Errorf("close state file %s: %w", s.path, err)
	}
	return nil
}

// remove removes the file, once its count is done, and closes it.
func (s *State) remove() error {
	err := os.Remove(s.path)
	s.f.Close()
	if err != nil {
		return fmt.Errorf("remove state file: %w", err)
	}
	return nil
}

// setAside renames the file to its path and ".bad" (".bad2", ".bad3", ...
// where that name is taken: no file is replaced), for a count whose
// numbers are wrong, and closes it. It returns the new path.
func (s *State) setAside() (string, error) {
	defer s.f.Close()
	for k := 1; k <= 100; k++ {
		bad := s.path + ".bad"
		if k > 1 {
			bad += strconv.Itoa(k)
		}
		if _, err := os.Lstat(bad); !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err := os.Rename(s.path, bad); err != nil {
			return "", fmt.Errorf("set aside state file: %w", err)
		}
		return bad, nil
	}
	return "", fmt.Errorf("set aside state file %s: %s.bad to .bad100 are all taken", s.path, s.path)
}

// DefaultPath returns where a count of n (or of shard s of it) keeps its
// state when the user names no file: nqueens/count-N.state, or
// count-N-shard-I-of-K.state, in the user's cache directory
// (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on Linux). It returns an
// error if there is no cache directory.
func DefaultPath(n int, s nqueens.Shard) (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("state file: %w", err)
	}
	name := fmt.Sprintf("count-%d.state", n)
	if !s.IsWhole() {
		name = fmt.Sprintf("count-%d-shard-%d-of-%d.state", n, s.Index, s.Count)
	}
	return filepath.Join(dir, "nqueens", name), nil
}
