package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/testutil"
)

func init() {
	// A child of TestSecondSignalExitsAtOnce: a command that heeds no
	// cancellation, to show that the second signal ends it anyway.
	if os.Getenv("NQUEENS_TEST_STALL") == "1" {
		runCommand = func(ctx context.Context, _ []string, _, stderr io.Writer) error {
			<-ctx.Done()
			fmt.Fprintln(stderr, "stalling after the first signal")
			select {}
		}
	}
}

// TestSignalStopsBlockedRead starts commands that block opening a FIFO no
// one writes to, sends SIGINT or SIGTERM once they handle signals, and
// checks that each ends at once with status 1 and one line that says what
// it was reading.
func TestSignalStopsBlockedRead(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"config", []string{"--config", "fifo", "stats"}, `^nqueens: interrupted while reading config file fifo\n$`},
		{"combine", []string{"count", "--combine", "fifo"}, `^nqueens: combine: interrupted while reading fifo\n$`},
		{"grade", []string{"grade", "fifo", "fifo"}, `^nqueens: grade: interrupted while reading fifo\n$`},
	}
	for _, tt := range tests {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			t.Run(tt.name+" "+sig.String(), func(t *testing.T) {
				dir := t.TempDir()
				if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600); err != nil {
					t.Fatal(err)
				}
				cmd := command(t, dir, tt.args...)
				stderr, guardFired := startReady(t, cmd)
				sent := time.Now()
				rest, err := signalAndWait(t, cmd, stderr, guardFired, sig)
				t.Logf("ended %v after %v", err, time.Since(sent).Round(time.Millisecond))
				if exitStatus(err) != exitError {
					t.Errorf("exit %v, want status %d", err, exitError)
				}
				if !regexp.MustCompile(tt.want).Match(rest) {
					t.Errorf("stderr %q, want one line matching %s", rest, tt.want)
				}
			})
		}
	}
}

// TestSecondSignalExitsAtOnce runs a command that does not heed the first
// signal (a stand-in for run, see init) and checks that a second one ends
// the process with the status a shell reports for the signal.
func TestSecondSignalExitsAtOnce(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := command(t, t.TempDir(), "stats")
			cmd.Env = append(cmd.Env, "NQUEENS_TEST_STALL=1")
			stderr, guardFired := startReady(t, cmd)
			cmd.Process.Signal(sig)
			if line, err := stderr.ReadString('\n'); line != "stalling after the first signal\n" {
				t.Fatalf("after the first signal: %q %v", line, err)
			}
			rest, err := signalAndWait(t, cmd, stderr, guardFired, sig)
			if want := 128 + int(sig); exitStatus(err) != want {
				t.Errorf("exit %v, want status %d", err, want)
			}
			name := map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM"}[sig]
			if want := "nqueens: second " + name + ": exiting at once\n"; string(rest) != want {
				t.Errorf("stderr %q, want %q", rest, want)
			}
		})
	}
}

// TestSignalStopsMerge interrupts merge of the two shards of n=15 into a
// new catalog once it says it is merging: it ends with status 1 and one
// line, and the output is not created. (The merge takes hundreds of
// milliseconds, the signal comes within milliseconds of the line; a
// machine fast enough to finish the merge first passes only if the
// catalog it wrote verifies.) NQUEENS_LONG runs it: the default run stops
// searches, reads and writes by signal in the tests beside it.
func TestSignalStopsMerge(t *testing.T) {
	testutil.LongOnly(t)
	t.Parallel()
	dir, _ := slowCatalog(t, "builds the shards of n=15")
	for _, s := range []string{"0/2", "1/2"} {
		buildApart(t, filepath.Join(dir, "s"+s[:1]+".db"), "15", "--shard", s)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		out := filepath.Join(dir, "out-"+sig.String()+".db")
		cmd := command(t, dir, "merge", out, "s0.db", "s1.db")
		stderr, guardFired := startReady(t, cmd)
		if line, err := stderr.ReadString('\n'); !strings.HasPrefix(line, "merging n=15 from 2 shard catalogs") {
			t.Fatalf("merge said %q %v", line, err)
		}
		rest, err := signalAndWait(t, cmd, stderr, guardFired, sig)
		if err == nil {
			if v, _, err := runCLI(t, "--db", out, "verify"); err != nil {
				t.Errorf("%v: merge finished first, but its catalog does not verify: %v\n%s", sig, err, v)
			}
			continue
		}
		if exitStatus(err) != exitError || !regexp.MustCompile(`^nqueens: merge interrupted: nothing written to .*\n$`).Match(rest) {
			t.Errorf("%v: exit %v, stderr %q", sig, err, rest)
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%v: an interrupted merge created its output: %v", sig, err)
		}
	}
}

// TestSignalStopsWaitForFIFOReader interrupts solve -o FIFO while it waits
// for a reader of the FIFO: it ends with status 1 and one line.
func TestSignalStopsWaitForFIFOReader(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := command(t, dir, "solve", "8", "-o", "fifo")
	stderr, guardFired := startReady(t, cmd)
	rest, err := signalAndWait(t, cmd, stderr, guardFired, syscall.SIGINT)
	if exitStatus(err) != exitError ||
		!regexp.MustCompile(`^nqueens: output fifo: interrupted while waiting for a reader: context canceled\n$`).Match(rest) {
		t.Errorf("exit %v, stderr %q", err, rest)
	}
}

// TestSignalStopsBlockedStdin starts lookup - and complete - reading a pipe
// that stays open with nothing in it, sends SIGINT once they handle
// signals, and checks that each ends at once, with status 1 and one line
// saying it was interrupted.
func TestSignalStopsBlockedStdin(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"lookup", "-"}, {"complete", "-"}} {
		t.Run(args[0], func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			cmd := command(t, t.TempDir(), args...)
			cmd.Stdin = r
			stderr, guardFired := startReady(t, cmd)
			r.Close()
			rest, err := signalAndWait(t, cmd, stderr, guardFired, syscall.SIGINT)
			if exitStatus(err) != exitError {
				t.Errorf("exit %v, want status %d", err, exitError)
			}
			if want := "nqueens: " + args[0] + " interrupted\n"; string(rest) != want {
				t.Errorf("stderr %q, want %q", rest, want)
			}
		})
	}
}

// TestSignalStopsSearch starts complete counting the completions of an
// empty board of 32, a search of years, sends SIGINT once it handles
// signals, and checks that it ends at once (the search looks at the
// context), with status 1 and one line saying it was interrupted.
func TestSignalStopsSearch(t *testing.T) {
	t.Parallel()
	cmd := command(t, t.TempDir(), "complete", strings.TrimSpace(strings.Repeat("_ ", 32)))
	stderr, guardFired := startReady(t, cmd)
	rest, err := signalAndWait(t, cmd, stderr, guardFired, syscall.SIGINT)
	if exitStatus(err) != exitError || string(rest) != "nqueens: complete interrupted\n" {
		t.Errorf("exit %v, stderr %q; want status %d, complete interrupted", err, rest, exitError)
	}
}
