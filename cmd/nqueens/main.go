// Command nqueens builds and queries a catalog of N-Queens solutions: it
// enumerates every solution of a board with a bitmask search, folds the 8
// symmetries of the square into classes, stores the classes in a SQLite
// file, and exports them as JSON, NDJSON, CSV, LeetCode grids, SVG, HTML or
// Parquet.
//
// Usage:
//
//	nqueens build 1-14          # build n = 1..14 into the catalog, print the counts
//	nqueens count 16            # count solutions and classes by search alone
//	nqueens stats [12-16] [--json]  # what the catalog holds
//	nqueens export 8 --format json|ndjson|csv|leetcode|grid|svg|html|parquet [--all] [-o FILE]
//	nqueens show 8 [--class K]  # draw boards as text
//	nqueens lookup 4 6 1 5 2 0 7 3  # is it a solution, and which class
//	nqueens serve               # the catalog in a browser and over a JSON API
//	nqueens complete "1 _ 5 _ _ _ _ 3"  # the completions of a partial board
//	nqueens puzzle 12 --minimal # a partial board with one completion
//	nqueens verify [n...]       # re-check the catalog
//	nqueens solve 1000000       # one solution for any n, by construction
//	nqueens count 20 --shard 3/64 > part-3.json   # one shard of the work
//	nqueens count --combine part-*.json            # add the shards up
//	nqueens build 17 --shard 3/8 --db s3.db        # one shard into a shard catalog
//	nqueens merge all.db s*.db                     # join the shard catalogs
//
// Exit status: 0 success, 1 error, 2 bad usage, 3 verification mismatch.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/store"
	"github.com/nqueens/nqueens/verify"
)

// Exit codes.
const (
	exitOK       = 0
	exitError    = 1
	exitUsage    = 2
	exitMismatch = 3
)

func main() {
	os.Exit(mainExit())
}

// mainExit runs the command with the process's arguments and streams and
// returns its exit code. The first SIGINT or SIGTERM cancels the command's
// context, which every command heeds within a second; a second one ends
// the process at once, with the status a shell gives a process killed by
// the signal (130, 143), in case something does not.
func mainExit() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go exitOnSecondSignal(sigs)
	if os.Getenv("NQUEENS_TEST_READY") == "1" {
		// For the process tests: the signal handlers are installed.
		fmt.Fprintln(os.Stderr, readyLine)
	}
	err := runCommand(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "nqueens: %s\n", oneLine(err.Error()))
	}
	return exitCode(err)
}

// readyLine is what mainExit prints on stderr, with NQUEENS_TEST_READY=1 in
// the environment, once it handles signals.
const readyLine = "nqueens: ready (NQUEENS_TEST_READY)"

// exitOnSecondSignal waits for two signals on sigs and exits at once on the
// second, with status 128 + the signal's number.
func exitOnSecondSignal(sigs <-chan os.Signal) {
	<-sigs
	s := <-sigs
	name := "SIGTERM"
	if s == os.Interrupt {
		name = "SIGINT"
	}
	fmt.Fprintf(os.Stderr, "nqueens: second %s: exiting at once\n", name)
	os.Exit(128 + int(s.(syscall.Signal)))
}

// exitCode returns the exit status for the error run returned.
func exitCode(err error) int {
	var ue usageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ue):
		return exitUsage
	case errors.Is(err, errMismatch), errors.As(err, new(*nqueens.KnownError)), errors.Is(err, store.ErrBadRow):
		// A count that differs from the published one, and a catalog that
		// is not what it promises, whatever command read it.
		return exitMismatch
	}
	return exitError
}

// oneLine keeps an error message on one line.
func oneLine(s string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", "; ")
}

// usageError marks an error in how the command was called: exit status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// errMismatch is wrapped by the error of a check that fails (verify,
// count --combine): exit status 3, as is a *nqueens.KnownError, counts
// that are not the published ones (count, build).
var errMismatch = verify.ErrMismatch

// runCommand is run, or a stand-in the process tests put in its place.
var runCommand = run

// run executes the command line args, writing results to stdout and
// progress and messages to stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	root := newRoot(stdout, stderr)
	if err := singleDash(root, args); err != nil {
		return usageError{err}
	}
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if errors.Is(err, store.ErrBadRow) && !errors.Is(err, errMismatch) {
		// A damaged row stops a reader at its first fault: verify lists
		// them all.
		v := advice{}
		if f := root.PersistentFlags().Lookup("db"); f != nil && f.Changed {
			v.db = f.Value.String()
		}
		err = fmt.Errorf("%w (%s lists every fault)", err, v.command("verify"))
	}
	return err
}

// singleDash refuses a long flag written with one dash, "-format csv",
// which pflag would read as -f with the value "ormat", leaving "csv" an
// argument and the error far from the mistake.
func singleDash(root *cobra.Command, args []string) error {
	cmd, _, err := root.Find(args)
	if err != nil {
		cmd = root
	}
	for _, arg := range args {
		if arg == "--" {
			return nil
		}
		if len(arg) < 3 || arg[0] != '-' || arg[1] == '-' {
			continue
		}
		name, _, _ := strings.Cut(arg[1:], "=")
		if cmd.Flags().Lookup(name) != nil || cmd.InheritedFlags().Lookup(name) != nil {
			return fmt.Errorf("%s: a flag's long name takes two dashes: --%s", arg, arg[1:])
		}
	}
	return nil
}
