// Package input reads what a user gives nqueens: the small files a user
// names (a config file, the parts of a sharded count), bounded in size and
// interruptible even when the name is a FIFO no one writes to or a
// terminal (ReadFile, Reader), and placements in every form people and our
// exports write them (ReadPlacements).
package input

import (
	"context"
	"fmt"
	"io"
	"os"
)

// MaxSmall bounds the files nqueens reads whole: a config file or a part of
// count --shard, each a few short lines.
const MaxSmall = 1 << 20

// ReadFile reads the file at path whole, refusing one over limit bytes (it
// reads at most limit+1) with an error that says the limit. The open and
// the read run in a goroutine, so that ReadFile returns ctx's error as soon
// as ctx is cancelled even when they block: open(2) of a FIFO waits for a
// writer, a read of a pipe or a terminal for data. The goroutine is then
// left behind, blocked, until the process exits.
func ReadFile(ctx context.Context, path string, limit int64) ([]byte, error) {
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		f, err := os.Open(path)
		if err != nil {
			done <- result{err: err}
			return
		}
		defer f.Close()
		data, err := io.ReadAll(io.LimitReader(f, limit+1))
		done <- result{data, err}
	}()
	select {
	case r := <-done:
		if r.err == nil && int64(len(r.data)) > limit {
			return nil, fmt.Errorf("larger than %s", sizeLimit(limit))
		}
		return r.data, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// sizeLimit writes a limit in bytes for a message: "1 MB (1048576 bytes)".
func sizeLimit(limit int64) string {
	if limit%(1<<20) == 0 {
		return fmt.Sprintf("%d MB (%d bytes)", limit>>20, limit)
	}
	return fmt.Sprintf("%d bytes", limit)
}

// Reader returns a reader of r whose Read returns ctx's error as soon as
// ctx is cancelled, even while a read of r blocks (a terminal waiting for
// a line, a pipe no one writes to). Each Read of r runs in a goroutine; one
// blocked when ctx is cancelled is left behind until r returns, or the
// process exits.
func Reader(ctx context.Context, r io.Reader) io.Reader { return &ctxReader{ctx: ctx, r: r} }

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

type readResult struct {
	n   int
	err error
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	// The goroutine reads into a buffer of its own, never into p, which
	// the caller may reuse once Read returns.
	buf := make([]byte, len(p))
	done := make(chan readResult, 1)
	go func() {
		n, err := c.r.Read(buf)
		done <- readResult{n, err}
	}()
	select {
	case res := <-done:
		return copy(p, buf[:res.n]), res.err
	case <-c.ctx.Done():
		return 0, c.ctx.Err()
	}
}
