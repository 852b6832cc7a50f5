package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/nqueens/nqueens/internal/testutil"
)

// TestHTMLPageInChromium exports the HTML page of a few n, has headless
// Chromium load it, and counts the boards in the DOM Chromium dumps (each a
// figure of class board holding an svg with its queens); a screenshot of
// the n=8 page must show something.
func TestHTMLPageInChromium(t *testing.T) {
	t.Parallel()
	// A browser costs seconds of both cores: the long run renders (the
	// HTML's structure is checked by export's goldens by default).
	testutil.LongOnly(t)
	browser := startChromium(t, chromium(t))
	db := builtCatalog(t, "4-10")
	dir := filepath.Dir(db)
	board := regexp.MustCompile(`<figure class="board"><svg [^>]*>(?s:.*?)</svg>`)
	for _, tt := range []struct{ n, classes int }{{4, 1}, {6, 1}, {8, 12}, {10, 92}} {
		page := filepath.Join(dir, "q"+strconv.Itoa(tt.n)+".html")
		mustRun(t, "--db", db, "export", strconv.Itoa(tt.n), "--format", "html", "-o", page)
		dom := browser.dumpDOM("file://" + page)
		boards := board.FindAll(dom, -1)
		if len(boards) != tt.classes {
			t.Errorf("n=%d: Chromium's DOM holds %d boards, want %d:\n%.500s", tt.n, len(boards), tt.classes, dom)
		}
		for _, b := range boards {
			if q := bytes.Count(b, []byte(`<use href="#q"`)); q != tt.n {
				t.Fatalf("n=%d: a board with %d queens: %.300s", tt.n, q, b)
			}
		}
		if bytes.Contains(dom, []byte("<script")) {
			t.Errorf("n=%d: the page holds a script", tt.n)
		}
	}
	shot := filepath.Join(dir, "q8.png")
	browser.screenshot("file://"+filepath.Join(dir, "q8.html"), shot)
	if st, err := os.Stat(shot); err != nil || st.Size() < 10_000 {
		t.Errorf("screenshot of the n=8 page: %v (%d bytes)", err, sizeOf(st))
	}
}

func sizeOf(st os.FileInfo) int64 {
	if st == nil {
		return 0
	}
	return st.Size()
}
