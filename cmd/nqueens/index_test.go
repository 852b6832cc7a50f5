package main

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/export"
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/store"
)

// dumpIndex returns the index of n in the catalog at path, every row of
// its blocks, symmetric classes and builds row as text, to compare two
// catalogs' indexes byte for byte.
func dumpIndex(t *testing.T, path string, n int) string {
	t.Helper()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var out strings.Builder
	for _, q := range []string{
		`SELECT block, first_entry, entries, classes_before, solutions_before, first_prefix, hex(data) FROM index_blocks WHERE n = ? ORDER BY block`,
		`SELECT class, placement, orbit FROM index_symmetric WHERE n = ? ORDER BY class`,
		`SELECT total, unique_count, orbit8, orbit4, orbit2, orbit1, complete, units_done, units_total, form, index_depth FROM builds WHERE n = ?`,
	} {
		rows, err := raw.Query(q, n)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintln(&out, vals...)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
	}
	return out.String()
}

// TestKilledIndexBuildResumes kills an index build of n = 14 (SIGKILL)
// while it is paused between commits, checks that the catalog keeps the
// blocks of its last commit, and runs the build again: it resumes and
// writes the same index, row for row, as a build that was never stopped.
func TestKilledIndexBuildResumes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	whole, killed := filepath.Join(dir, "whole.db"), filepath.Join(dir, "killed.db")
	if _, stderr, err := runCLI(t, "--db", whole, "build", "14", "--index", "-q"); err != nil {
		t.Fatalf("build: %v\n%s", err, stderr)
	}
	units := len(canonical.Units(14))
	cmd := command(t, dir, "build", "14", "--index", "--db", killed, "--workers", "1")
	cmd.Env = append(cmd.Env, commitRowsEnv+"=1")
	b := startPaused(t, cmd, pauseEnv, pausedLine, 700)
	b.stop()
	stdout, _, err := runCLI(t, "--db", killed, "stats", "14")
	if err != nil || !strings.Contains(stdout, fmt.Sprintf("no (640/%d)", units)) {
		t.Fatalf("after the kill at unit 700 of blocks of 64: %v\n%s", err, stdout)
	}
	_, stderr, err := runCLI(t, "--db", killed, "build", "14", "--index")
	if err != nil || !strings.Contains(stderr, fmt.Sprintf("n=14: resuming at work unit 640 of %s", phrase.Count(units))) {
		t.Fatalf("resumed build: %v\n%s", err, stderr)
	}
	if got, want := dumpIndex(t, killed, 14), dumpIndex(t, whole, 14); got != want {
		t.Errorf("the resumed index differs from the unbroken one:\n%s\nwant\n%s", got, want)
	}
}

// TestTamperedIndexRefused changes the index of n = 12 by hand, as a user
// with sqlite3 could, and runs the commands that read it: each refuses
// with one line naming n and pointing to verify, and verify names the
// fault with exit status 3.
func TestTamperedIndexRefused(t *testing.T) {
	t.Parallel()
	orig := sharedCatalog(t, "12", "--index")
	// Class 1787, the last, is of the last block (lookup names its
	// canonical form); class 1 is of block 0.
	last := `(SELECT max(block) FROM index_blocks WHERE n = 12)`
	readers := map[string][]string{
		"show-last":  {"show", "12", "--class", "1787"},
		"show-first": {"show", "12", "--class", "1"},
		"export":     {"export", "12", "--format", "csv"},
		"symmetric":  {"export", "12", "--symmetry", "rot180"},
		"lookup":     {"lookup", "4", "9", "1", "6", "11", "7", "2", "0", "3", "10", "8", "5"},
		// Class 1, of block 0, turned a half turn.
		"lookup-first": {"lookup", "8", "3", "5", "10", "1", "6", "0", "2", "4", "7", "9", "11"},
	}
	depth := indexDepth(t, orig, 12)
	// moved moves one class from the first prefix of block 0 to its
	// second: the sums of the block and of the index still agree.
	moved := editBlocks(t, orig, func(blocks map[int64][]byte) {
		blocks[0] = addClasses(blocks[0], depth, map[int]int{0: -1, 1: +1})
	})
	// across moves one class from the first prefix of block 1 to the last
	// of block 0, and block 1's classes before with it.
	across := editBlocks(t, orig, func(blocks map[int64][]byte) {
		blocks[0] = addClasses(blocks[0], depth, map[int]int{-1: +1})
		blocks[1] = addClasses(blocks[1], depth, map[int]int{0: -1})
	}) + `; UPDATE index_blocks SET classes_before = classes_before + 1 WHERE n = 12 AND block = 1`
	// flipped flips a bit of block 0's tenth byte.
	flipped := editBlocks(t, orig, func(blocks map[int64][]byte) { blocks[0][9] ^= 4 })
	for _, tt := range []struct {
		name    string
		sql     string
		readers []string
		verify  string
	}{
		{"counts not increasing", `UPDATE index_blocks SET classes_before = classes_before + 3 WHERE n = 12 AND block = ` + last,
			[]string{"show-last", "export", "lookup"}, "does not match its checksum"},
		{"counts not increasing, resealed", `UPDATE index_blocks SET classes_before = classes_before + 3 WHERE n = 12 AND block = ` + last + reseal,
			[]string{"show-last", "export", "lookup"}, "the counts are not increasing in turn"},
		{"counts shifted, resealed", `UPDATE index_blocks SET classes_before = classes_before + 3, solutions_before = solutions_before + 24 WHERE n = 12 AND block > 0` + reseal,
			[]string{"show-first", "export"}, "the counts are not increasing in turn"},
		{"totals not OEIS", `UPDATE builds SET total = total + 8, unique_count = unique_count + 1, orbit8 = orbit8 + 1 WHERE n = 12`,
			[]string{"show-first", "show-last", "export", "symmetric", "lookup"}, "the build records total 14208, unique 1788; OEIS A000170/A002562 say 14200, 1787"},
		{"data cut", `UPDATE index_blocks SET data = substr(data, 1, 20) WHERE n = 12 AND block = 0`,
			[]string{"show-first", "export"}, "index block 0 does not match its checksum"},
		{"data cut, resealed", `UPDATE index_blocks SET data = substr(data, 1, 20) WHERE n = 12 AND block = 0` + reseal,
			[]string{"show-first", "export"}, "index block 0 records 64 prefixes, more than its 20 bytes of data can hold"},
		{"data cut within a prefix, resealed", `UPDATE index_blocks SET data = substr(data, 1, length(data) - 1) WHERE n = 12 AND block = 0` + reseal,
			[]string{"show-first", "export"}, "index block 0 does not decode"},
		{"prefix count changed", `UPDATE index_blocks SET data = X'00000000' || substr(data, 5) WHERE n = 12 AND block = 0`,
			[]string{"show-first", "export"}, "index block 0"},
		{"a bit flipped", flipped,
			[]string{"show-first", "export", "lookup-first"}, "index block 0 does not match its checksum"},
		{"a class moved within a block", moved,
			[]string{"show-first", "export", "lookup-first"}, "index block 0 does not match its checksum"},
		{"a class moved across two blocks", across,
			[]string{"show-first", "export", "lookup-first"}, "does not match its checksum"},
		{"entries 10^12", `UPDATE index_blocks SET entries = 1000000000000 WHERE n = 12 AND block = 0`,
			[]string{"show-first", "export"}, "index block 0 does not match its checksum"},
		{"entries 10^12, resealed", `UPDATE index_blocks SET entries = 1000000000000 WHERE n = 12 AND block = 0` + reseal,
			[]string{"show-first", "export"}, "index block 0 records 1000000000000 prefixes, more than its"},
		{"entries 2^63-1 on the last block", `UPDATE index_blocks SET entries = 9223372036854775807 WHERE n = 12 AND block = ` + last,
			[]string{"show-last", "export", "lookup"}, "does not match its checksum"},
		{"entries 2^63-1 on the last block, resealed", `UPDATE index_blocks SET entries = 9223372036854775807 WHERE n = 12 AND block = ` + last + reseal,
			[]string{"show-last", "export", "lookup"}, "prefixes, more than its"},
		{"symmetric class changed", `UPDATE index_symmetric SET orbit = 4 WHERE n = 12 AND orbit = 2 AND class = (SELECT min(class) FROM index_symmetric WHERE n = 12 AND orbit = 2)`,
			[]string{"symmetric"}, "has orbit 4 recorded, but its orbit is 2"},
		{"symmetric class renumbered", `UPDATE index_symmetric SET class = class + 1 WHERE n = 12 AND class = (SELECT min(class) FROM index_symmetric WHERE n = 12 AND orbit = 4)`,
			[]string{"symmetric"}, "symmetric"},
		{"symmetric class dropped", `DELETE FROM index_symmetric WHERE n = 12 AND class = (SELECT min(class) FROM index_symmetric WHERE n = 12 AND orbit = 4)`,
			[]string{"symmetric"}, "symmetric"},
		{"symmetric class moved to another prefix", `UPDATE index_symmetric SET class = 1 WHERE n = 12 AND class = (SELECT max(class) FROM index_symmetric WHERE n = 12 AND orbit = 4)`,
			[]string{"symmetric"}, "symmetric"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db := tamperedCopy(t, orig, tt.sql)
			for _, name := range tt.readers {
				args := append([]string{"--db", db}, readers[name]...)
				_, _, err := runCLI(t, args...)
				msg := ""
				if err != nil {
					msg = err.Error()
				}
				if exitCode(err) != exitMismatch || strings.Contains(msg, "\n") || !strings.Contains(msg, "n=12") || !strings.Contains(msg, "nqueens verify") {
					t.Errorf("%s: exit %d, err %q, want %d and one line naming n=12 and verify", name, exitCode(err), msg, exitMismatch)
				}
			}
			stdout, _, err := runCLI(t, "--db", db, "verify", "12")
			if exitCode(err) != exitMismatch || !strings.Contains(stdout, tt.verify) {
				t.Errorf("verify: exit %d (%v), report %q; want %d naming %q", exitCode(err), err, stdout, exitMismatch, tt.verify)
			}
		})
	}
}

// TestIndexExportsAsRows exports n = 10 from a catalog of rows and from an
// index, in every format, of every class and of a range, by symmetry, with
// every solution (--all) and in lexicographic order: the bytes are the
// same; and show, lookup and stats --json (but for its form) agree.
func TestIndexExportsAsRows(t *testing.T) {
	t.Parallel()
	rows, index := builtCatalog(t, "10"), builtCatalog(t, "10", "--index")
	var cases [][]string
	for _, f := range export.FormatNames(export.Formats) {
		if f == "svg" { // one board
			cases = append(cases, []string{"export", "10", "--format", f, "--class", "47"})
			continue
		}
		cases = append(cases,
			[]string{"export", "10", "--format", f},
			[]string{"export", "10", "--format", f, "--all"},
			[]string{"export", "10", "--format", f, "--classes", "30-41"},
			[]string{"export", "10", "--format", f, "--symmetry", "rot180"})
	}
	cases = append(cases,
		[]string{"export", "10", "--all", "--order", "lex", "--format", "csv"},
		[]string{"export", "10", "--symmetry", "none", "--classes", "5-60", "--format", "ndjson"},
		[]string{"show", "10", "--class", "92"},
		[]string{"show", "10", "--classes", "3-9", "--ascii"},
		[]string{"lookup", "3", "7", "4", "8", "0", "9", "1", "5", "2", "6", "--json"})
	for _, c := range cases {
		want, _, err1 := runCLI(t, append([]string{"--db", rows}, c...)...)
		got, _, err2 := runCLI(t, append([]string{"--db", index}, c...)...)
		if err1 != nil || err2 != nil || got != want || got == "" {
			t.Errorf("%v: the index gives %d bytes (%v), the rows %d (%v), or others", c, len(got), err2, len(want), err1)
		}
	}
}

// indexDepth reads the rows a prefix of the index of n fixes in the
// catalog at path.
func indexDepth(t *testing.T, path string, n int) int {
	t.Helper()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var depth int
	if err := raw.QueryRow(`SELECT index_depth FROM builds WHERE n = ?`, n).Scan(&depth); err != nil {
		t.Fatal(err)
	}
	return depth
}

// reseal recomputes every block's checksum of n = 12 after an edit, as one
// who knows the format would: what each block tells is then checked.
const reseal = `; UPDATE index_blocks SET checksum = nqueens_block_checksum(n, block, first_entry, entries, classes_before, solutions_before, orbit4_before, orbit2_before, orbit1_before, first_prefix, data) WHERE n = 12`

// editBlocks reads the data of the index blocks of n = 12 in the catalog at
// path, lets edit change them, and returns the SQL that writes the changed
// blocks back (their checksums as they were).
func editBlocks(t *testing.T, path string, edit func(blocks map[int64][]byte)) string {
	t.Helper()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	rows, err := raw.Query(`SELECT block, data FROM index_blocks WHERE n = 12`)
	if err != nil {
		t.Fatal(err)
	}
	blocks, orig := map[int64][]byte{}, map[int64]string{}
	for rows.Next() {
		var k int64
		var data []byte
		if err := rows.Scan(&k, &data); err != nil {
			t.Fatal(err)
		}
		blocks[k], orig[k] = data, string(data)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	edit(blocks)
	var q []string
	for k, data := range blocks {
		if string(data) != orig[k] {
			q = append(q, fmt.Sprintf("UPDATE index_blocks SET data = X'%x' WHERE n = 12 AND block = %d", data, k))
		}
	}
	return strings.Join(q, "; ")
}

// addClasses adds to the classes that the prefixes of a block's data
// record, by prefix (-1 for the last), keeping the solutions each lacks:
// the block's data as the store encodes it (see store/internal/indexblock).
func addClasses(data []byte, depth int, add map[int]int) []byte {
	return editEntries(data, depth, func(classes []uint64) {
		for i := range classes {
			d, ok := add[i]
			if !ok && i == len(classes)-1 {
				d = add[-1]
			}
			classes[i] = uint64(int(classes[i]) + d)
		}
	})
}

// editEntries returns the data of an index block of an index of the given
// depth with the classes its prefixes record, in order, changed by edit.
func editEntries(data []byte, depth int, edit func(classes []uint64)) []byte {
	var heads [][]byte
	var classes, missing []uint64
	for len(data) > 0 {
		k := 1 + depth - int(data[0])
		heads = append(heads, data[:k])
		data = data[k:]
		c, m := binary.Uvarint(data)
		data = data[m:]
		miss, m := binary.Uvarint(data)
		data = data[m:]
		classes, missing = append(classes, c), append(missing, miss)
	}
	edit(classes)
	var out []byte
	for i, head := range heads {
		out = append(out, head...)
		out = binary.AppendUvarint(out, classes[i])
		out = binary.AppendUvarint(out, missing[i])
	}
	return out
}

// TestSquareSearchSaid exports and shows n = 12 stored as an index by a
// square on a row below its prefixes: the command says first that it
// searches every class, and answers as a catalog of rows does; a square on
// a row the prefixes fix, and --quiet, say nothing.
func TestSquareSearchSaid(t *testing.T) {
	t.Parallel()
	rows, index := builtCatalog(t, "12"), builtCatalog(t, "12", "--index")
	const said = "n=12 is stored as an index whose prefixes fix rows 0 to 2: a queen on row 7 is found by searching all 1,787 classes"
	for _, tt := range []struct {
		args []string
		say  bool
	}{
		{[]string{"export", "12", "--square", "7,2", "--format", "csv"}, true},
		{[]string{"export", "12", "--square", "7,2", "--format", "csv", "--all"}, true},
		{[]string{"show", "12", "--square", "7,2", "--ascii", "--limit", "3"}, true},
		{[]string{"export", "12", "--square", "7,2", "--format", "csv", "-q"}, false},
		{[]string{"export", "12", "--square", "1,2", "--format", "csv"}, false},
	} {
		want := mustRun(t, append([]string{"--db", rows}, tt.args...)...)
		got, stderr, err := runCLI(t, append([]string{"--db", index}, tt.args...)...)
		if err != nil || got != want {
			t.Errorf("%v: the index gives %v and\n%.300s\nthe rows\n%.300s", tt.args, err, got, want)
		}
		if strings.Contains(stderr, said) != tt.say {
			t.Errorf("%v: stderr %q; want it to say %q: %t", tt.args, stderr, said, tt.say)
		}
	}
}

// TestResumeOverRaisedBuildRefused stops `build 12 --index` part way,
// raises its builds row by a class of 8 solutions, and runs the build
// again: it is refused as a damaged catalog (exit 3, one line naming the
// index), and the row stays as it was, never finished with wrong counts.
func TestResumeOverRaisedBuildRefused(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "c.db")
	db, err := store.Open(context.Background(), path, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	stop, cancel := context.WithCancel(context.Background())
	units := 0
	_, err = db.Run(stop, 12, nqueens.Shard{}, store.RunOptions{Index: true, Progress: func(int, int) {
		if units++; units == 150 {
			cancel()
		}
	}})
	cancel()
	db.Close()
	if err == nil {
		t.Fatal("the build was not stopped")
	}
	raised := tamperedCopy(t, path, `UPDATE builds SET total = total + 8, unique_count = unique_count + 1, orbit8 = orbit8 + 1 WHERE n = 12`)
	before := mustRun(t, "--db", raised, "stats")
	_, _, err = runCLI(t, "--db", raised, "build", "12", "--index", "-q")
	if exitCode(err) != exitMismatch || err == nil || !strings.Contains(err.Error(), "n=12 index block") || strings.Contains(err.Error(), "\n") {
		t.Errorf("resumed over a raised builds row: exit %d, %v; want %d naming the index block", exitCode(err), err, exitMismatch)
	}
	if after := mustRun(t, "--db", raised, "stats"); after != before {
		t.Errorf("the refused build changed the catalog:\n%s\nwas\n%s", after, before)
	}
}
