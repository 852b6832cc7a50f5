package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/nqueens/nqueens/internal/testutil"
	"github.com/nqueens/nqueens/serve"
	"github.com/nqueens/nqueens/store"
)

// startServe starts nqueens serve on a free port of the catalog db (see
// startReady) and returns it with its base URL, read from the line it
// prints once it listens.
func startServe(t *testing.T, db string, args ...string) (*exec.Cmd, *bufio.Reader, func() bool, string) {
	t.Helper()
	cmd := command(t, filepath.Dir(db), append([]string{"serve", "--db", db, "--addr", "127.0.0.1:0"}, args...)...)
	stderr, guardFired := startReady(t, cmd)
	line, err := stderr.ReadString('\n')
	m := regexp.MustCompile(`^serving .* on (http://127\.0\.0\.1:\d+)/ \(Ctrl-C to stop\)\n$`).FindStringSubmatch(line)
	if m == nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("serve said %q %v", line, err)
	}
	return cmd, stderr, guardFired, m[1]
}

// fetch GETs u and returns the status and body.
func fetch(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

// TestServeBesideBuild runs nqueens serve on a catalog while another
// process builds n = 13 into it: the server answers throughout, shows n =
// 13 as being built while the build holds its transaction open, serves it
// once the build completes, and SIGTERM (or SIGINT) ends it with status 0.
func TestServeBesideBuild(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "c.db")
	buildApart(t, db, "1-10")
	cmd, stderr, guardFired, base := startServe(t, db)
	if code, body := fetch(t, base+"/api/v1/classes/8/1"); code != 200 || !strings.Contains(body, `"class":1`) {
		t.Fatalf("before the build: %d %s", code, body)
	}

	b := startPausedBuild(t, db, 13, 1)
	waited := false
	defer func() {
		if !waited {
			b.stop()
		}
	}()
	for range 3 {
		if code, body := fetch(t, base+"/n/10/5"); code != 200 || !strings.Contains(body, "n = 10, class 5") {
			t.Fatalf("during the build: /n/10/5 %d %.300s", code, body)
		}
		if code, _ := fetch(t, base+"/n/13"); code != 404 {
			t.Fatalf("during the build: /n/13 %d, want 404", code)
		}
		if code, body := fetch(t, base+"/api/v1/counts"); code != 200 || !strings.Contains(body, `"n":13,`) {
			t.Fatalf("during the build: /api/v1/counts %d %.300s", code, body)
		}
	}
	b.resume()
	waited = true
	if err := b.wait(); err != nil {
		t.Fatalf("build 13: %v\n%s", err, b.stderr)
	}
	if code, body := fetch(t, base+"/n/13"); code != 200 || !strings.Contains(body, "The classes of n = 13") {
		t.Fatalf("after the build: /n/13 %d %.300s", code, body)
	}

	rest, err := signalAndWait(t, cmd, stderr, guardFired, syscall.SIGTERM)
	if err != nil {
		t.Errorf("serve after SIGTERM: %v\n%s", err, rest)
	}
	for _, want := range []string{"GET /n/10/5 200 ", "GET /n/13 404 ", "GET /n/13 200 ", "serve: stopped\n"} {
		if !bytes.Contains(rest, []byte(want)) {
			t.Errorf("stderr lacks %q:\n%s", want, rest)
		}
	}

	// SIGINT too, and --quiet logs nothing but the address.
	cmd, stderr, guardFired, base = startServe(t, db, "--quiet")
	if code, _ := fetch(t, base+"/"); code != 200 {
		t.Errorf("/: %d", code)
	}
	rest, err = signalAndWait(t, cmd, stderr, guardFired, syscall.SIGINT)
	if err != nil || len(rest) > 0 {
		t.Errorf("serve --quiet after SIGINT: %v, stderr %q", err, rest)
	}
}

// TestServeInChromium has headless Chromium load the server's pages: the
// index, the page of n = 8 reached by the index's link (whose boards it
// counts), and the class page the lookup form leads to. The pages hold no
// script and the test clicks nothing: it follows the link and submits the
// form (a GET) itself from the DOM Chromium built, the href, and the
// form's action and its input's name, as a browser would.
func TestServeInChromium(t *testing.T) {
	t.Parallel()
	// A browser costs seconds of both cores: the long run renders (the
	// pages' HTML is checked by serve's tests by default).
	testutil.LongOnly(t)
	browser := startChromium(t, chromium(t))
	path := builtCatalog(t, "4-10")
	dir := filepath.Dir(path)
	db, err := store.Open(context.Background(), path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv := httptest.NewServer(serve.New(db, serve.Options{}))
	defer srv.Close()

	index := browser.dumpDOM(srv.URL + "/")
	link := regexp.MustCompile(`<a href="(/n/8)">8</a>`).FindSubmatch(index)
	if link == nil {
		t.Fatalf("the index has no link to n=8:\n%.2000s", index)
	}
	// The chart of the counts, drawn by the page itself under its
	// Content-Security-Policy: laid out at its width and shape, its lines styled by
	// the stylesheet, a point for each count of n = 4..10 and its line
	// rising from n = 4 to 10 (up the page, y falls).
	chart := browser.evaluate(`(() => {
		const svg = document.querySelector("svg.chart");
		if (!svg) return "no chart";
		const line = svg.querySelector("path.line.total");
		const pts = svg.querySelectorAll("circle.point.total");
		const box = svg.getBoundingClientRect();
		return [box.width > 300 && Math.abs(box.height / box.width - 300 / 640) < 0.02, getComputedStyle(line).stroke, getComputedStyle(line).fill,
			svg.querySelectorAll("circle.point.unique").length, pts.length,
			pts[0].cy.baseVal.value > pts[pts.length-1].cy.baseVal.value, line.getTotalLength() > 100].join(" ");
	})()`)
	if want := "true rgb(30, 136, 229) none 7 7 true true"; chart != want {
		t.Errorf("Chromium's chart of the counts: %q, want %q (laid out, styled, 7 points a line, rising)", chart, want)
	}
	page := browser.dumpDOM(srv.URL + string(link[1]))
	boards := regexp.MustCompile(`<figure class="board"><a href="/n/8/\d+"><svg [^>]*>(?s:.*?)</svg>`).FindAll(page, -1)
	if len(boards) != 12 {
		t.Errorf("Chromium's DOM of /n/8 holds %d boards, want 12:\n%.2000s", len(boards), page)
	}
	for _, b := range boards {
		if q := bytes.Count(b, []byte(`<use href="#q"`)); q != 8 {
			t.Fatalf("a board with %d queens: %.300s", q, b)
		}
	}

	form := regexp.MustCompile(`<form class="lookup" action="([^"]+)" method="get"><label>Board <input name="([^"]+)"`).FindSubmatch(index)
	if form == nil {
		t.Fatalf("the index has no lookup form:\n%.2000s", index)
	}
	submit := srv.URL + string(form[1]) + "?" + url.Values{string(form[2]): {"4 6 1 5 2 0 7 3"}}.Encode()
	class := browser.dumpDOM(submit)
	if !bytes.Contains(class, []byte("n = 8, class 9")) || !bytes.Contains(class, []byte("1 6 4 7 0 3 5 2")) {
		t.Errorf("the lookup form of 4 6 1 5 2 0 7 3 did not land on class 9 of n=8:\n%.2000s", class)
	}
	// The page marks the user's board among the class's images: one
	// figure, the antitranspose, the user's queens.
	yours := regexp.MustCompile(`<figure class="image yours"><svg [^>]*aria-label="([^"]*)"[^>]*>(?s:(.*?))</svg><figcaption>([^<]*)</figcaption>`).FindAllSubmatch(class, -1)
	if len(yours) != 1 || !bytes.Contains(yours[0][1], []byte(": 4 6 1 5 2 0 7 3, your board")) || string(yours[0][3]) != "antitranspose (your board)" ||
		!bytes.Contains(class, []byte("Your board 4 6 1 5 2 0 7 3 is the antitranspose of the canonical board")) {
		t.Errorf("the class page does not mark the board looked up once: %q\n%.3000s", yours, class)
	}
	for r, c := range []int{4, 6, 1, 5, 2, 0, 7, 3} {
		if len(yours) == 1 && !bytes.Contains(yours[0][2], []byte(fmt.Sprintf(`<use href="#q" x="%d" y="%d"`, c, r))) {
			t.Errorf("the marked board lacks the queen of row %d, column %d", r, c)
		}
	}
	// A board that is no solution: drawn with its rows and columns
	// numbered and the two queens that attack each other marked.
	bad := browser.dumpDOM(srv.URL + string(form[1]) + "?" + url.Values{string(form[2]): {"0 2 4 6 1 3 5 7"}}.Encode())
	marks := regexp.MustCompile(`<rect class="attack" x="(\d+)" y="(\d+)"`).FindAllSubmatch(bad, -1)
	if len(marks) != 2 || string(marks[0][1]) != "0" || string(marks[0][2]) != "0" || string(marks[1][1]) != "7" || string(marks[1][2]) != "7" ||
		bytes.Count(bad, []byte(`<text class="label"`)) != 16 {
		t.Errorf("the lookup of 0 2 4 6 1 3 5 7 marks %q, with %d labels; want the queens of rows 0 and 7 and 16 labels:\n%.3000s", marks, bytes.Count(bad, []byte(`<text class="label"`)), bad)
	}

	shot := filepath.Join(dir, "serve-8.png")
	if out := os.Getenv("NQUEENS_SERVE_SCREENSHOT"); out != "" {
		shot = out // to refresh docs/serve-8.png
	}
	browser.screenshot(srv.URL+"/n/8", shot)
	if st, err := os.Stat(shot); err != nil || st.Size() < 10_000 {
		t.Errorf("screenshot of /n/8: %v (%d bytes)", err, sizeOf(st))
	}
}

// TestServeBadUsage checks what serve refuses before it listens.
func TestServeBadUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, _, err := runCLI(t, "--db", filepath.Join(dir, "none.db"), "serve", "--addr", "127.0.0.1:0")
	if err == nil || !errors.Is(err, store.ErrNoCatalog) {
		t.Errorf("serve of a missing catalog: %v", err)
	}
	var ue usageError
	if _, _, err := runCLI(t, "serve", "--addr", "8080"); !errors.As(err, &ue) || !strings.Contains(err.Error(), `--addr "8080": want HOST:PORT`) {
		t.Errorf("serve --addr 8080: %v", err)
	}
	if _, _, err := runCLI(t, "serve", "extra"); !errors.As(err, &ue) {
		t.Errorf("serve extra: %v", err)
	}
	if _, _, err := runCLI(t, "serve", "--addr", "127.0.0.1:99999"); !errors.As(err, &ue) || !strings.Contains(err.Error(), "the port must be a number from 0 to 65535") {
		t.Errorf("serve --addr 127.0.0.1:99999: %v", err)
	}
	// A port in use: one line saying so and what to do, not Go's error.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	db := builtCatalog(t, "4")
	_, _, err = runCLI(t, "--db", db, "serve", "--addr", ln.Addr().String())
	if err == nil || err.Error() != "serve: "+ln.Addr().String()+" is in use, by another server or an earlier nqueens serve: choose another --addr (port 0: any free port)" {
		t.Errorf("serve on a port in use: %v", err)
	}
}
