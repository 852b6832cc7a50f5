package output_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/nqueens/nqueens/output"
)

func ExampleWrite() {
	dir, _ := os.MkdirTemp("", "output")
	defer os.RemoveAll(dir)
	db := filepath.Join(dir, "nqueens.db")
	os.WriteFile(db, []byte("SQLite format 3\x00"), 0o644)
	opts := output.Options{
		Protect:   []string{db, db + "-wal", db + "-shm", db + "-journal", db + ".lock"},
		Protected: "the catalog (or one of its files)",
	}
	hello := func(w io.Writer) error {
		_, err := fmt.Fprintln(w, "hello")
		return err
	}

	// A new file: written under a temporary name, renamed when complete.
	out := filepath.Join(dir, "hello.txt")
	if err := output.Write(out, opts, hello); err != nil {
		fmt.Println(err)
	}
	b, _ := os.ReadFile(out)
	fmt.Print(string(b))

	// The catalog's write-ahead log, spelled another way: refused.
	err := output.Write(filepath.Join(dir, ".", "nqueens.db-wal"), opts, hello)
	fmt.Println(errors.Is(err, output.ErrProtected))

	// "-" is standard output.
	output.Write("-", opts, hello)
	// Output:
	// hello
	// true
	// hello
}
