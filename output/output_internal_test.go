package output

import (
	"fmt"
	"io"
	"os"
	"testing"
)

// TestErrorNamesTarget fails a write to the temporary file: the error names
// the target as given, not the temporary file, whatever the writer wrapped
// around it, and nothing is left behind.
func TestErrorNamesTarget(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, target := range []string{"out.csv", "./out.csv"} {
		err := Write(target, Options{}, func(w io.Writer) error {
			w.(*fileWriter).f.Close() // the disk gives up
			_, err := io.WriteString(w, "n,class\n")
			return fmt.Errorf("write csv: %w", err)
		})
		if want := "output " + target + ": file already closed"; err == nil || err.Error() != want {
			t.Errorf("Write(%q) = %v, want %s", target, err, want)
		}
		if entries, _ := os.ReadDir("."); len(entries) > 0 {
			t.Errorf("left %v", entries)
		}
	}
}
