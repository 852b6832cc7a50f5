package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// chromium returns the path of a Chromium or Chrome binary, skipping the
// test if there is none, unless NQUEENS_REQUIRE_CHROMIUM=1 (as in CI, which
// installs Debian's chromium) makes that a failure.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	if os.Getenv("NQUEENS_REQUIRE_CHROMIUM") == "1" {
		t.Fatal("no chromium on PATH, and NQUEENS_REQUIRE_CHROMIUM=1")
	}
	t.Skip("no chromium on PATH (install Debian's chromium, or set NQUEENS_REQUIRE_CHROMIUM=1 to make this a failure)")
	return ""
}

// headless runs Chromium headless with flags that keep it off the network
// and returns what it printed on stdout.
func headless(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir()}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, stderr.Bytes())
	}
	return out
}

// TestHTMLPageInChromium exports the HTML page of a few n, has headless
// Chromium load it, and counts the boards in the DOM Chromium dumps (each a
// figure of class board holding an svg with its queens); a screenshot of
// the n=8 page must show something.
func TestHTMLPageInChromium(t *testing.T) {
	t.Parallel()
	bin := chromium(t)
	db := builtCatalog(t, "4-10")
	dir := filepath.Dir(db)
	board := regexp.MustCompile(`<figure class="board"><svg [^>]*>(?s:.*?)</svg>`)
	for _, tt := range []struct{ n, classes int }{{4, 1}, {6, 1}, {8, 12}, {10, 92}} {
		page := filepath.Join(dir, "q"+strconv.Itoa(tt.n)+".html")
		mustRun(t, "--db", db, "export", strconv.Itoa(tt.n), "--format", "html", "-o", page)
		dom := headless(t, bin, "--dump-dom", "file://"+page)
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
	headless(t, bin, "--screenshot="+shot, "--window-size=1200,900", "file://"+filepath.Join(dir, "q8.html"))
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
