package parts

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/input"
)

// FileError is ReadFile's error for a file that holds no part: Err is
// Read's error, which may match ErrOtherVersion, ErrMoreThanOne or
// ErrOutOfRange.
type FileError struct {
	Path string
	Err  error
}

func (e *FileError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// readFile reads the part in the file at path (Read), returning ctx's error
// if ctx is cancelled first, even when path is a FIFO no one writes to. A
// file that cannot be read gives an error that names it, one that holds no
// part a *FileError.
func readFile(ctx context.Context, path string) (Part, error) {
	data, err := input.ReadFile(ctx, path, maxSize)
	var pe *fs.PathError
	switch {
	case ctx.Err() != nil:
		return Part{}, ctx.Err()
	case errors.As(err, &pe):
		return Part{}, err
	case err != nil:
		return Part{}, fmt.Errorf("%s: %w", path, err)
	}
	p, err := Read(data)
	if err != nil {
		return p, &FileError{Path: path, Err: err}
	}
	return p, nil
}

// CombineFiles reads the parts in files (ReadFile), combines them
// (Combine) and checks the result against the published counts of OEIS
// A000170 and A002562 where they are known. It returns the combined counts
// and how many shards they came from. A file that holds no part gives
// ReadFile's *FileError; other errors start with "combine"; a cancelled
// ctx gives one that says "interrupted"; parts that cannot be right, or
// that add up to other counts than OEIS gives (nqueens.CheckKnown, whose
// *nqueens.KnownError it wraps), give one that matches ErrAltered.
func CombineFiles(ctx context.Context, files []string, workers int) (count.Result, int, error) {
	if len(files) == 0 {
		return count.Result{}, 0, errors.New("combine: no parts")
	}
	var ps []Part
	for _, f := range files {
		p, err := readFile(ctx, f)
		switch {
		case ctx.Err() != nil:
			return count.Result{}, 0, fmt.Errorf("combine: interrupted while reading %s", f)
		case errors.As(err, new(*FileError)):
			return count.Result{}, 0, err
		case err != nil:
			return count.Result{}, 0, fmt.Errorf("combine: %w", err)
		}
		ps = append(ps, p)
	}
	c, err := Combine(ctx, ps, files, workers)
	switch {
	case ctx.Err() != nil:
		return count.Result{}, 0, fmt.Errorf("combine n=%d: interrupted", ps[0].N)
	case err != nil:
		return count.Result{}, 0, fmt.Errorf("combine: %w", err)
	}
	if err := nqueens.CheckKnown(c.N, c.Counts); err != nil {
		return c, len(ps), marked{fmt.Errorf("combine: n=%d: the %d shards add up to %w", c.N, len(ps), err), ErrAltered}
	}
	return c, len(ps), nil
}
