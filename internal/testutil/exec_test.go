package testutil

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
)

// TestWriteExecutableWhileForking writes and runs a small program 100
// times while other goroutines start processes without pause, as the
// parallel tests of a package do: none of the runs may find the file busy.
// (Written with os.WriteFile alone, about one run in seven fails here with
// ETXTBSY.)
func TestWriteExecutableWhileForking(t *testing.T) {
	t.Parallel()
	prog, err := exec.LookPath("true")
	if err != nil {
		t.Skip("no true to copy")
	}
	data := ReadFile(t, prog)
	stop := make(chan struct{})
	var forks sync.WaitGroup
	for range 4 {
		forks.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
					exec.Command(prog).Run()
				}
			}
		})
	}
	defer forks.Wait()
	defer close(stop)
	dir := t.TempDir()
	for i := range 100 {
		exe := filepath.Join(dir, strconv.Itoa(i))
		WriteExecutable(t, exe, data)
		if err := exec.Command(exe).Run(); errors.Is(err, syscall.ETXTBSY) {
			t.Fatalf("run %d: %v", i, err)
		} else if err != nil {
			t.Fatal(err)
		}
		os.Remove(exe)
	}
}
