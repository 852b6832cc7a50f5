package input_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/nqueens/nqueens/input"
)

// TestReaderReturnsOnCancel reads from a pipe no one writes to: the read
// returns once the context is cancelled.
func TestReaderReturnsOnCancel(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	defer r.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := input.Reader(ctx, r).Read(make([]byte, 10))
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Read after cancel: %v, want context.Canceled", err)
	}
}

func TestReaderReadsAll(t *testing.T) {
	data := strings.Repeat("4 6 1 5 2 0 7 3\n", 10000)
	got, err := io.ReadAll(input.Reader(context.Background(), strings.NewReader(data)))
	if err != nil || string(got) != data {
		t.Errorf("ReadAll: %d bytes, %v; want %d", len(got), err, len(data))
	}
}

// TestReadFileLimits refuses a file over the limit, and returns on cancel
// while a FIFO has no writer.
func TestReadFileLimits(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big")
	os.WriteFile(big, make([]byte, 2048), 0o644)
	if _, err := input.ReadFile(context.Background(), big, 1024); err == nil || err.Error() != "larger than 1024 bytes" {
		t.Errorf("ReadFile of 2048 bytes with a limit of 1024: %v", err)
	}
	if data, err := input.ReadFile(context.Background(), big, 2048); err != nil || len(data) != 2048 {
		t.Errorf("ReadFile at the limit: %d bytes, %v", len(data), err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := input.ReadFile(ctx, fifo, 1024); !errors.Is(err, context.Canceled) {
		t.Errorf("ReadFile of a FIFO with no writer, cancelled: %v", err)
	}
}
