package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/internal/testutil"
)

// pauseCountEnv names the number of work units at which a child count with
// a state (started by startPausedCount) pauses: once its state holds that
// many, it writes pausedCountLine and the number on stderr and blocks
// until its stdin closes or SIGINT or SIGTERM has cancelled the count (see
// pauseHook).
const pauseCountEnv = "NQUEENS_TEST_PAUSE_AT_COUNT_UNIT"

const pausedCountLine = "test: count paused with work units kept:"

// showMetersEnv, set to 1, has a child write meterLine, the label, the
// steps done and the total of each progress meter it makes, on stderr.
const showMetersEnv = "NQUEENS_TEST_SHOW_METERS"

const meterLine = "test: meter"

func init() {
	if hook := pauseHook(pauseCountEnv, pausedCountLine); hook != nil {
		testHookCountFound = hook
	}
	if os.Getenv(showMetersEnv) == "1" {
		testHookMeter = func(label string, done, total int64) {
			fmt.Fprintf(os.Stderr, "%s %s: %d of %d\n", meterLine, label, done, total)
		}
	}
}

// startPausedCount starts nqueens count n on one worker with its state in
// state, and more flags if given, and returns once the state holds units
// work units and the count has paused. It fails t if the count ends
// first.
func startPausedCount(t *testing.T, state, n string, units int, flags ...string) *pausedBuild {
	t.Helper()
	cmd := command(t, filepath.Dir(state), append([]string{"count", n, "--workers", "1", "--state", state}, flags...)...)
	return startPaused(t, cmd, pauseCountEnv, pausedCountLine, units)
}

// records returns the number of work units the state file at path holds.
func records(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Count(data, []byte("\n")) - 1
}

// TestStoppedCountResumes kills nqueens count 16 with SIGKILL while it is
// paused in the middle of its work, then stops the next run with SIGINT:
// each run keeps every work unit it found in its state file and the next
// resumes from them; the last run counts the rest, prints the published
// counts and removes the state. The join and the constellations each
// keep their own units: the join, the default of n = 16, in the default
// run, and the constellations (--engine cpu) with NQUEENS_LONG.
func TestStoppedCountResumes(t *testing.T) {
	t.Parallel()
	for _, engine := range []string{"join", "cpu"} {
		t.Run(engine, func(t *testing.T) {
			if engine == "cpu" {
				testutil.LongOnly(t)
			}
			t.Parallel()
			total := len(count.Constellations(16))
			if engine == "join" {
				total = count.JoinUnitsOf(16).Total
			}
			stoppedCountResumes(t, total, "--engine", engine)
		})
	}
}

// stoppedCountResumes is TestStoppedCountResumes for the count of 16 with
// flags, of total work units.
func stoppedCountResumes(t *testing.T, total int, flags ...string) {
	state := filepath.Join(t.TempDir(), "count-16.state")
	b := startPausedCount(t, state, "16", total/4, flags...)
	b.stop()
	if got := records(t, state); got != total/4 {
		t.Fatalf("after the kill at %d work units the state holds %d", total/4, got)
	}

	b = startPausedCount(t, state, "16", total/2, flags...)
	if want := fmt.Sprintf("count n=16: resuming with %s of %s work units kept in %s", phrase.Count(total/4), phrase.Count(total), state); !strings.Contains(b.stderr.String(), want) {
		t.Errorf("the second run did not say %q:\n%s", want, b.stderr)
	}
	b.cmd.Process.Signal(os.Interrupt)
	err := b.wait()
	kept := records(t, state)
	want := fmt.Sprintf("nqueens: count n=16: interrupted; %s of %s work units kept in %s: run the same count again to resume\n", phrase.Count(kept), phrase.Count(total), state)
	switch {
	case exitStatus(err) != exitError:
		t.Errorf("SIGINT: exit %v, want status %d", err, exitError)
	case kept < total/2:
		t.Errorf("SIGINT at %d work units: the state holds %d", total/2, kept)
	case !strings.HasSuffix(b.stderr.String(), want):
		t.Errorf("SIGINT: stderr does not end with %q:\n%s", want, b.stderr)
	}

	last := command(t, filepath.Dir(state), append([]string{"count", "16", "--state", state}, flags...)...)
	last.Env = append(last.Env, showMetersEnv+"=1")
	var stderr bytes.Buffer
	last.Stderr = &stderr
	out, err := last.Output()
	if err != nil {
		t.Fatalf("last run: %v\n%s", err, stderr.Bytes())
	}
	if want := fmt.Sprintf("resuming with %s of %s work units kept", phrase.Count(kept), phrase.Count(total)); !strings.Contains(stderr.String(), want) {
		t.Errorf("last run did not say %q:\n%s", want, stderr.Bytes())
	}
	// Its progress counts from the same base as its messages: the whole
	// count, the units kept done already.
	if want := fmt.Sprintf("%s count n=16: %d of %d\n", meterLine, kept, total); !strings.Contains(stderr.String(), want) {
		t.Errorf("last run's meter is not %q:\n%s", want, stderr.Bytes())
	}
	if !bytes.Contains(out, []byte("14772512  1846955")) {
		t.Errorf("last run's counts:\n%s", out)
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Errorf("the state of a finished count is still there: %v", err)
	}
}

// TestJoinKilledAtRandomResumes kills the join's count of 16 with SIGKILL
// at work units drawn at random, 12 times over, each run resuming from
// the state the last left; then a last run counts the rest: every kill
// leaves the units found in the state, and the end is the published
// counts, the state removed.
func TestJoinKilledAtRandomResumes(t *testing.T) {
	t.Parallel()
	state := filepath.Join(t.TempDir(), "count-16.state")
	total := count.JoinUnitsOf(16).Total
	rng := rand.New(rand.NewPCG(16, 40))
	kept := 0
	for round := range 12 {
		at := kept + 1 + rng.IntN((total-kept)/4)
		b := startPausedCount(t, state, "16", at, "--engine", "join")
		b.stop()
		if got := records(t, state); got < at {
			t.Fatalf("round %d: killed at %d work units, the state holds %d", round, at, got)
		}
		kept = records(t, state)
	}
	out, stderr, status := runChild(t, filepath.Dir(state), "count", "16", "--engine", "join", "--state", state)
	checkPublished(t, "16", out, stderr, status)
	if want := fmt.Sprintf("resuming with %s of %s work units kept", phrase.Count(kept), phrase.Count(total)); !strings.Contains(stderr, want) {
		t.Errorf("last run did not say %q:\n%s", want, stderr)
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Errorf("the state of a finished count is still there: %v", err)
	}
}

// TestCountStateOfAnotherCount gives count 12 the state file of count 11,
// killed in the middle: it is the other count's work, so count 12 refuses
// it in one line, leaving it as it was, and count 11 then resumes from it.
func TestCountStateOfAnotherCount(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	state := filepath.Join(dir, "st")
	b := startPausedCount(t, state, "11", 10)
	b.stop()
	before, _ := os.ReadFile(state)
	out, stderr, status := runChild(t, dir, "count", "12", "--state", state)
	want := "nqueens: count n=12: state file " + state + " holds the state of another count, of n=11 (10 work units kept): give this count another file, or delete it\n"
	if status != exitError || out != "" || stderr != want {
		t.Errorf("count 12: status %d, stdout %q, stderr %q; want status %d and %q", status, out, stderr, exitError, want)
	}
	if after, _ := os.ReadFile(state); !bytes.Equal(after, before) {
		t.Error("count 12 changed count 11's state")
	}
	out, stderr, status = runChild(t, dir, "count", "11", "--state", state)
	if status != 0 || !strings.Contains(out, " 2680 ") || !strings.Contains(stderr, "resuming with 10 of") {
		t.Errorf("count 11 after: status %d\n%s%s", status, out, stderr)
	}
}
