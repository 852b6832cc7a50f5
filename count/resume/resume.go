// Package resume keeps the work of a long count: a state file that
// records each constellation's solutions as the count finds them, so that
// a count stopped by Ctrl-C, a kill or a device fault resumes from the
// constellations it finished when it is run again.
//
// A state file is one line of JSON, the Header, then one line for each
// constellation found: its index in the list counted and its solutions,
// in decimal ("17 52814\n"). Lines are appended one write at a time, so
// that a kill loses at most the line being written, which Open drops.
// Each engine reports whole constellations (count.Engine), so a count
// stopped on one engine resumes on another.
package resume

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/phrase"
)

// Format is the Header's format, which a state file of another format
// does not match.
const Format = "nqueens count state 1"

// Header says which count a state file belongs to: a count resumes only
// from a state of the same n, shard, split and version.
type Header struct {
	Format string `json:"format"`
	N      int    `json:"n"`
	// Shard is "I/K", or "" for the whole board.
	Shard string `json:"shard"`
	// Units is the number of constellations counted, Split the Digest of
	// them: which constellations, in which orientation and order.
	Units int    `json:"units"`
	Split string `json:"split"`
	// Version is the version of nqueens that counts, as nqueens --version
	// prints it.
	Version string `json:"version"`
}

// NewHeader returns the header of a count of cs, the constellations of a
// board of n or of shard s of it, by version.
func NewHeader(n int, s nqueens.Shard, cs []count.Constellation, version string) Header {
	h := Header{Format: Format, N: n, Units: len(cs), Split: Digest(cs), Version: version}
	if !s.IsWhole() {
		h.Shard = s.String()
	}
	return h
}

// Digest returns "sha256:" and the hex SHA-256 of the constellations' board
// size, orbit and border queens in the orientation searched, in order.
func Digest(cs []count.Constellation) string {
	h := sha256.New()
	for _, c := range cs {
		fmt.Fprintf(h, "%d %d %v\n", c.N(), c.Orbit(), c.Queens())
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// State is an open state file, written by one count at a time.
type State struct {
	f     *os.File
	path  string
	known map[int]uint64
	// Replaced says why Open replaced a state file it found ("" if it
	// did not): another count's, another version's, or not a state.
	Replaced string
}

// Open opens the state file at path for the count h, creating it (and
// its directory) if there is none. A file of another count (another
// header) is replaced, and State.Replaced says why. It returns an error
// if the file cannot be read or written, or holds a malformed line: the
// message names the file, which the user may delete.
func Open(path string, h Header) (*State, error) {
	s := &State{path: path, known: map[int]uint64{}}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("read count state: %w", err)
	default:
		var ok bool
		if ok, s.Replaced, err = s.read(data, h); err != nil {
			return nil, fmt.Errorf("count state %s: %w (delete it to start afresh)", path, err)
		} else if ok {
			// Drop a line cut short by a kill, and append from there.
			if s.f, err = os.OpenFile(path, os.O_WRONLY, 0); err != nil {
				return nil, fmt.Errorf("open count state: %w", err)
			}
			end := int64(bytes.LastIndexByte(data, '\n') + 1)
			if err := s.f.Truncate(end); err != nil {
				s.f.Close()
				return nil, fmt.Errorf("count state %s: %w", path, err)
			}
			if _, err := s.f.Seek(end, io.SeekStart); err != nil {
				s.f.Close()
				return nil, fmt.Errorf("count state %s: %w", path, err)
			}
			return s, nil
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("count state: %w", err)
	}
	head, err := json.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("count state: %w", err)
	}
	if s.f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644); err != nil {
		return nil, fmt.Errorf("create count state: %w", err)
	}
	if _, err := s.f.Write(append(head, '\n')); err != nil {
		s.f.Close()
		return nil, fmt.Errorf("write count state: %w", err)
	}
	return s, nil
}

// read reads a state file's data into s.known if its header is h, and
// returns whether it is, or why not. It returns an error for a record
// that cannot be read.
func (s *State) read(data []byte, h Header) (ok bool, why string, err error) {
	line, rest, _ := bytes.Cut(data, []byte("\n"))
	var got Header
	switch err := json.Unmarshal(line, &got); {
	case err != nil || got.Format != Format:
		return false, "it was not a count state of this format", nil
	case got.N != h.N || got.Shard != h.Shard:
		return false, fmt.Sprintf("it was the state of n=%d shard %q", got.N, got.Shard), nil
	case got.Units != h.Units || got.Split != h.Split:
		return false, "its count split the board otherwise", nil
	case got.Version != h.Version:
		return false, fmt.Sprintf("it was made by nqueens %s", got.Version), nil
	}
	// Records: every whole line; a last line without its newline was cut
	// short by a kill and is dropped.
	whole := rest[:bytes.LastIndexByte(rest, '\n')+1]
	for k := 0; len(whole) > 0; k++ {
		var rec []byte
		rec, whole, _ = bytes.Cut(whole, []byte("\n"))
		i, sol, err := parseRecord(rec, h.Units)
		if err != nil {
			return false, "", fmt.Errorf("line %d: %w", k+2, err)
		}
		if prev, dup := s.known[i]; dup && prev != sol {
			return false, "", fmt.Errorf("line %d: unit %d found twice, with %d and %d solutions", k+2, i, prev, sol)
		}
		s.known[i] = sol
	}
	return true, "", nil
}

// parseRecord reads "index solutions", index below units.
func parseRecord(rec []byte, units int) (int, uint64, error) {
	a, b, ok := bytes.Cut(rec, []byte(" "))
	i, err1 := strconv.Atoi(string(a))
	sol, err2 := strconv.ParseUint(string(b), 10, 64)
	if !ok || err1 != nil || err2 != nil || i < 0 || i >= units {
		return 0, 0, fmt.Errorf("%s is not a work unit below %d and its solutions", phrase.Quote(string(rec)), units)
	}
	return i, sol, nil
}

// Known returns the solutions of the constellations the state holds, by
// index, for count.Options.Known. The map is the caller's.
func (s *State) Known() map[int]uint64 {
	out := make(map[int]uint64, len(s.known))
	for i, v := range s.known {
		out[i] = v
	}
	return out
}

// Path returns the file's path.
func (s *State) Path() string { return s.path }

// Record appends the solutions of constellation i, in one write.
func (s *State) Record(i int, solutions uint64) error {
	line := strconv.AppendUint(append(strconv.AppendInt(nil, int64(i), 10), ' '), solutions, 10)
	if _, err := s.f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("write count state: %w", err)
	}
	s.known[i] = solutions
	return nil
}

// Len returns the number of constellations the state holds.
func (s *State) Len() int { return len(s.known) }

// Close closes the file, which stays for the count to resume.
func (s *State) Close() error {
	if err := s.f.Close(); err != nil {
		return fmt.Errorf("close count state: %w", err)
	}
	return nil
}

// Remove closes and removes the file, once its count is done.
func (s *State) Remove() error {
	s.f.Close()
	if err := os.Remove(s.path); err != nil {
		return fmt.Errorf("remove count state: %w", err)
	}
	return nil
}

// DefaultPath returns where a count of n (or of shard s of it) keeps its
// state when the user names no file: nqueens/count-N.state, or
// count-N-shard-I-of-K.state, in the user's cache directory
// (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on Linux). It returns an
// error if there is no cache directory.
func DefaultPath(n int, s nqueens.Shard) (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("count state: %w", err)
	}
	name := fmt.Sprintf("count-%d.state", n)
	if !s.IsWhole() {
		name = fmt.Sprintf("count-%d-shard-%d-of-%d.state", n, s.Index, s.Count)
	}
	return filepath.Join(dir, "nqueens", name), nil
}
