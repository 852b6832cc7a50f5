package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/internal/testutil"
)

// peakCommand returns the command of nqueens with args in dir, run
// through a small launcher (see runForPeak), and the function that
// returns its peak resident memory in bytes once it has exited.
func peakCommand(t *testing.T, dir string, args ...string) (*exec.Cmd, func() int64) {
	t.Helper()
	cmd := command(t, dir, args...)
	file := filepath.Join(t.TempDir(), "peak")
	env := cmd.Env[:0]
	for _, kv := range cmd.Env {
		if kv != "NQUEENS_TEST_AS_MAIN=1" {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, peakEnv+"="+file)
	return cmd, func() int64 {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("the launcher wrote no peak: %v", err)
		}
		v, err := strconv.ParseInt(string(data), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// streamPeak runs nqueens with args, which must print want lines each
// starting with first, reads them as they come, and returns the process's
// peak resident memory. The child runs with a soft memory limit of 40 MiB
// (GOMEMLIMIT), which a command that streams stays under, so that a
// loaded machine, whose collector lags behind the program, does not raise
// the peak of one run more than another's.
func streamPeak(t *testing.T, first string, want int, args ...string) int64 {
	t.Helper()
	cmd, peakOf := peakCommand(t, t.TempDir(), args...)
	cmd.Env = append(cmd.Env, "GOMEMLIMIT=40MiB")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := 0
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if lines++; lines == 1 && !strings.HasPrefix(sc.Text(), first) {
			t.Errorf("first line %q, want it to start %q", sc.Text(), first)
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if lines != want {
		t.Errorf("nqueens %s printed %d lines, want %d", strings.Join(args, " "), lines, want)
	}
	return peakOf()
}

// TestPuzzleCountStreams makes 100,000 and 400,000 puzzles of n = 4 and
// reads them as they come: every puzzle is printed, and the process's peak
// memory grows by less than 10 MB from the first run to the second (by 3 MB
// at most, measured), as puzzles are made in batches (of 65,536: both runs
// hold full batches). The children run with a soft memory limit of 40 MiB
// (GOMEMLIMIT), which a streaming count stays under, so that a loaded
// machine, whose collector lags behind the program, does not raise the
// peak of one run more than the other's. A count that held every puzzle's
// state at once grows by 22 MB under that limit, as its state lives.
// NQUEENS_LONG runs it: the default run holds sample to the same bound
// (TestSampleCountStreams), and puzzle makes its puzzles in batches as
// sample draws.
func TestPuzzleCountStreams(t *testing.T) {
	testutil.LongOnly(t)
	t.Parallel()
	if testutil.Race {
		t.Skip("the race detector's shadow memory grows with what the program has touched")
	}
	peak := func(count int) int64 {
		return streamPeak(t, `{"n":4,`, count, "puzzle", "4", "--count", fmt.Sprint(count), "--seed", "7", "--format", "ndjson", "-q")
	}
	small, large := peak(100_000), peak(400_000)
	if large-small > 10<<20 {
		t.Errorf("peak memory %d MB for 400,000 puzzles, %d MB for 100,000: want within 10 MB", large>>20, small>>20)
	}
	t.Logf("peak memory %.1f MB for 400,000 puzzles, %.1f MB for 100,000", float64(large)/(1<<20), float64(small)/(1<<20))
}

// TestCompleteEndlessGrid feeds complete --input grids the grid row "_ _"
// without end, as `yes '_ _' | nqueens complete - --input grids` does: it
// stops at row 33 with one line saying a grid has at most 32 rows, exit
// status 2, instead of gathering rows until memory runs out. (Read a board
// a line, the default, each "_ _" is an empty board of 2, answered as it
// comes.)
func TestCompleteEndlessGrid(t *testing.T) {
	t.Parallel()
	cmd := command(t, t.TempDir(), "complete", "-", "--input", "grids")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		row := []byte(strings.Repeat("_ _\n", 1024))
		for {
			if _, err := in.Write(row); err != nil {
				return // the command has exited and closed its end
			}
		}
	}()
	err = cmd.Wait()
	in.Close()
	if exitStatus(err) != exitUsage || !strings.Contains(stderr.String(), "line 33: a grid has at most 32 rows") {
		t.Errorf("exit %d, stderr %q; want %d and the grid's bound", exitStatus(err), stderr.String(), exitUsage)
	}
}

// TestGradeStreams grades 50,000 and 200,000 answers against as many
// puzzles, in order, and reads the grades as they come: the process's peak
// memory grows by less than 10 MB from the first run to the second, as
// grade holds one puzzle and one answer at a time (under the soft memory
// limit of streamPeak).
func TestGradeStreams(t *testing.T) {
	t.Parallel()
	testutil.LongOnly(t) // TestGradeEndlessLine bounds grade's memory by default
	if testutil.Race {
		t.Skip("the race detector's shadow memory grows with what the program has touched")
	}
	dir := t.TempDir()
	peak := func(count int) int64 {
		puzzles, answers := filepath.Join(dir, fmt.Sprint(count, "p.jsonl")), filepath.Join(dir, fmt.Sprint(count, "a.jsonl"))
		writeFile(t, puzzles, strings.Repeat(`{"n":4,"puzzle":"_ Q _ _\n_ _ _ _\n_ _ _ _\n_ _ _ _"}`+"\n", count))
		writeFile(t, answers, strings.Repeat(`{"answer":[".Q..","...Q","Q...","..Q."]}`+"\n", count))
		return streamPeak(t, `{"answer":1,"puzzle":1,"score":1,`, count+1, "grade", puzzles, answers, "--json")
	}
	small, large := peak(50_000), peak(200_000)
	if large-small > 10<<20 {
		t.Errorf("peak memory %d MB for 200,000 answers, %d MB for 50,000: want within 10 MB", large>>20, small>>20)
	}
	t.Logf("peak memory %.1f MB for 200,000 answers, %.1f MB for 50,000", float64(large)/(1<<20), float64(small)/(1<<20))
}

// TestGradeEndlessLine feeds grade an answer line without end, as
// `yes | tr -d '\n' | nqueens grade puzzles.jsonl -` does: it stops at
// 1 MB with one line naming stdin's line 1, exit status 1, instead of
// gathering the line until memory runs out.
func TestGradeEndlessLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "p.jsonl"), `{"n":4,"puzzle":"....\n....\n....\n...."}`+"\n")
	cmd := command(t, dir, "grade", "p.jsonl", "-")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		in.Write([]byte(`{"answer":"`))
		chunk := []byte(strings.Repeat("y", 4096))
		for {
			if _, err := in.Write(chunk); err != nil {
				return // the command has exited and closed its end
			}
		}
	}()
	err = cmd.Wait()
	in.Close()
	if want := "nqueens: grade: stdin line 1: longer than 1048576 bytes\n"; exitStatus(err) != exitError || stderr.String() != want {
		t.Errorf("exit %d, stderr %q; want %d and %q", exitStatus(err), stderr.String(), exitError, want)
	}
}

// writeFile writes data to the file at path.
func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
