// Package output writes a command's result to a file the user named, so
// that a stray -o loses nothing already on disk. Write applies these rules,
// in this order, to the path it is given:
//
//   - "-" is standard output (Options.Stdout), and so is any path naming the
//     same file as the process's standard output (/dev/stdout, /dev/fd/1,
//     /proc/self/fd/1): the output is written there and no file is created.
//   - A protected file (Options.Protect: for nqueens the catalog and its
//     companions, see store.Files) is refused with an error wrapping
//     ErrProtected, however the path spells it: the same name, ./name,
//     ../dir/name, a symbolic link to it (even a dangling one, to a companion
//     not yet created), a hard link (os.SameFile). Nothing is created or
//     changed.
//   - A path that is not a regular file (a character or block device such
//     as /dev/null, a FIFO, a socket) is written through: opened for writing
//     as it is, never created, truncated, replaced or renamed.
//   - A symbolic link is followed, through chains and to a dangling link's
//     target, and the file it leads to is written by the next rule: the link
//     stays a link.
//   - A regular file, or a file that does not exist yet, is written under a
//     temporary name beside it, synced to disk and renamed into place only
//     when complete. On any failure the temporary file is removed and the
//     target is left as it was. An existing file keeps its permission bits
//     (and its owner and group, where the process may set them); a new file
//     gets 0666 less the umask, as os.Create gives. A directory is an error.
//   - The temporary file is named .<name>.tmp-<random> and, on Unix, holds an
//     exclusive flock while it is written. Each write to a target first
//     removes that target's temporary files whose lock it can take: their
//     writer died (killed, or the machine stopped) before renaming them. A
//     temporary file still locked belongs to a live writer and is kept.
//     Where flock does not exist, temporary files are never removed by others.
//   - Errors name the target as the user spelled it, never the temporary
//     file: "output big.csv: no space left on device".
package output

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// ErrProtected is wrapped by the error Write and Check return for a path
// that is one of Options.Protect.
var ErrProtected = errors.New("protected file")

// Options says where standard output goes and which files must never be
// written.
type Options struct {
	// Stdout receives the output when the path means standard output; nil
	// means os.Stdout.
	Stdout io.Writer
	// Protect lists the files never to write, each in any spelling; they
	// need not exist.
	Protect []string
	// Protected says what the protected files are, for the error message:
	// "output nqueens.db: is <Protected>; choose another file". Empty means
	// "a protected file".
	Protected string
	// Context, when not nil, ends the wait to open a device or FIFO (a
	// named pipe no one reads yet) when it is done: Write then returns an
	// error wrapping its error.
	Context context.Context
}

// Write calls write with a writer to the file at path, following the rules
// of the package comment: standard output, a device or FIFO written
// through, or a regular file replaced atomically (through symbolic links).
// It returns an error wrapping ErrProtected, and touches nothing, if path
// is one of opts.Protect. An error from write is returned as it is, except
// that a failed write to the file is reported as "output PATH: reason". On
// any error a regular file at path keeps its old content.
func Write(path string, opts Options, write func(io.Writer) error) error {
	if path == "-" {
		return write(opts.stdout())
	}
	if path == "" {
		return errors.New("output: empty file name")
	}
	if err := Check(path, opts); err != nil {
		return err
	}
	st, err := os.Stat(path)
	switch {
	case err == nil && sameAsStdout(st):
		return write(opts.stdout())
	case err == nil && st.IsDir():
		return fmt.Errorf("output %s: is a directory", path)
	case err == nil && !st.Mode().IsRegular():
		return writeThrough(opts.Context, path, write)
	case errors.Is(err, fs.ErrNotExist):
		st = nil // a new file, or a dangling link's target
	case err != nil:
		return fmt.Errorf("output %s: %w", path, reason(err))
	}
	target, err := resolve(path)
	if err != nil {
		return fmt.Errorf("output %s: %w", path, reason(err))
	}
	return replace(path, target, st, write)
}

// IsStdout reports whether Write sends path to standard output: "-", or a
// path naming the same file as the process's standard output.
func IsStdout(path string) bool {
	if path == "-" {
		return true
	}
	st, err := os.Stat(path)
	return err == nil && sameAsStdout(st)
}

// Check returns an error wrapping ErrProtected if path names one of
// opts.Protect, compared with os.SameFile where both exist and otherwise
// by the directory that would hold them (os.SameFile of the directories,
// symbolic links resolved, so that a bind mount or any other spelling of
// the directory is caught) and the name in it. For "-" it checks the file
// that standard output is (Options.Stdout, where that is a file), which a
// shell's `>> nqueens.db` makes one of them. It is the check Write makes
// first; a caller that creates a file itself (a profile, a merged catalog)
// or wants to refuse a path before doing any work calls it.
func Check(path string, opts Options) error {
	if len(opts.Protect) == 0 {
		return nil
	}
	if path == "-" {
		return checkStdout(opts)
	}
	st, err := os.Stat(path)
	canon := ""
	for _, p := range opts.Protect {
		if pst, perr := os.Stat(p); err == nil && perr == nil {
			if os.SameFile(st, pst) {
				return &protectedError{path, opts.Protected}
			}
			continue
		}
		if canon == "" {
			canon = canonical(path)
		}
		if sameEntry(canon, canonical(p)) {
			return &protectedError{path, opts.Protected}
		}
	}
	return nil
}

// checkStdout returns an error wrapping ErrProtected if the process's
// standard output, as opts gives it, is one of opts.Protect. A Stdout that
// is no file is never one of them.
func checkStdout(opts Options) error {
	f, ok := opts.stdout().(*os.File)
	if !ok {
		return nil
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	for _, p := range opts.Protect {
		if pst, err := os.Stat(p); err == nil && os.SameFile(st, pst) {
			return &protectedError{"-", opts.Protected}
		}
	}
	return nil
}

// sameEntry reports whether the paths a and b, resolved by canonical, name
// the same entry: the same name in the same directory, however the
// directory is reached.
func sameEntry(a, b string) bool {
	if a == b {
		return true
	}
	da, na := filepath.Split(a)
	db, nb := filepath.Split(b)
	if na != nb {
		return false
	}
	sa, err := os.Stat(da)
	if err != nil {
		return false
	}
	sb, err := os.Stat(db)
	return err == nil && os.SameFile(sa, sb)
}

// protectedError is the error of a protected path.
type protectedError struct{ path, what string }

func (e *protectedError) Error() string {
	what := e.what
	if what == "" {
		what = "a protected file"
	}
	if e.path == "-" {
		return fmt.Sprintf("output: standard output is %s; redirect it to another file", what)
	}
	return fmt.Sprintf("output %s: is %s; choose another file", e.path, what)
}

func (e *protectedError) Unwrap() error { return ErrProtected }

func (o Options) stdout() io.Writer {
	if o.Stdout == nil {
		return os.Stdout
	}
	return o.Stdout
}

// sameAsStdout reports whether st is the process's standard output.
func sameAsStdout(st fs.FileInfo) bool {
	so, err := os.Stdout.Stat()
	return err == nil && os.SameFile(st, so)
}

// maxLinks is how many symbolic links resolve follows, as Linux does.
const maxLinks = 40

// resolve follows the symbolic links at the end of path, returning the
// path of the file they lead to, which need not exist. The directories on
// the way are left as spelled: the kernel resolves them.
func resolve(path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			// Not filepath.Join: cleaning "dir/../x" is wrong if dir is a link.
			dir, _ := filepath.Split(path)
			link = dir + link
		}
		path = link
	}
	return "", errors.New("too many levels of symbolic links")
}

// canonical is path resolved for comparison: its final links followed,
// then made absolute with the links of its directory resolved, as far as
// they exist.
func canonical(path string) string {
	if p, err := resolve(path); err == nil {
		path = p
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		path = filepath.Join(real, base)
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return path
}

// writeThrough writes to the existing file at path, not a regular file, as
// it is. Opening a FIFO waits for a reader: until ctx, if not nil, is done.
func writeThrough(ctx context.Context, path string, write func(io.Writer) error) error {
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		ch <- opened{f, err}
	}()
	var done <-chan struct{}
	if ctx != nil {
		done = ctx.Done()
	}
	var o opened
	select {
	case o = <-ch:
	case <-done:
		go func() { // the open may still succeed: close what it opens
			if o := <-ch; o.f != nil {
				o.f.Close()
			}
		}()
		return fmt.Errorf("output %s: interrupted while waiting for a reader: %w", path, ctx.Err())
	}
	f, err := o.f, o.err
	if err != nil {
		return fmt.Errorf("output %s: %w", path, reason(err))
	}
	err = targetError(write(&fileWriter{f, path}))
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("output %s: %w", path, reason(cerr))
	}
	return err
}

// replace writes the regular file target (path as the user spelled it,
// links resolved) through a temporary file renamed into place. old is the
// target's current state, nil if it does not exist.
func replace(path, target string, old fs.FileInfo, write func(io.Writer) error) (err error) {
	dir, base := filepath.Split(target)
	prefix := "." + base + ".tmp-"
	removeStale(dir, prefix)
	f, err := createTemp(dir, prefix)
	if err != nil {
		return fmt.Errorf("output %s: cannot write there: %w", path, reason(err))
	}
	tmp, closed := f.Name(), false
	defer func() {
		if err != nil {
			if !closed {
				f.Close()
			}
			os.Remove(tmp)
		}
	}()
	if old != nil {
		keepOwner(f, old)
		if err := f.Chmod(old.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
			return fmt.Errorf("output %s: keep its mode: %w", path, reason(err))
		}
	}
	if err := targetError(write(&fileWriter{f, path})); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("output %s: %w", path, reason(err))
	}
	if closeBeforeRename {
		closed = true
		if err := f.Close(); err != nil {
			return fmt.Errorf("output %s: %w", path, reason(err))
		}
	}
	// Renamed while still locked: a cleaner must never take the lock of a
	// complete file before it is in place.
	if err := os.Rename(tmp, target); err != nil {
		return fmt.Errorf("output %s: %w", path, reason(err))
	}
	if !closed {
		f.Close() // after Sync, a close error loses nothing
	}
	syncDir(dir)
	return nil
}

// createTemp creates and locks a new temporary file dir+prefix+random,
// with mode 0666 less the umask.
func createTemp(dir, prefix string) (*os.File, error) {
	for range 100 {
		name := dir + prefix + strconv.FormatUint(rand.Uint64(), 36)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		// Between create and lock a cleaner may have taken the lock and
		// removed the name: then start again with another.
		if !lock(f) || !stillNamed(f, name) {
			f.Close()
			continue
		}
		return f, nil
	}
	return nil, errors.New("no free temporary name")
}

// stillNamed reports whether name is still the file f.
func stillNamed(f *os.File, name string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Lstat(name)
	return err == nil && os.SameFile(a, b)
}

// syncDir makes a rename in dir durable, where the system allows.
func syncDir(dir string) {
	if dir == "" {
		dir = "."
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// fileWriter writes to the output file, turning its errors into an
// *fs.PathError (op outputOp) that names the target.
type fileWriter struct {
	f    *os.File
	path string
}

func (w *fileWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	if err != nil {
		err = &fs.PathError{Op: outputOp, Path: w.path, Err: reason(err)}
	}
	return n, err
}

// outputOp is the Op of the *fs.PathError of a failed write to the output
// file: "output PATH: reason".
const outputOp = "output"

// targetError returns the failed write to the file inside err, if any,
// without the context the writer's user wrapped around it: the message
// then says which file and why. Other errors are returned as they are.
func targetError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Op == outputOp {
		return pe
	}
	return err
}

// reason strips the path from a *fs.PathError or *os.LinkError, which
// names the temporary file or repeats what the caller's message says.
func reason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
