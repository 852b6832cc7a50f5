// Package input reads the small files a user names (a config file, the
// parts of a sharded count) safely: bounded in size, and interruptible even
// when the name is a FIFO no one writes to or a terminal.
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
			return nil, fmt.Errorf("larger than %s", SizeLimit(limit))
		}
		return r.data, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// SizeLimit writes a limit in bytes for a message: "1 MB (1048576 bytes)".
func SizeLimit(limit int64) string {
	if limit%(1<<20) == 0 {
		return fmt.Sprintf("%d MB (%d bytes)", limit>>20, limit)
	}
	return fmt.Sprintf("%d bytes", limit)
}
