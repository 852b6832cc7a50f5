package main

import (
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostileInput feeds every argument, flag, environment variable and
// config value bad values: each must get one short line naming the value
// and what is allowed, a usage exit status, no panic, and leave the
// catalog byte for byte as it was.
func TestHostileInput(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	db := filepath.Join(dir, "nqueens.db")
	if _, _, err := runCLI(t, "--db", db, "build", "4-6", "-q"); err != nil {
		t.Fatal(err)
	}
	sum := func() [32]byte {
		data, err := os.ReadFile(db)
		if err != nil {
			t.Fatal(err)
		}
		return sha256.Sum256(data)
	}
	before := sum()
	huge := strings.Repeat("7", 10<<20) // a 10 MB argument

	type tc struct {
		name string
		args []string
		env  map[string]string
		conf string // config.yaml content, if any
		want string // in the message
	}
	var tests []tc
	for _, n := range []string{"-1", "0", "33", "1e3", "８", "1-", "5-3", "1,,2", "", huge, "4;rm -rf /", "0x10", "+8", "8 8"} {
		for _, cmd := range []string{"build", "count", "verify"} {
			tests = append(tests, tc{name: cmd + " " + short(n), args: []string{cmd, "--", n}, want: "n"})
		}
		for _, cmd := range []string{"export", "show"} {
			tests = append(tests, tc{name: cmd + " " + short(n), args: []string{cmd, "--", n}, want: "n"})
		}
		if n != "33" { // solve goes up to 10,000,000
			tests = append(tests, tc{name: "solve " + short(n), args: []string{"solve", "--", n}, want: "n must be"})
		}
	}
	tests = append(tests,
		tc{name: "format", args: []string{"export", "4", "--format", "xml"}, want: `unknown format "xml": must be one of json, ndjson, csv, leetcode, grid, svg, html, parquet`},
		tc{name: "huge format", args: []string{"export", "4", "--format", huge}, want: "unknown format"},
		tc{name: "solve format", args: []string{"solve", "8", "--format", "pdf"}, want: `unknown format "pdf"`},
		tc{name: "workers", args: []string{"count", "8", "--workers", "-1"}, want: `--workers "-1": want a whole number from 0 to 1024`},
		tc{name: "workers text", args: []string{"count", "8", "--workers", "many"}, want: `--workers "many": want a whole number from 0 to 1024`},
		tc{name: "max-rows-n", args: []string{"build", "4", "--max-rows-n", "0"}, want: `--max-rows-n "0": want a whole number from 1 to 32`},
		tc{name: "max-n", args: []string{"build", "4", "--max-n", "0"}, want: `--max-n "0": want a whole number from 1 to 32`},
		tc{name: "max-n and max-rows-n", args: []string{"build", "4", "--max-n", "5", "--max-rows-n", "6"}, want: "--max-n and --max-rows-n set the same key, max_rows_n: give --max-rows-n alone"},
		tc{name: "class", args: []string{"export", "4", "--class", "0"}, want: "--class must be 1 or more, got 0"},
		tc{name: "class text", args: []string{"show", "4", "--class", "x"}, want: `--class "x": want a whole number`},
		tc{name: "limit", args: []string{"show", "4", "--limit", "-3"}, want: `--limit "-3": want a whole number`},
		tc{name: "shard", args: []string{"count", "8", "--shard", "1/0"}, want: `--shard "1/0": K must be a whole number`},
		tc{name: "shard huge", args: []string{"count", "8", "--shard", huge}, want: "--shard"},
		tc{name: "estimate shard", args: []string{"count", "20", "--estimate", "--shard", "0/2"}, want: "--estimate estimates a whole count: leave out --shard and --combine"},
		tc{name: "estimate combine", args: []string{"count", "--estimate", "--combine", "part.json"}, want: "--estimate estimates a whole count"},
		tc{name: "estimate class search", args: []string{"count", "20", "--estimate", "--class-search"}, want: "--estimate estimates the counts on the CPU, by the join or by constellations"},
		tc{name: "db empty", args: []string{"stats", "--db", ""}, want: `--db "": want a file name (a string of 1 to 4096 bytes, no NUL)`},
		tc{name: "db huge", args: []string{"stats", "--db", huge}, want: `--db "7777777777777777777777777777777777777777"... (10485760 bytes): want a file name`},
		tc{name: "db NUL", args: []string{"stats", "--db", "a\x00b"}, want: "no NUL"},
		tc{name: "env workers", args: []string{"stats"}, env: map[string]string{"NQUEENS_WORKERS": "abc"}, want: `NQUEENS_WORKERS="abc": want a whole number from 0 to 1024`},
		tc{name: "env max", args: []string{"build", "4"}, env: map[string]string{"NQUEENS_MAX_ROWS_N": "-5"}, want: `NQUEENS_MAX_ROWS_N="-5": want a whole number from 1 to 32`},
		tc{name: "env former max", args: []string{"build", "4"}, env: map[string]string{"NQUEENS_MAX_BUILD_N": "-5"}, want: `NQUEENS_MAX_BUILD_N="-5": want a whole number from 1 to 32`},
		tc{name: "env quiet", args: []string{"stats"}, env: map[string]string{"NQUEENS_QUIET": "maybe"}, want: `NQUEENS_QUIET="maybe": want true or false (or 1, 0, t, f)`},
		tc{name: "env config", args: []string{"stats"}, env: map[string]string{"NQUEENS_CONFIG": "nosuch.yaml"}, want: "config file nosuch.yaml: no such file or directory"},
		tc{name: "config not yaml", args: []string{"stats"}, conf: "db: [x\n  : :", want: "config.yaml: not valid YAML: line 1: did not find expected ',' or ']'"},
		tc{name: "config unknown key", args: []string{"stats"}, conf: "db: nqueens.db\ncolour: blue\n", want: `config.yaml: unknown key "colour": want db, workers, max_rows_n or quiet`},
		tc{name: "config wrong type", args: []string{"stats"}, conf: "workers: [1, 2]\n", want: "config.yaml: workers: a list: want a whole number from 0 to 1024"},
		tc{name: "config negative", args: []string{"stats"}, conf: "max_rows_n: -5\n", want: "config.yaml: max_rows_n: -5: want a whole number from 1 to 32"},
		tc{name: "config former negative", args: []string{"stats"}, conf: "max_build_n: -5\n", want: "config.yaml: max_build_n: -5: want a whole number from 1 to 32"},
		tc{name: "config huge db", args: []string{"stats"}, conf: "db: " + strings.Repeat("x", 5000) + "\n", want: `config.yaml: db: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"... (5000 bytes): want a file name`},
		tc{name: "config binary", args: []string{"stats"}, conf: "\x00\x01\x02\xff", want: "config.yaml: not valid YAML: "},
		tc{name: "config float", args: []string{"build", "8"}, conf: "workers: 2.5\n", want: "config.yaml: workers: 2.5: want a whole number from 0 to 1024"},
		tc{name: "config bool for int", args: []string{"build", "8"}, conf: "workers: true\n", want: "config.yaml: workers: true: want a whole number from 0 to 1024"},
		tc{name: "config string for int", args: []string{"build", "8"}, conf: "workers: \"4\"\n", want: `config.yaml: workers: "4": want a whole number from 0 to 1024`},
		tc{name: "config overflow", args: []string{"build", "8"}, conf: "workers: 99999999999999999999\n", want: "config.yaml: workers: 99999999999999999999: want a whole number from 0 to 1024"},
		tc{name: "config int64 overflow", args: []string{"build", "8"}, conf: "max_rows_n: 18446744073709551617\n", want: "config.yaml: max_rows_n: 18446744073709551617: want a whole number from 1 to 32"},
		tc{name: "config empty value", args: []string{"build", "8"}, conf: "workers:\n", want: "config.yaml: workers: no value: want a whole number from 0 to 1024"},
		tc{name: "config unknown empty", args: []string{"build", "8"}, conf: "colour:\n", want: `config.yaml: unknown key "colour": want db, workers, max_rows_n or quiet`},
		tc{name: "config near key", args: []string{"build", "8"}, conf: "worker: 2\n", want: `config.yaml: unknown key "worker" (did you mean "workers"?)`},
		tc{name: "config key case", args: []string{"build", "8"}, conf: "Max_Rows_N: 9\n", want: `config.yaml: unknown key "Max_Rows_N" (did you mean "max_rows_n"?)`},
		tc{name: "config quiet yes", args: []string{"build", "8"}, conf: "quiet: yes\n", want: `config.yaml: quiet: "yes": want true or false`},
		tc{name: "config db number", args: []string{"build", "8"}, conf: "db: 3\n", want: "config.yaml: db: 3: want a file name (a string of 1 to 4096 bytes, no NUL)"},
		tc{name: "config db empty", args: []string{"build", "8"}, conf: "db:\n", want: "config.yaml: db: no value: want a file name"},
		tc{name: "config two documents", args: []string{"build", "8"}, conf: "workers: 1\n---\nworkers: 2\n", want: "config.yaml: holds 2 YAML documents; want one"},
		tc{name: "config key twice", args: []string{"build", "8"}, conf: "workers: 1\nquiet: true\nworkers: 2\n", want: `config.yaml: key "workers" given twice (lines 1 and 3)`},
		tc{name: "config list", args: []string{"build", "8"}, conf: "- workers\n", want: "config.yaml: want a mapping of keys (db, workers, max_rows_n, quiet), got a list"},
		tc{name: "env workers float", args: []string{"build", "8"}, env: map[string]string{"NQUEENS_WORKERS": "2.5"}, want: `NQUEENS_WORKERS="2.5": want a whole number from 0 to 1024`},
		tc{name: "env workers overflow", args: []string{"build", "8"}, env: map[string]string{"NQUEENS_WORKERS": "99999999999999999999"}, want: `NQUEENS_WORKERS="99999999999999999999": want a whole number from 0 to 1024`},
		tc{name: "env workers octal", args: []string{"build", "8"}, env: map[string]string{"NQUEENS_WORKERS": "010"}, want: `NQUEENS_WORKERS="010": want a whole number from 0 to 1024`},
		tc{name: "env db huge", args: []string{"build", "8"}, env: map[string]string{"NQUEENS_DB": huge[:5000]}, want: `NQUEENS_DB="7777777777777777777777777777777777777777"... (5000 bytes): want a file name`},
		tc{name: "flag workers float", args: []string{"build", "8", "--workers", "2.5"}, want: `--workers "2.5": want a whole number from 0 to 1024`},
		tc{name: "flag quiet", args: []string{"build", "8", "--quiet=maybe"}, want: `--quiet "maybe": want true or false`},
		tc{name: "config too large", args: []string{"build", "8"}, conf: "# " + huge + "\n", want: "config file config.yaml: larger than 1 MB (1048576 bytes)"},
		tc{name: "config dev zero", args: []string{"--config", "/dev/zero", "build", "8"}, want: "config file /dev/zero: larger than 1 MB (1048576 bytes)"},
	)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			if tt.conf != "" {
				os.WriteFile("config.yaml", []byte(tt.conf), 0o644)
				defer os.Remove("config.yaml")
			}
			args := append([]string{"--db", db}, tt.args...)
			if strings.HasPrefix(tt.name, "db ") || tt.conf != "" || tt.env != nil || tt.args[0] == "--config" {
				args = tt.args // the default ./nqueens.db is the catalog
			}
			_, _, err := runCLI(t, args...)
			if err == nil {
				t.Fatalf("accepted")
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("message of more than one line: %q", short(err.Error()))
			}
			msg := oneLine(err.Error())
			if !strings.Contains(msg, tt.want) {
				t.Errorf("message %q does not say %q", short(msg), tt.want)
			}
			if len(msg) > 400 {
				t.Errorf("message of %d bytes: %q", len(msg), short(msg))
			}
			var ue usageError
			if code := exitCode(err); code != exitUsage && !errors.As(err, &ue) {
				t.Errorf("exit status %d, want %d: %s", code, exitUsage, short(msg))
			}
			if sum() != before {
				t.Fatalf("the catalog changed")
			}
		})
	}
	// A name with spaces, quotes and semicolons is a file name like any other.
	for _, name := range []string{"a b.csv", `q"u'o;te.csv`, "semi;colon; rm -rf.csv"} {
		out := filepath.Join(dir, name)
		if _, _, err := runCLI(t, "--db", db, "export", "6", "--format", "csv", "-o", out); err != nil {
			t.Errorf("export -o %q: %v", name, err)
		} else if data, _ := os.ReadFile(out); !strings.HasPrefix(string(data), "n,class,orbit,symmetry,placement\n6,1,4,rot180,") {
			t.Errorf("export -o %q wrote %q", name, data)
		}
	}
}

// short cuts a long value for test names and messages.
func short(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
