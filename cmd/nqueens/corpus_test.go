package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/count/estimate"
	"github.com/nqueens/nqueens/internal/testutil"
)

// corpus lists invocations whose stdout, stderr and exit status
// TestCorpus pins in testdata/corpus.golden: every command over whole,
// sharded, partly built, merged and damaged catalogs, and bad input. A
// restructuring of the code must leave the file as it is; a change of
// behaviour shows in its diff (go test -run TestCorpus -update rewrites
// it). Each line is the arguments, split on spaces; "DIR" is the test's
// directory, where the catalogs are.
var corpus = []string{
	"--db DIR/whole.db stats",
	"--db DIR/whole.db stats --json",
	"--db DIR/whole.db stats 8 9",
	"--db DIR/whole.db verify",
	"--db DIR/whole.db verify 8 --json",
	"--db DIR/whole.db export 6",
	"--db DIR/whole.db export 6 --all --format csv",
	"--db DIR/whole.db export 6 --format ndjson",
	"--db DIR/whole.db export 5 --format leetcode",
	"--db DIR/whole.db export 5 --format leetcode --all=false",
	"--db DIR/whole.db export 5 --format grid",
	"--db DIR/whole.db export 6 --format svg --class 1",
	"--db DIR/whole.db export 8 --classes 3-5 --format csv",
	"--db DIR/whole.db export 8 --symmetry rot180 --all --format csv",
	"--db DIR/whole.db export 8 --all --order lex --format csv --classes 2-2",
	"--db DIR/whole.db export 8 --order lex",
	"--db DIR/whole.db export 8 --format xml",
	"--db DIR/whole.db export 9",
	"--db DIR/whole.db export 18",
	"--db DIR/whole.db show 6",
	"--db DIR/whole.db show 8 --class 3 --ascii",
	"--db DIR/whole.db show 8 --symmetry rot180",
	"--db DIR/whole.db lookup 4 6 1 5 2 0 7 3",
	"--db DIR/whole.db lookup 4 6 1 5 2 0 7 3 --json",
	"--db DIR/whole.db lookup 0 1 2 3",
	"--db DIR/whole.db lookup 4 6 1 5 2 0 7",
	"--db DIR/whole.db lookup .Q../...Q/Q.../..Q.",
	"--db DIR/whole.db lookup 0,,1",
	"--db DIR/whole.db complete 1_5____3",
	"--db DIR/whole.db complete 1 _ _ _ _ _ _ 3 --list --classes",
	"--db DIR/whole.db complete 1 _ _ _ _ _ _ 3 --list --format csv",
	"--db DIR/whole.db complete 1 _ _ _ _ _ _ 3 --json --classes",
	"--db DIR/whole.db complete 0 _ 2 _",
	"--db DIR/whole.db puzzle 8 --seed 3 --count 2",
	"--db DIR/whole.db puzzle 8 --seed 3 --count 2 --format dataset",
	"--db DIR/whole.db puzzle 8 --seed 3 --count 2 --answers only --format csv",
	"--db DIR/whole.db puzzle 8 --count 0",
	"--db DIR/whole.db puzzle 8 --seed 3 --count 2 --difficulty hard --format csv",
	"grade DIR/whole.db DIR/whole.db",
	"grade DIR/missing.jsonl",
	"--db DIR/shard0.db stats",
	"--db DIR/shard0.db verify",
	"--db DIR/shard0.db export 9",
	"--db DIR/partial.db stats",
	"--db DIR/partial.db export 9",
	"--db DIR/partial.db verify 9",
	"--db DIR/stopped.db stats",
	"--db DIR/stopped.db export 10",
	"--db DIR/stopped.db verify",
	"--db DIR/stopped.db lookup 1 3 5 7 9 0 2 4 6 8",
	"--db DIR/merged.db stats",
	"--db DIR/merged.db verify",
	"--db DIR/merged.db export 9 --format csv --classes 40-46",
	"merge DIR/whole.db DIR/shard0.db DIR/shard1.db",
	"merge DIR/shard0.db-wal DIR/shard0.db DIR/shard1.db",
	"merge DIR/out2.db DIR/shard0.db DIR/shard0.db",
	"merge DIR/out3.db DIR/shard0.db",
	"--db DIR/junk.db stats",
	"--db DIR/cut.db stats",
	"--db DIR/missing.db stats",
	"count 1-10",
	"count 8 --json",
	"count 10 --shard 1/3",
	"count 10 --class-search",
	"count 0",
	"count 33",
	"count 8 --shard 3/3",
	"solve 12",
	"solve 12 --format json",
	"solve 3",
	"solve 10000001",
	"--versoin",
	"-V",
	"help expor",
	"frobnicate",
	"export 8 -format csv",
	"build 18 --shard 3/3",
	"--db DIR/whole.db build 4",
}

// TestCorpus runs the corpus against catalogs it builds and compares what
// each invocation prints with testdata/corpus.golden. It interrupts a
// build through testHookUnitAdded, which every build in this process
// calls, so it does not run in parallel.
func TestCorpus(t *testing.T) {
	dir := t.TempDir()
	must := func(args ...string) {
		t.Helper()
		if _, stderr, err := runCLI(t, args...); err != nil {
			t.Fatalf("nqueens %s: %v\n%s", strings.Join(args, " "), err, stderr)
		}
	}
	db := func(name string) string { return filepath.Join(dir, name) }
	must("--db", db("whole.db"), "-q", "build", "1-8")
	must("--db", db("shard0.db"), "-q", "build", "9", "--shard", "0/2")
	must("--db", db("shard1.db"), "-q", "build", "9", "--shard", "1/2")
	must("-q", "merge", db("merged.db"), db("shard0.db"), db("shard1.db"))
	must("--db", db("partial.db"), "-q", "build", "4")
	must("--db", db("partial.db"), "-q", "build", "9", "--shard", "0/2")
	// A build of 10 stopped after its work unit 5, as Ctrl-C stops it.
	ctx, cancel := context.WithCancel(context.Background())
	testHookUnitAdded = func(_ context.Context, unit int) {
		if unit == 5 {
			cancel()
		}
	}
	err := run(ctx, []string{"--db", db("stopped.db"), "-q", "build", "10", "--workers", "1"}, &bytes.Buffer{}, &bytes.Buffer{})
	testHookUnitAdded = nil
	cancel()
	if err == nil {
		t.Fatal("the build of 10 was not interrupted")
	}
	os.WriteFile(db("junk.db"), []byte("not a catalog\n"), 0o644)
	whole := testutil.ReadFile(t, db("whole.db"))
	os.WriteFile(db("cut.db"), whole[:len(whole)/2+100], 0o644)

	// The advice to build n = 18 says how long the build takes only where
	// it is long, which a machine under load may measure it to be.
	testRate = &estimate.Rate{Workers: 2, Cores: 2, PerSecond: 3e8}
	defer func() { testRate = nil }()
	var out bytes.Buffer
	for _, line := range corpus {
		args := strings.Fields(strings.ReplaceAll(line, "DIR", dir))
		if line == "--db DIR/whole.db complete 1_5____3" {
			args = []string{"--db", db("whole.db"), "complete", "1 _ 5 _ _ _ _ 3"}
		}
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), args, &stdout, &stderr)
		fmt.Fprintf(&out, "$ nqueens %s\n", line)
		if stdout.Len() > 0 {
			out.WriteString(corpusMask(stdout.String(), dir))
		}
		if stderr.Len() > 0 {
			out.WriteString("[stderr]\n" + corpusMask(stderr.String(), dir))
		}
		if err != nil {
			fmt.Fprintf(&out, "[error] %s\n", corpusMask(err.Error(), dir))
		}
		fmt.Fprintf(&out, "[exit %d]\n\n", exitCode(err))
	}
	path := filepath.Join("testdata", "corpus.golden")
	if updateScripts {
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want := testutil.ReadFile(t, path); !bytes.Equal(out.Bytes(), want) {
		got := filepath.Join(t.TempDir(), "corpus.got")
		os.WriteFile(got, out.Bytes(), 0o644)
		t.Errorf("the corpus's output differs from %s: diff %s %s (go test -run TestCorpus -update rewrites it)", path, path, got)
	}
}

// corpusTimes matches what differs from run to run: seconds, dates and
// rates.
var corpusTimes = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)|\b(under )?\d+(\.\d+)? (µs|ms|s|min|h|days?)\b( \d+ (s|min|h)\b)?|\b\d+\.\d+\b|"seconds": ?[0-9.e+-]+|\b\d+(\.\d+)?(ns|µs|ms|s)\b|\d+ goroutines on \d+ cores`)

// corpusMask writes s with dir as DIR and the times masked, every line
// ending in a newline.
func corpusMask(s, dir string) string {
	s = strings.ReplaceAll(s, dir, "DIR")
	s = corpusTimes.ReplaceAllString(s, "T")
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s
}
