package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/testutil"
)

func TestMain(m *testing.M) {
	// The subprocess tests run this binary as nqueens itself.
	if os.Getenv("NQUEENS_TEST_AS_MAIN") == "1" {
		os.Exit(mainExit())
	}
	if path := os.Getenv(peakEnv); path != "" {
		os.Exit(runForPeak(path))
	}
	testscript.Main(suite{m}, map[string]func(){
		"nqueens": func() { os.Exit(mainExit()) },
	})
}

// suite runs the package's tests: most start nqueens, a browser or a
// Slurm cluster as child processes and wait for them, so unless
// -test.parallel says otherwise, twice as many run at once as there are
// CPUs (go test's default is as many), which keeps the CPUs busy while
// some tests wait. It removes what the tests shared (see sharedCatalog)
// once they end.
type suite struct{ m *testing.M }

func (s suite) Run() int {
	defer removeShared()
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(2*runtime.GOMAXPROCS(0)))
	}
	return s.m.Run()
}

// TestScripts runs the CLI scripts in testdata/script: each is a txtar
// archive of commands and the files they read or must produce. Run with
// -update to rewrite the expected outputs held in the archives. A line
// marked [long] runs only with NQUEENS_LONG (testutil.Long): a slow
// command whose kind of check a faster line or test makes by default.
func TestScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: updateScripts,
		Condition: func(cond string) (bool, error) {
			if cond == "long" {
				return testutil.Long(), nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(env *testscript.Env) error {
			k, v, _ := strings.Cut(childGORACE(), "=")
			env.Setenv(k, v)
			return nil
		},
		Cmds: map[string]func(*testscript.TestScript, bool, []string){"checksolution": checkSolution, "checkpuzzles": checkPuzzles, "checkdataset": checkDataset, "sameparquet": sameParquet},
	})
}

// checkSolution is the script command "checksolution FILE N": FILE holds
// the text output of solve, which must be a valid solution of n = N.
func checkSolution(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: checksolution FILE N")
	}
	n, err := strconv.Atoi(args[1])
	if err != nil {
		ts.Fatalf("checksolution: bad N %q", args[1])
	}
	fields := strings.Fields(ts.ReadFile(args[0]))
	cols := make([]int32, len(fields))
	for i, f := range fields {
		c, err := strconv.Atoi(f)
		if err != nil {
			ts.Fatalf("checksolution: row %d: %q is not a column", i, f)
		}
		cols[i] = int32(c)
	}
	err = nqueens.CheckColumns(cols)
	if err == nil && len(cols) != n {
		err = fmt.Errorf("%d rows, want %d", len(cols), n)
	}
	switch {
	case err != nil && !neg:
		ts.Fatalf("checksolution: %s is not a solution of n=%d: %v", args[0], n, err)
	case err == nil && neg:
		ts.Fatalf("checksolution: %s is a solution of n=%d", args[0], n)
	}
}

// peakEnv names the file where this binary, started with it set, writes
// the peak resident memory of the nqueens it runs (see peakCommand).
const peakEnv = "NQUEENS_TEST_PEAK_FILE"

// runForPeak runs this binary as nqueens with this process's arguments,
// stdin, stdout and stderr, waits for it, and writes its peak resident
// memory in bytes to the file at path. It returns nqueens's exit status.
//
// Linux counts in a process's peak the memory of the process that started
// it, at the moment it started it (exec takes the peak of the memory it
// replaces, and Go's exec shares the parent's memory until then): a test
// process of a hundred megabytes would be the peak of every child it
// starts. This process is small, so the peak of the nqueens it starts is
// nqueens's own.
func runForPeak(path string) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	cmd := exec.Command(exe, os.Args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, peakEnv+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "NQUEENS_TEST_AS_MAIN=1")
	if err := cmd.Run(); cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, err) // it did not start
		return 1
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		fmt.Fprintln(os.Stderr, "no resource usage on this system")
		return 1
	}
	if werr := os.WriteFile(path, []byte(strconv.FormatInt(ru.Maxrss<<10, 10)), 0o644); werr != nil {
		fmt.Fprintln(os.Stderr, werr)
		return 1
	}
	return cmd.ProcessState.ExitCode()
}
