package catalogfile_test

import (
	"fmt"
	"testing"

	"github.com/nqueens/nqueens/internal/catalogfile"
)

func ExampleSuffixes() {
	for _, s := range catalogfile.Suffixes() {
		fmt.Println("nqueens.db" + s)
	}
	// Output:
	// nqueens.db-wal
	// nqueens.db-shm
	// nqueens.db-journal
	// nqueens.db.lock
}

func TestIsSQLite(t *testing.T) {
	for _, tt := range []struct {
		b    string
		want bool
	}{
		{"SQLite format 3\x00", true},
		{"SQLite format 3\x00\x10\x00\x02\x02", true},
		{"SQLite format 3", false}, // cut short
		{"SQLite format 4\x00", false},
		{"sqlite format 3\x00", false},
		{"", false},
		{`{"format":"nqueens-count-state"}`, false},
	} {
		if got := catalogfile.IsSQLite([]byte(tt.b)); got != tt.want {
			t.Errorf("IsSQLite(%q) = %v, want %v", tt.b, got, tt.want)
		}
	}
}
