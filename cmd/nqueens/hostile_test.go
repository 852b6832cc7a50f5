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
		tc{name: "format", args: []string{"export", "4", "--format", "xml"}, want: `unknown format "xml": must be one of json, ndjson, csv, leetcode, svg, html`},
		tc{name: "huge format", args: []string{"export", "4", "--format", huge}, want: "unknown format"},
		tc{name: "solve format", args: []string{"solve", "8", "--format", "pdf"}, want: `unknown format "pdf"`},
		tc{name: "workers", args: []string{"count", "8", "--workers", "-1"}, want: "workers must be between 0 (all cores) and 1024, got -1"},
		tc{name: "workers text", args: []string{"count", "8", "--workers", "many"}, want: `invalid argument "many" for "--workers"`},
		tc{name: "max-n", args: []string{"build", "4", "--max-n", "0"}, want: "max_build_n must be between 1 and 32, got 0"},
		tc{name: "class", args: []string{"export", "4", "--class", "0"}, want: "--class must be 1 or more, got 0"},
		tc{name: "class text", args: []string{"show", "4", "--class", "x"}, want: `invalid argument "x" for "--class"`},
		tc{name: "limit", args: []string{"show", "4", "--limit", "-3"}, want: "--limit must be 1 or more, got -3"},
		tc{name: "shard", args: []string{"count", "8", "--shard", "1/0"}, want: `--shard "1/0": K must be a whole number`},
		tc{name: "shard huge", args: []string{"count", "8", "--shard", huge}, want: "--shard"},
		tc{name: "db empty", args: []string{"stats", "--db", ""}, want: "db must name a file, got an empty string"},
		tc{name: "db huge", args: []string{"stats", "--db", huge}, want: "db must be a file path (at most 4096 bytes, no NUL)"},
		tc{name: "db NUL", args: []string{"stats", "--db", "a\x00b"}, want: "no NUL"},
		tc{name: "env workers", args: []string{"stats"}, env: map[string]string{"NQUEENS_WORKERS": "abc"}, want: "workers"},
		tc{name: "env max", args: []string{"build", "4"}, env: map[string]string{"NQUEENS_MAX_BUILD_N": "-5"}, want: "max_build_n must be between 1 and 32, got -5"},
		tc{name: "env quiet", args: []string{"stats"}, env: map[string]string{"NQUEENS_QUIET": "maybe"}, want: "quiet"},
		tc{name: "env config", args: []string{"stats"}, env: map[string]string{"NQUEENS_CONFIG": "nosuch.yaml"}, want: "config file nosuch.yaml: no such file or directory"},
		tc{name: "config not yaml", args: []string{"stats"}, conf: "db: [x\n  : :", want: "config file config.yaml is not valid YAML"},
		tc{name: "config unknown key", args: []string{"stats"}, conf: "db: nqueens.db\ncolour: blue\n", want: "colour"},
		tc{name: "config wrong type", args: []string{"stats"}, conf: "workers: [1, 2]\n", want: "workers"},
		tc{name: "config negative", args: []string{"stats"}, conf: "max_build_n: -5\n", want: "max_build_n must be between 1 and 32, got -5"},
		tc{name: "config huge db", args: []string{"stats"}, conf: "db: " + strings.Repeat("x", 5000) + "\n", want: "db must be a file path"},
		tc{name: "config binary", args: []string{"stats"}, conf: "\x00\x01\x02\xff", want: "config file config.yaml"},
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
			if strings.HasPrefix(tt.name, "db ") || tt.conf != "" || tt.env != nil {
				args = tt.args // the default ./nqueens.db is the catalog
			}
			_, _, err := runCLI(t, args...)
			if err == nil {
				t.Fatalf("accepted")
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
