package main

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTamperedRowsRefused changes the classes of n = 8 by hand, as a user
// with sqlite3 could, in each way the catalog cannot tell from its schema,
// and runs every command that reads those classes: each refuses with one
// line naming n and pointing to verify, and never prints the bad row;
// verify names the fault with exit status 3. The classes of n = 8 are
// 1: 04752613, 2: 05726314, 3: 13572064, 4: 14602753, ..., 12: 25147063.
func TestTamperedRowsRefused(t *testing.T) {
	t.Parallel()
	orig := sharedCatalog(t, "8")
	exportAll := []string{"export", "8", "--all", "--format", "csv"}
	readers := map[string][]string{
		"export":     {"export", "8"},
		"export-all": exportAll,
		"export-lex": {"export", "8", "--all", "--order", "lex", "--format", "csv"},
		"show":       {"show", "8", "--class", "3"},
		"lookup":     {"lookup", "1", "3", "5", "7", "2", "0", "6", "4"},
	}
	all := []string{"export", "export-all", "export-lex", "show", "lookup"}
	for _, tt := range []struct {
		name    string
		sql     string
		readers []string // the readers that must refuse
		verify  string   // in verify's report
	}{
		{"not a solution", `UPDATE classes SET placement = '13572046' WHERE n = 8 AND class = 3`,
			all, "class 3 (1 3 5 7 2 0 4 6) is not a solution"},
		{"not canonical", `UPDATE classes SET placement = '64205713' WHERE n = 8 AND class = 3`,
			all, "class 3 (6 4 2 0 5 7 1 3) is not canonical"},
		{"wrong orbit", `UPDATE classes SET orbit = 4 WHERE n = 8 AND class = 3`,
			all, "class 3 (1 3 5 7 2 0 6 4) has orbit 4 recorded, but its orbit is 8"},
		{"swapped", `UPDATE classes SET class = -1 WHERE n = 8 AND class = 3;
			UPDATE classes SET class = 3 WHERE n = 8 AND class = 4;
			UPDATE classes SET class = 4 WHERE n = 8 AND class = -1`,
			all, "is out of order or repeated"},
		{"duplicate", `UPDATE classes SET placement = '13572064' WHERE n = 8 AND class = 4`,
			[]string{"export", "export-all", "export-lex", "show"}, "class 4 (1 3 5 7 2 0 6 4) is out of order or repeated after 1 3 5 7 2 0 6 4"},
		{"renumbered", `UPDATE classes SET class = 20 WHERE n = 8 AND class = 3`,
			all, "class 4 (1 4 6 0 2 7 5 3) is numbered out of turn: class 3 was due"},
		{"deleted, counts agreeing", `DELETE FROM classes WHERE n = 8 AND class = 3;
			UPDATE classes SET class = class - 1 WHERE n = 8 AND class > 3;
			UPDATE builds SET total = 84, unique_count = 11, orbit8 = 10 WHERE n = 8`,
			all, "the classes add up to total 84, unique 11; OEIS A000170/A002562 say 92, 12"},
		{"numbered 0", `UPDATE classes SET class = 0 WHERE n = 8 AND class = 1`,
			[]string{"export", "export-all", "export-lex"}, "class 0 (0 4 7 5 2 6 1 3) is numbered out of turn: class 1 was due"},
		{"numbered below 0", `UPDATE classes SET class = -7 WHERE n = 8 AND class = 1`,
			[]string{"export", "export-all", "export-lex"}, "class -7 (0 4 7 5 2 6 1 3) is numbered out of turn: class 1 was due"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db := tamperedCopy(t, orig, tt.sql)
			for _, name := range tt.readers {
				args := append([]string{"--db", db}, readers[name]...)
				stdout, _, err := runCLI(t, args...)
				msg := ""
				if err != nil {
					msg = err.Error()
				}
				if err == nil || strings.Contains(msg, "\n") || !strings.Contains(msg, "n=8") || !strings.Contains(msg, "nqueens verify") {
					t.Errorf("%s: err %q, want one line naming n=8 and verify", name, msg)
				}
				for _, bad := range []string{"1 3 5 7 2 0 4 6", "13572046", "6 4 2 0 5 7 1 3", "64205713"} {
					if strings.Contains(stdout, bad) {
						t.Errorf("%s printed the bad row %s:\n%s", name, bad, stdout)
					}
				}
			}
			stdout, _, err := runCLI(t, "--db", db, "verify", "8")
			if exitCode(err) != exitMismatch || !strings.Contains(stdout, tt.verify) {
				t.Errorf("verify: exit %d (%v), report %q; want %d naming %q", exitCode(err), err, stdout, exitMismatch, tt.verify)
			}
		})
	}
}

// TestBadBuildTimeVerified changes a build's started_at by hand to text
// that is no time: verify reports it, exit 3, rather than failing to read
// the catalog, and stats names n and the field.
func TestBadBuildTimeVerified(t *testing.T) {
	t.Parallel()
	db := builtCatalog(t, "5-6")
	raw, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	_, err = raw.Exec(`UPDATE builds SET started_at = 'yesterday' WHERE n = 5`)
	raw.Close()
	if err != nil {
		t.Fatal(err)
	}
	stdout, _, err := runCLI(t, "--db", db, "verify")
	if exitCode(err) != exitMismatch || !strings.Contains(stdout, `read build n=5: started_at "yesterday" is no RFC 3339 time`) {
		t.Errorf("verify: exit %d (%v), %q", exitCode(err), err, stdout)
	}
	if _, _, err := runCLI(t, "--db", db, "stats"); err == nil || !strings.Contains(err.Error(), `read build n=5: started_at "yesterday" is no RFC 3339 time: the catalog is damaged`) {
		t.Errorf("stats: %v", err)
	}
}

// tamperedCopy copies the catalog at orig into a new file, runs query on
// the copy behind the store's back, and returns the copy's path.
func tamperedCopy(t *testing.T, orig, query string) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "c.db")
	data, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(db, data, 0o644); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(query); err != nil {
		t.Fatal(err)
	}
	return db
}
