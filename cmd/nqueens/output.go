package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/export"
	"github.com/nqueens/nqueens/output"
	"github.com/nqueens/nqueens/progress"
	"github.com/nqueens/nqueens/store"
)

// outputOptions are the rules for a file named on the command line: "-"
// is stdout, and the catalog's files are never written.
func (a *app) outputOptions(ctx context.Context) output.Options {
	return output.Options{
		Context:   ctx,
		Stdout:    a.stdout,
		Protect:   store.Files(a.cfg.DB),
		Protected: "the catalog (or one of its files)",
	}
}

// jsonFlag gives cmd the flag --json, read into asJSON, and returns cmd.
func jsonFlag(asJSON *bool, cmd *cobra.Command) *cobra.Command {
	cmd.Flags().BoolVar(asJSON, "json", false, "print a JSON array of objects")
	return cmd
}

// open opens the catalog read-only, for the board sizes ns if the caller
// reads those alone (the advice for a missing catalog names them).
func (a *app) open(ctx context.Context, ns ...int) (*store.DB, error) {
	db, err := store.Open(ctx, a.cfg.DB, store.Options{ReadOnly: true})
	return db, a.advice().open(err, ns...)
}

// outputFlag gives cmd the flag -o FILE, read into out.
func outputFlag(cmd *cobra.Command, out *string) {
	cmd.Flags().StringVarP(out, "output", "o", "", "write to FILE instead of stdout")
}

// formatValue is the value of an output's --format flag: the name given,
// which outputFormat reads as one of allowed, the formats of the
// command's use, and which the shell completes with their names.
type formatValue struct {
	name    string
	allowed []export.Format
}

func (v *formatValue) String() string     { return v.name }
func (v *formatValue) Set(s string) error { v.name = s; return nil }
func (v *formatValue) Type() string       { return "string" }

// formatFlag gives cmd the flag --format (-f) of an output in one of the
// formats allowed, def if not given, for outputFormat to read: its usage
// is what before says and the names of allowed, and the shell completes
// those names.
func formatFlag(cmd *cobra.Command, def export.Format, allowed []export.Format, before string) {
	names := export.FormatNames(allowed)
	cmd.Flags().VarP(&formatValue{name: def.String(), allowed: allowed}, "format", "f", before+strings.Join(names, ", "))
	completeValues(cmd, "format", names...)
}

// outputFormat returns the format of cmd's output to the file out, of the
// formats its --format flag (formatFlag) allows: --format if given, else
// the one out's extension names, else --format's default
// (export.OutputFormat). A file whose name has no
// extension, or one that names no format, gets the default, and a line on
// stderr says so (unless the file is one the command refuses to write,
// which it says instead, or a device or FIFO, whose names name no format).
// A binary format (parquet) to stdout is refused when stdout is a
// terminal.
func (a *app) outputFormat(cmd *cobra.Command, out string) (export.Format, error) {
	flag := cmd.Flags().Lookup("format")
	allowed := flag.Value.(*formatValue).allowed
	def, err := export.ParseFormat(flag.DefValue, allowed)
	if err != nil {
		panic(fmt.Sprintf("%s: --format's default is not one of its formats: %v", cmd.CommandPath(), err))
	}
	name := ""
	if flag.Changed {
		name = flag.Value.String()
	}
	f, err := export.OutputFormat(name, out, allowed, def)
	if err == nil && f.Binary() && (out == "" || output.IsStdout(out)) && progress.IsTerminal(a.stdout) {
		return 0, fmt.Errorf("format %s is binary, not for a terminal: write it to a file (-o FILE.%s) or a pipe", f, f)
	}
	if err != nil || name != "" || out == "" || output.IsStdout(out) || a.checkOutput(out) != nil {
		return f, err
	}
	if st, err := os.Stat(out); err == nil && !st.Mode().IsRegular() {
		return f, nil // a device or a FIFO: its name names no format
	}
	switch ext := filepath.Ext(out); {
	case ext == "":
		a.logf("%s: no extension names a format: writing %s (-o %s or --format names another)", out, f, out+f.Extension())
	case !export.KnownExtension(ext):
		a.logf("%s: no format is named %s: writing %s (--format names another)", out, ext, f)
	}
	return f, nil
}

// checkOutput refuses path, as bad usage, if it is one of the catalog's
// files; "" is stdout, as is "-". Commands check before any work.
func (a *app) checkOutput(path string) error {
	if path == "" {
		path = "-"
	}
	// Check opens nothing, so it has nothing to wait for or cancel.
	if err := output.Check(path, a.outputOptions(context.Background())); err != nil {
		return usageError{err}
	}
	return nil
}

// writeOutput writes to path ("" or "-" for stdout) by output.Write and
// reports what it wrote with msg unless that went to stdout.
func (a *app) writeOutput(ctx context.Context, path string, write func(io.Writer) error, msg string, args ...any) error {
	if path == "" {
		return write(a.stdout)
	}
	err := output.Write(path, a.outputOptions(ctx), write)
	if errors.Is(err, output.ErrProtected) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	if !output.IsStdout(path) {
		a.logf("%s to %s", fmt.Sprintf(msg, args...), path)
	}
	return nil
}

// progress returns a meter on stderr for a job called label of total
// steps named unit, done of them done already; none with --quiet.
func (a *app) progress(label string, done, total int64, unit string) progress.Meter {
	return a.progressEstimated(label, done, total, unit, 0)
}

// testHookMeter, when set by a test, is called with the label, steps done
// and total of each meter made.
var testHookMeter func(label string, done, total int64)

// progressEstimated is progress for a job whose whole time was estimated
// at estimate (and said on stderr): the time left starts from it.
func (a *app) progressEstimated(label string, done, total int64, unit string, estimate time.Duration) progress.Meter {
	if testHookMeter != nil {
		testHookMeter(label, done, total)
	}
	if a.cfg.Quiet {
		return progress.Nop
	}
	return progress.New(a.stderr, label, done, total, unit, estimate)
}
