package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWholeNumbers runs the command in-process with every way a whole
// number reaches it (an n, a list of n, a class K or K-L, a shard I/K, a
// flag, an NQUEENS_* variable, a config.yaml key, a column) written in the
// forms that Go, C and YAML 1.1 read as something else: each is refused
// with a usage error (exit status 2) in one line that names the source and
// the value, and the plain decimal form of the same number is accepted.
// Leading zeros are refused, not read as octal or as decimal: "010" is
// neither 8 nor 10.
func TestWholeNumbers(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	db := filepath.Join(dir, "nqueens.db")
	if _, stderr, err := runCLI(t, "--db", db, "build", "4-8", "-q"); err != nil {
		t.Fatalf("build: %v\n%s", err, stderr)
	}
	forms := []string{"010", "08", "00", "0x10", "0o10", "0b10", "1_000", "+5", "-0", " 5", "5 ", "1e1", "٥"}

	type tc struct {
		name string
		args func(x string) []string // the command, with x where the number goes
		good string                  // a number the command accepts there
		want string                  // in the message of a bad form
	}
	tests := []tc{
		{"n", func(x string) []string { return []string{"count", "-q", "--", x} }, "6", "n must be"},
		{"n list", func(x string) []string { return []string{"count", "-q", "4-" + x} }, "6", "n must be"},
		{"n list item", func(x string) []string { return []string{"count", "-q", "4," + x} }, "6", "n must be"},
		{"n of solve", func(x string) []string { return []string{"solve", "--", x} }, "8", "n must be"},
		{"--class", func(x string) []string { return []string{"show", "8", "--class", x} }, "10", `--class "`},
		{"--classes K", func(x string) []string { return []string{"export", "8", "--classes", x + "-12"} }, "10", "classes"},
		{"--classes L", func(x string) []string { return []string{"export", "8", "--classes", "1-" + x} }, "10", "classes"},
		{"--seed of sample", func(x string) []string { return []string{"sample", "8", "--seed", x} }, "10", `--seed "`},
		{"--seed of puzzle", func(x string) []string { return []string{"puzzle", "8", "--seed", x} }, "10", `--seed "`},
		{"--count of sample", func(x string) []string { return []string{"sample", "8", "--seed", "1", "--count", x} }, "10", `--count "`},
		{"--count of puzzle", func(x string) []string { return []string{"puzzle", "8", "--seed", "1", "--count", x} }, "2", `--count "`},
		{"--given", func(x string) []string { return []string{"puzzle", "8", "--seed", "1", "--given", x} }, "6", `--given "`},
		{"--limit of show", func(x string) []string { return []string{"show", "8", "--limit", x} }, "10", `--limit "`},
		{"--limit of complete", func(x string) []string { return []string{"complete", "1 _ _ _ _ _", "--list", "--limit", x} }, "10", `--limit "`},
		{"--sample", func(x string) []string { return []string{"verify", "8", "--sample", x} }, "10", `--sample "`},
		{"--workers", func(x string) []string { return []string{"count", "6", "-q", "--workers", x} }, "10", `--workers "`},
		{"--max-rows-n", func(x string) []string { return []string{"build", "4", "-q", "--max-rows-n", x} }, "10", `--max-rows-n "`},
		{"--shard K", func(x string) []string { return []string{"count", "8", "-q", "--shard", "1/" + x} }, "10", "K must be"},
		{"--shard I", func(x string) []string { return []string{"count", "8", "-q", "--shard", x + "/20"} }, "10", "I must be"},
	}
	// Spaces separate columns, and _ marks an empty square.
	columnForms := []string{"010", "08", "00", "0x10", "0o10", "0b10", "+5", "-0", "1e1", "٥"}
	for _, tt := range []tc{
		{"column of lookup", func(x string) []string { return []string{"lookup", "0 1 2 3 4 5 6 7 9 11 12 13 14 15 15 " + x} }, "", "not a column"},
		{"column of complete", func(x string) []string { return []string{"complete", "1 _ _ _ _ _ _ _ _ _ _ " + x} }, "", "not a column"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, x := range columnForms {
				checkRefused(t, append([]string{"--db", db}, tt.args(x)...), tt.want, x)
			}
		})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.good != "" {
				if _, stderr, err := runCLI(t, append([]string{"--db", db}, tt.args(tt.good)...)...); err != nil {
					t.Errorf("nqueens %s: %v\n%s", strings.Join(tt.args(tt.good), " "), err, stderr)
				}
			}
			for _, x := range forms {
				checkRefused(t, append([]string{"--db", db}, tt.args(x)...), tt.want, x)
			}
		})
	}

	// The environment and the config file: the catalog is ./nqueens.db.
	for _, key := range []struct{ env, yaml, good string }{
		{"NQUEENS_WORKERS", "workers", "10"},
		{"NQUEENS_MAX_ROWS_N", "max_rows_n", "10"},
	} {
		t.Run(key.env, func(t *testing.T) {
			t.Setenv(key.env, key.good)
			if _, stderr, err := runCLI(t, "stats"); err != nil {
				t.Errorf("%s=%s: %v\n%s", key.env, key.good, err, stderr)
			}
			for _, x := range forms {
				t.Setenv(key.env, x)
				checkRefused(t, []string{"stats"}, key.env+"=", x)
			}
		})
		t.Run("config "+key.yaml, func(t *testing.T) {
			defer os.Remove("config.yaml")
			os.WriteFile("config.yaml", []byte(key.yaml+": "+key.good+"\n"), 0o644)
			if _, stderr, err := runCLI(t, "stats"); err != nil {
				t.Errorf("config.yaml %s: %s: %v\n%s", key.yaml, key.good, err, stderr)
			}
			// YAML reads 010 and 0o10 as 8, 0x10 as 16, 1_000 as 1000 and
			// +5 as 5; the config file is read as written.
			for _, x := range []string{"010", "08", "00", "0x10", "0o10", "0b10", "1_000", "+5", "-0", "1e1"} {
				os.WriteFile("config.yaml", []byte(key.yaml+": "+x+"\n"), 0o644)
				checkRefused(t, []string{"stats"}, "config.yaml: "+key.yaml+": "+x+": want a whole number", "")
			}
		})
	}
}

// checkRefused runs the command args and checks that it fails with a usage
// error of one line that says want and, for a number with leading zeros x
// ("" for none), that they are refused.
func checkRefused(t *testing.T, args []string, want, x string) {
	t.Helper()
	_, _, err := runCLI(t, args...)
	if err == nil {
		t.Errorf("nqueens %q: accepted", args)
		return
	}
	msg := err.Error()
	if code := exitCode(err); code != exitUsage {
		t.Errorf("nqueens %q: exit status %d, want %d: %s", args, code, exitUsage, msg)
	}
	if strings.Contains(msg, "\n") || !strings.Contains(msg, want) {
		t.Errorf("nqueens %q: message %q, want one line saying %q", args, msg, want)
	}
	if len(x) > 1 && x[0] == '0' && x[1] >= '0' && x[1] <= '9' && !strings.Contains(msg, "leading zeros are refused") {
		t.Errorf("nqueens %q: message %q does not say leading zeros are refused", args, msg)
	}
}
