package main

import (
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/internal/testutil"
)

// TestDamagedFilesUntouched points every command that opens a catalog at
// files that are not good catalogs: each gets one line naming the problem,
// a non-zero exit, and the file keeps every byte, with nothing new beside
// it.
func TestDamagedFilesUntouched(t *testing.T) {
	t.Parallel()
	data := testutil.ReadFile(t, sharedCatalog(t, "11"))
	shard := builtCatalog(t, "5", "--shard", "0/1")

	files := map[string]func(path string){
		"not sqlite": func(p string) { os.WriteFile(p, []byte(strings.Repeat("my notes, not a database\n", 200)), 0o644) },
		"truncated":  func(p string) { os.WriteFile(p, data[:len(data)/2+1000], 0o644) },
		"cut to a page": func(p string) {
			os.WriteFile(p, data[:4096*3], 0o644) // whole pages, header promising more
		},
		"foreign sqlite": func(p string) {
			db, _ := sql.Open("sqlite", p)
			db.Exec(`CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance REAL); INSERT INTO accounts VALUES (1, 100)`)
			db.Close()
		},
		"newer schema": func(p string) {
			os.WriteFile(p, data, 0o644)
			db, _ := sql.Open("sqlite", p)
			db.Exec(`INSERT INTO goose_db_version (version_id, is_applied) VALUES (42, 1); PRAGMA journal_mode=DELETE`)
			db.Close()
		},
		"garbage header": func(p string) {
			d := slices.Clone(data)
			copy(d[16:], []byte{0, 3}) // page size 3
			os.WriteFile(p, d, 0o644)
		},
	}
	wants := map[string]string{
		"not sqlite":     "not an nqueens catalog: not a SQLite database",
		"truncated":      "catalog file is damaged",
		"cut to a page":  "catalog file is damaged",
		"foreign sqlite": "not an nqueens catalog: a SQLite database of another program",
		"newer schema":   "newer",
		"garbage header": "catalog file is damaged: bad page size",
	}
	commands := [][]string{
		{"build", "4"}, {"stats"}, {"stats", "--json"}, {"export", "11"}, {"show", "11"}, {"verify"}, {"verify", "11"},
	}
	for name, make := range files {
		for _, c := range commands {
			t.Run(name+"/"+strings.Join(c, " "), func(t *testing.T) {
				dir := t.TempDir()
				path := filepath.Join(dir, "c.db")
				make(path)
				before := testutil.Sum(t, path)
				_, _, err := runCLI(t, append([]string{"--db", path}, c...)...)
				if err == nil {
					t.Fatal("accepted")
				}
				msg := oneLine(err.Error())
				if !strings.Contains(msg, wants[name]) || strings.Contains(err.Error(), "\n") {
					t.Errorf("message %q, want one line saying %q", msg, wants[name])
				}
				if exitCode(err) == exitOK {
					t.Errorf("exit status 0")
				}
				if testutil.Sum(t, path) != before {
					t.Errorf("%s changed the file", strings.Join(c, " "))
				}
				if entries, _ := os.ReadDir(dir); len(entries) != 1 {
					var names []string
					for _, e := range entries {
						names = append(names, e.Name())
					}
					t.Errorf("files beside the catalog: %v", names)
				}
			})
		}
		t.Run(name+"/merge", func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "c.db")
			make(path)
			before := testutil.Sum(t, path)
			if _, _, err := runCLI(t, "merge", filepath.Join(dir, "out.db"), path); err == nil {
				t.Fatal("merge of a damaged shard accepted")
			}
			_, _, err := runCLI(t, "merge", path, shard)
			if err == nil || !strings.Contains(err.Error(), wants[name]) {
				t.Fatalf("merge into a damaged catalog: %v", err)
			}
			if testutil.Sum(t, path) != before {
				t.Errorf("merge changed the file")
			}
		})
	}
}
