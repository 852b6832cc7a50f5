package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/enumerate"
	"github.com/nqueens/nqueens/export"
	"github.com/nqueens/nqueens/store"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// testCatalog is a catalog of n = 1..10 complete and n = 11 stopped after
// its first work unit, built once for the package's tests.
var testCatalog struct {
	once sync.Once
	path string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if testCatalog.path != "" {
		os.RemoveAll(filepath.Dir(testCatalog.path))
	}
	os.Exit(code)
}

// catalogPath returns the path of the shared test catalog, building it on
// first use.
func catalogPath(t testing.TB) string {
	t.Helper()
	testCatalog.once.Do(func() {
		dir, err := os.MkdirTemp("", "serve-test")
		if err != nil {
			testCatalog.err = err
			return
		}
		testCatalog.path = filepath.Join(dir, "c.db")
		testCatalog.err = buildCatalog(testCatalog.path)
	})
	if testCatalog.err != nil {
		t.Fatal(testCatalog.err)
	}
	return testCatalog.path
}

// buildCatalog builds n = 1..10 into a new catalog at path, and the first
// work unit of n = 11.
func buildCatalog(path string) error {
	ctx := context.Background()
	db, err := store.Open(ctx, path, store.Options{Create: true})
	if err != nil {
		return err
	}
	defer db.Close()
	for n := 1; n <= 10; n++ {
		if _, err := db.Run(ctx, n, nqueens.Shard{}, store.RunOptions{Workers: 1}); err != nil {
			return err
		}
	}
	stop, cancel := context.WithCancel(ctx)
	defer cancel()
	_, err = db.Run(stop, 11, nqueens.Shard{}, store.RunOptions{Workers: 1, Progress: func(int, int) { cancel() }})
	if err == nil {
		return fmt.Errorf("the build of n=11 was not stopped")
	}
	return nil
}

// openServer opens the test catalog read-only and returns a server of it.
func openServer(t testing.TB, opts Options) (*Server, *store.DB) {
	t.Helper()
	db, err := store.Open(context.Background(), catalogPath(t), store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return New(db, opts), db
}

// get makes a request of s and returns its response.
func get(t testing.TB, s http.Handler, method, target string) *httptest.ResponseRecorder {
	t.Helper()
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest(method, target, nil))
	return w
}

// The media types of the responses.
const (
	htmlType   = "text/html; charset=utf-8"
	jsonType   = "application/json"
	ndjsonType = "application/x-ndjson"
	csvType    = "text/csv; charset=utf-8"
	gridType   = "text/plain; charset=utf-8"
	cssType    = "text/css; charset=utf-8"
	svgType    = "image/svg+xml"
	redirect   = "" // a redirect has no body, and want is its Location
)

// TestRoutes requests every route, with good and bad parameters, and
// checks the status, the content type and what the body holds.
func TestRoutes(t *testing.T) {
	s, _ := openServer(t, Options{})
	tests := []struct {
		method, target string
		status         int
		ctype          string
		want           []string // in the body, or in Location for a redirect
	}{
		// Pages.
		{"GET", "/", 200, htmlType, []string{`<a href="/n/8">8</a>`, "<td>92</td><td>12</td>", `action="/lookup"`, "no (1 of "}},
		{"HEAD", "/", 200, htmlType, nil},
		{"GET", "/n/8", 200, htmlType, []string{"The classes of n = 8", `<a href="/n/8/12">`, "page 1 of 1: classes 1–12 of 12"}},
		{"GET", "/n/10?page=1", 200, htmlType, []string{"page 1 of 1: classes 1–92 of 92"}},
		{"GET", "/n/8?symmetry=rot180", 200, htmlType, []string{"classes 1–1 of 1", `<span class="sym">rot180</span>`, `/export/8.csv?symmetry=rot180`}},
		{"GET", "/n/8?symmetry=rot90", 200, htmlType, []string{"No classes of symmetry rot90."}},
		{"GET", "/n/2", 200, htmlType, []string{"No classes."}},
		{"GET", "/n/8?class=7", 303, redirect, []string{"/n/8/7"}},
		{"GET", "/n/8?class=13", 404, htmlType, []string{"n=8 has 12 classes, no class 13"}},
		{"GET", "/n/8?class=x", 400, htmlType, []string{"want a class number, from 1 to 12 for n=8"}},
		{"GET", "/n/8?page=2", 404, htmlType, []string{"no page 2: these classes of n=8 fill 1 page"}},
		{"GET", "/n/10?page=99999999999", 404, htmlType, []string{"no page 99999999999"}},
		{"GET", "/n/8?page=x", 400, htmlType, []string{"page must be a whole number from 1 to 1, got &#34;x&#34;"}},
		{"GET", "/n/8.json?page=2", 404, jsonType, []string{`{"error":"no page 2: these classes of n=8 fill 1 page"}`}},
		// The twins of the pages, and the square filter.
		{"GET", "/.json", 200, jsonType, []string{`[{"n":1,`, `"n":8,`, `"unique":12,`}},
		{"GET", "/.json?x=1", 400, jsonType, []string{`"error":"unknown parameter`}},
		{"GET", "/", 200, htmlType, []string{`<a href="/.json">`, `<a href="/api/v1/openapi.json">`, `<svg class="chart"`, `<path class="line total" d="M`, `<title>n=8: 92 total</title>`, `<title>n=10: 92 unique</title>`}},
		{"GET", "/n/8.json", 200, jsonType, []string{`{"n":8,"count":12,"page":1,"pages":1,"items":[{"n":8,"class":1,"placement":[0,4,7,5,2,6,1,3],"orbit":8,"symmetry":"none"},`}},
		{"GET", "/n/8.json?symmetry=rot180", 200, jsonType, []string{`{"n":8,"symmetry":"rot180","count":1,"page":1,"pages":1,"items":[{"n":8,"class":10,`}},
		{"GET", "/n/8.csv", 200, csvType, []string{"n,class,orbit,symmetry,placement\n8,1,8,none,0 4 7 5 2 6 1 3\n", "8,12,8,none,2 5 1 4 7 0 6 3\n"}},
		{"GET", "/n/8.csv?square=0,2", 200, csvType, []string{"n,class,orbit,symmetry,placement\n8,10,4,rot180,2 4 1 7 0 6 3 5\n8,11,8,none,2 4 7 3 0 6 1 5\n8,12,8,none,2 5 1 4 7 0 6 3\n"}},
		{"GET", "/n/10.json?symmetry=none&square=0,3", 200, jsonType, []string{`"page":1,"pages":1,`}},
		{"GET", "/n/8.json?square=0,2&symmetry=none", 200, jsonType, []string{`"symmetry":"none","square":"0,2","count":2,`, `"class":11,`, `"class":12,`}},
		{"GET", "/n/8.csv?size=large", 400, htmlType, []string{"unknown parameter &#34;size&#34;"}},
		{"GET", "/n/8.json?class=3", 400, jsonType, []string{"unknown parameter"}},
		{"GET", "/n/8.xml", 400, htmlType, nil},
		{"GET", "/n/12.json", 404, jsonType, []string{`{"error":"n=12 is not in the catalog"}`}},
		{"GET", "/n/8?square=0,2", 200, htmlType, []string{"Showing the 3 classes with a queen at row 0, column 2.", "classes 1–3 of 3", `href="/n/8/10"`, `href="/n/8.json?square=0%2C2"`, `href="/n/8.csv?square=0%2C2"`, `/export/8.csv?square=0%2C2`, `value="0,2"`, `<a href="/n/8?square=0%2C2&amp;symmetry=rot180">rot180</a>`}},
		{"GET", "/n/8?square=0,0&symmetry=rot180", 200, htmlType, []string{"No classes of symmetry rot180 with a queen at row 0, column 0."}},
		{"GET", "/n/8?square=8,0", 400, htmlType, []string{"square 8,0: n=8 has rows 0 to 7, no row 8"}},
		{"GET", "/n/8?square=0,", 400, htmlType, []string{"square &#34;0,&#34;: want r,c"}},
		{"GET", "/n/8?square=0,+2", 400, htmlType, []string{"square &#34;0, 2&#34;: write it as 0,2"}},
		{"GET", "/n/8?size=large", 200, htmlType, []string{`<section class="boards large">`, `<b>large</b>`, `href="/n/8.json"`}},
		{"GET", "/n/8?size=300&square=0,2", 200, htmlType, []string{`<section class="boards fixed">`, `aria-label="n=8 class 10: 2 4 1 7 0 6 3 5, orbit 4, symmetric under the half turn (180°)" width="300" height="300">`, `href="/n/8?square=0%2C2"`}},
		{"GET", "/n/8?size=huge", 400, htmlType, []string{"size &#34;huge&#34;: want small, large or a width in pixels from 40 to 800"}},
		{"GET", "/n/8?size=801", 400, htmlType, []string{"want small, large or a width in pixels"}},
		{"GET", "/n/8/7.json", 200, jsonType, []string{`{"n":8,"class":7,"placement":[1,5,7,2,0,3,6,4],"orbit":8,"symmetry":"none"}` + "\n"}},
		{"GET", "/n/8/13.json", 404, jsonType, []string{`{"error":"n=8 has 12 classes, no class 13: no such class"}`}},
		{"GET", "/n/8/7.json?board=1", 400, jsonType, nil},
		{"GET", "/api/v1/classes?n=8&square=0,2&limit=1", 200, jsonType, []string{`{"n":8,"offset":0,"limit":1,"count":3,"items":[{"n":8,"class":10,`}},
		{"GET", "/api/v1/classes?n=8&square=9,9", 400, jsonType, []string{`"error":"square 9,9: n=8 has rows 0 to 7, no row 9"`}},
		{"GET", "/export/8.csv?square=0,2", 200, csvType, []string{"n,class,orbit,symmetry,placement\n8,10,4,rot180,2 4 1 7 0 6 3 5\n8,11,8,none,2 4 7 3 0 6 1 5\n8,12,8,none,2 5 1 4 7 0 6 3\n"}},
		{"GET", "/export/8.leetcode?square=0,2&symmetry=rot180", 200, jsonType, []string{`[["..Q.....","....Q...",".Q......",".......Q","Q.......","......Q.","...Q....",".....Q.."],`}},
		{"GET", "/export/8.csv?square=a", 400, htmlType, []string{"want r,c"}},
		{"GET", "/export/8.csv?square=0,2&all=1&order=lex", 200, csvType, []string{"n,class,orbit,symmetry,placement\n8,10,4,rot180,2 4 1 7 0 6 3 5\n8,11,8,none,2 4 7 3 0 6 1 5\n"}},
		{"GET", "/n/10?page=0", 400, htmlType, []string{"page must be a whole number from 1 to 1, got &#34;0&#34;"}},
		{"GET", "/n/8?page=0", 400, htmlType, []string{"page must be a whole number from 1"}},
		{"GET", "/n/8?page=01", 400, htmlType, []string{"page must be a whole number"}},
		{"GET", "/n/8?symmetry=diagonal", 400, htmlType, []string{"want none, rot180, rot90 or full"}},
		{"GET", "/n/8?sort=desc", 400, htmlType, []string{"unknown parameter &#34;sort&#34;"}},
		{"GET", "/n/8?page=1&page=1", 400, htmlType, []string{"given 2 times"}},
		{"GET", "/n/11", 404, htmlType, []string{"n=11 is being built"}},
		{"GET", "/n/12", 404, htmlType, []string{"n=12 is not in the catalog"}},
		{"GET", "/n/33", 400, htmlType, []string{"n must be between 1 and 32, got 33"}},
		{"GET", "/n/x", 400, htmlType, []string{"n must be a number between 1 and 32"}},
		{"GET", "/n/08", 400, htmlType, []string{"got &#34;08&#34;: leading zeros are refused"}},
		{"GET", "/n/8?symmetry=NONE", 400, htmlType, []string{"symmetry &#34;NONE&#34;: write it as none"}},
		{"GET", "/n/8?symmetry=none,none", 400, htmlType, []string{"write it as none"}},
		{"GET", "/n/8/7", 200, htmlType, []string{"n = 8, class 7", "1 5 7 2 0 3 6 4", `href="/n/8/6"`, `href="/n/8/8"`, `href="/n/8/7.svg"`, `href="/n/8/7.json"`, "Its 8 solutions", "antitranspose"}},
		{"GET", "/n/8/1", 200, htmlType, []string{`href="/n/8/2"`}},
		{"GET", "/n/4/1", 200, htmlType, []string{"Its 2 solutions", "rot90: symmetric under the quarter turn"}},
		{"GET", "/n/8/13", 404, htmlType, []string{"n=8 has 12 classes, no class 13"}},
		{"GET", "/n/8/0", 404, htmlType, []string{"no class 0"}},
		{"GET", "/n/8/-1", 400, htmlType, []string{"want a class number"}},
		{"GET", "/n/8/7?x=1", 400, htmlType, []string{"unknown parameter"}},
		{"GET", "/n/8/7.svg", 200, svgType, []string{"<title>n=8 class 7: 1 5 7 2 0 3 6 4, orbit 8, no symmetry</title>"}},
		{"GET", "/n/8/7.png", 400, htmlType, []string{"want a class number"}},
		{"GET", "/lookup", 200, htmlType, []string{`name="placement"`}},
		{"GET", "/lookup?placement=4+6+1+5+2+0+7+3", 303, redirect, []string{"/n/8/9"}},
		{"GET", "/lookup?placement=4,6,1,5,2,0,7,3", 303, redirect, []string{"/n/8/9"}},
		{"GET", "/lookup?placement=%5B4%2C+6%2C+1%2C+5%2C+2%2C+0%2C+7%2C+3%5D", 303, redirect, []string{"/n/8/9"}},
		{"GET", "/lookup?placement=0+2+4+1+3+5+6+7", 200, htmlType, []string{"is not a solution: queens at row 0 column 0 and row 5 column 5 attack each other"}},
		{"GET", "/lookup?placement=1+2", 400, htmlType, []string{"2 columns make a board of n = 2, whose columns run from 0 to 1: 2 (row 1) is off the board"}},
		{"GET", "/lookup?placement=1+1", 400, htmlType, []string{"placement: column 1 is in rows 0 and 1"}},
		{"GET", "/lookup?placement=0+2+4+6+8+10+1+3+5+7+9", 404, htmlType, []string{"but n=11 is being built: 1 of 203 work units so far"}},
		{"GET", "/style.css", 200, cssType, []string{"figure.board"}},
		{"GET", "/nowhere", 404, htmlType, []string{"no page at /nowhere"}},
		{"GET", "/n/8/7/", 404, htmlType, nil},
		{"GET", "/templates/layout.html", 404, htmlType, nil},
		{"GET", "/static/style.css", 404, htmlType, nil},
		{"POST", "/", 405, htmlType, nil},
		{"POST", "/n/8", 405, htmlType, []string{"method POST not allowed: use GET or HEAD"}},
		{"DELETE", "/nowhere", 405, htmlType, nil},
		// Exports.
		{"GET", "/export/8.json", 200, jsonType, []string{`{"n":8,"class":10,"placement":[2,4,1,7,0,6,3,5],"orbit":4,"symmetry":"rot180"}`}},
		{"GET", "/export/8.csv?all=1", 200, csvType, []string{"n,class,orbit,symmetry,placement\n8,1,8,none,0 4 7 5 2 6 1 3\n"}},
		{"GET", "/export/4.leetcode?all=1", 200, jsonType, []string{`[[".Q..","...Q","Q...","..Q."],["..Q.","Q...","...Q",".Q.."]]`}},
		{"GET", "/export/6.ndjson?all=0", 200, ndjsonType, []string{`"symmetry":"rot180"`}},
		{"GET", "/export/4.grid", 200, gridType, []string{".Q..\n...Q\nQ...\n..Q.\n"}},
		{"HEAD", "/export/10.csv?all=1", 200, csvType, nil},
		{"GET", "/export/8.svg", 404, htmlType, []string{"want /export/N.FORMAT"}},
		{"GET", "/export/8", 404, htmlType, nil},
		{"GET", "/export/8.csv?all=yes", 400, htmlType, []string{"all must be 1 or 0"}},
		{"GET", "/export/8.csv?class=1", 400, htmlType, []string{"unknown parameter"}},
		{"GET", "/export/11.csv", 404, htmlType, []string{"n=11 is being built"}},
		{"GET", "/export/x.csv", 400, htmlType, nil},
		// The API.
		{"GET", "/api/v1/counts", 200, jsonType, []string{`[{"n":1,`, `"n":8,`, `"unique":12,`, `"complete":false`}},
		{"GET", "/api/v1/counts?n=8", 400, jsonType, []string{`"error":"unknown parameter \"n\": this page takes none"`}},
		{"GET", "/api/v1/classes?n=8&limit=2", 200, jsonType, []string{`{"n":8,"offset":0,"limit":2,"count":12,"items":[{"n":8,"class":1,`}},
		{"GET", "/api/v1/classes?n=8&offset=11", 200, jsonType, []string{`"limit":100,"count":12,"items":[{"n":8,"class":12,`}},
		{"GET", "/api/v1/classes?n=8&offset=12", 200, jsonType, []string{`"count":12,"items":[]}`}},
		{"GET", "/api/v1/classes?n=10&symmetry=rot180", 200, jsonType, []string{`"count":3,`}},
		{"GET", "/api/v1/classes?n=2", 200, jsonType, []string{`"count":0,"items":[]}`}},
		{"GET", "/api/v1/classes?n=8&limit=1000", 200, jsonType, nil},
		{"GET", "/api/v1/classes?n=8&limit=1001", 400, jsonType, []string{"limit must be a whole number from 1 to 1,000"}},
		{"GET", "/api/v1/classes?n=8&limit=0", 400, jsonType, nil},
		{"GET", "/api/v1/classes?n=8&offset=-1", 400, jsonType, nil},
		{"GET", "/api/v1/classes?n=8&symmetry=odd", 400, jsonType, nil},
		{"GET", "/api/v1/classes?limit=2", 400, jsonType, []string{"missing parameter n"}},
		{"GET", "/api/v1/classes?n=12", 404, jsonType, []string{"n=12 is not in the catalog"}},
		{"GET", "/api/v1/classes?n=11", 404, jsonType, nil},
		{"GET", "/api/v1/classes/8/7", 200, jsonType, []string{`{"n":8,"class":7,"placement":[1,5,7,2,0,3,6,4],"orbit":8,"symmetry":"none"}` + "\n"}},
		{"GET", "/api/v1/classes/8/13", 404, jsonType, []string{`{"error":"n=8 has 12 classes, no class 13: no such class"}`}},
		{"GET", "/api/v1/classes/8/x", 400, jsonType, nil},
		{"GET", "/api/v1/classes/40/1", 400, jsonType, nil},
		{"GET", "/api/v1/classes/12/1", 404, jsonType, nil},
		{"GET", "/api/v1/lookup?placement=4+6+1+5+2+0+7+3", 200, jsonType, []string{`{"n":8,"placement":[4,6,1,5,2,0,7,3],"valid":true,"canonical":[1,6,4,7,0,3,5,2],"class":9,"orbit":8,"symmetry":"none","transform":"antitranspose"}`}},
		{"GET", "/api/v1/lookup?placement=0+2+4+1+3+5+6+7", 200, jsonType, []string{`"valid":false,"error":"queens at row 0 column 0 and row 5 column 5 attack each other"`}},
		{"GET", "/api/v1/lookup?placement=0+2+4+6+8+10+1+3+5+7+9", 200, jsonType, []string{`"valid":true`, `"orbit":8`}},
		{"GET", "/api/v1/lookup?placement=9", 400, jsonType, nil},
		{"GET", "/api/v1/lookup", 400, jsonType, []string{"missing parameter placement"}},
		{"GET", "/api/v1/lookup?placement=1+0%0A0+1", 400, jsonType, []string{"one board, on one line"}},
		{"GET", "/api/v1/nowhere", 404, jsonType, []string{`{"error":"no page at /api/v1/nowhere"}`}},
		{"PUT", "/api/v1/classes/8/7", 405, jsonType, []string{`{"error":"method PUT not allowed: use GET or HEAD"}`}},
		{"POST", "/api/v1/nowhere", 405, jsonType, nil},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.target, func(t *testing.T) {
			w := get(t, s, tt.method, tt.target)
			if w.Code != tt.status {
				t.Fatalf("status %d, want %d: %.500s", w.Code, tt.status, w.Body)
			}
			if ct := w.Header().Get("Content-Type"); tt.ctype != "" && ct != tt.ctype {
				t.Errorf("Content-Type %q, want %q", ct, tt.ctype)
			}
			got := w.Body.String()
			if w.Code == http.StatusSeeOther {
				got = w.Header().Get("Location")
			}
			for _, want := range tt.want {
				if !strings.Contains(got, want) {
					t.Errorf("body lacks %q:\n%.3000s", want, got)
				}
			}
			if tt.method == "HEAD" && w.Body.Len() > 0 && strings.HasPrefix(tt.target, "/export/") {
				t.Errorf("HEAD of an export wrote %d bytes", w.Body.Len())
			}
			if ct := w.Header().Get("Content-Type"); ct == jsonType && tt.method != "HEAD" && !json.Valid(w.Body.Bytes()) {
				t.Errorf("invalid JSON: %.300s", w.Body)
			}
			if w.Code == 405 && w.Header().Get("Allow") != "GET, HEAD" {
				t.Errorf("405 with Allow %q", w.Header().Get("Allow"))
			}
		})
	}
}

// TestPagesCountOneRight checks the numbers in the words of the pages: one
// class, one solution and one board are each singular, and large counts
// are grouped by threes as every message of nqueens groups them.
func TestPagesCountOneRight(t *testing.T) {
	s, _ := openServer(t, Options{})
	for _, tt := range []struct {
		target        string
		want, notWant []string
	}{
		{"/n/1", []string{"1 class, 1 solution. Each board"}, []string{"1 classes", "1 solutions"}},
		{"/n/1/1", []string{"<dd>1 solution</dd>", "<h2>Its 1 solution</h2>"}, []string{"1 solutions"}},
		{"/n/8/7", []string{"<dd>8 solutions</dd>", "<h2>Its 8 solutions</h2>"}, nil},
		{"/n/8?symmetry=rot180", []string{"12 classes, 92 solutions.", "Showing the 1 class of symmetry rot180."}, []string{"1 classes"}},
		{"/n/10", []string{"92 classes, 724 solutions."}, nil},
	} {
		w := get(t, s, "GET", tt.target)
		body := w.Body.String()
		if w.Code != http.StatusOK {
			t.Errorf("%s: status %d", tt.target, w.Code)
		}
		for _, want := range tt.want {
			if !strings.Contains(body, want) {
				t.Errorf("%s does not say %q", tt.target, want)
			}
		}
		for _, not := range tt.notWant {
			if strings.Contains(body, not) {
				t.Errorf("%s says %q", tt.target, not)
			}
		}
	}
}

// TestSecurityHeaders checks the headers every response carries, and
// that no page holds a script or an inline style.
func TestSecurityHeaders(t *testing.T) {
	s, _ := openServer(t, Options{})
	for _, target := range []string{"/", "/.json", "/n/8", "/n/8?size=300&square=0,2", "/n/8.json", "/n/8.csv", "/n/8/1", "/n/8/1.json", "/lookup", "/nowhere", "/api/v1/counts", "/export/6.csv", "/n/8/1.svg"} {
		w := get(t, s, "GET", target)
		h := w.Header()
		csp := h.Get("Content-Security-Policy")
		if !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "unsafe") || !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s: Content-Security-Policy %q", target, csp)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" || h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: headers %v", target, h)
		}
		body := w.Body.String()
		if strings.Contains(body, "<script") || strings.Contains(body, " style=") || strings.Contains(body, "<style") {
			t.Errorf("%s holds a script or an inline style", target)
		}
	}
}

// TestExportBytes checks that each export equals, byte for byte, what
// export.Format.New writes of the same selection, as nqueens export does.
func TestExportBytes(t *testing.T) {
	s, db := openServer(t, Options{})
	ctx := context.Background()
	for _, n := range []int{1, 2, 6, 8, 10} {
		b, err := db.Build(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"json", "ndjson", "csv", "leetcode"} {
			for _, all := range []bool{false, true} {
				boards := export.ClassBoards
				if all {
					boards = export.SolutionBoards
				}
				for _, sym := range []string{"", "rot180", "none,rot90"} {
					syms, _ := nqueens.ParseSymmetries(sym)
					if sym == "" {
						syms = nil
					}
					layouts, _, err := db.Layouts(ctx, b, store.Selection{Filter: store.Filter{Symmetry: syms}, All: all})
					if err != nil {
						t.Fatal(err)
					}
					var want bytes.Buffer
					f, err := export.ParseFormat(format, export.Formats)
					if err != nil {
						t.Fatal(err)
					}
					ew := f.New(&want, boards)
					for l, err := range layouts {
						if err != nil {
							t.Fatal(err)
						}
						ew.Write(l)
					}
					if err := ew.Close(); err != nil {
						t.Fatal(err)
					}
					target := fmt.Sprintf("/export/%d.%s?symmetry=%s&order=class&all=0", n, format, sym)
					if all {
						target = strings.Replace(target, "all=0", "all=1", 1)
					}
					w := get(t, s, "GET", target)
					if w.Code != 200 || !bytes.Equal(w.Body.Bytes(), want.Bytes()) {
						t.Errorf("%s: status %d, %d bytes, want %d bytes:\n%.300s\nwant\n%.300s", target, w.Code, w.Body.Len(), want.Len(), w.Body, want.Bytes())
					}
					if cd := w.Header().Get("Content-Disposition"); !regexp.MustCompile(`^attachment; filename="queens-\d+(-all)?(-lex)?(-[a-z0-9-]+)?\.` + format + `"$`).MatchString(cd) {
						t.Errorf("%s: Content-Disposition %q", target, cd)
					}
				}
			}
		}
	}
}

// TestAPIClassesPages pages through the classes of n = 10 with the API and
// checks that the pages put together are the JSON export's objects.
func TestAPIClassesPages(t *testing.T) {
	s, _ := openServer(t, Options{})
	var objects []json.RawMessage
	for offset := 0; ; offset += 7 {
		w := get(t, s, "GET", fmt.Sprintf("/api/v1/classes?n=10&offset=%d&limit=7", offset))
		var page struct {
			N, Offset, Limit, Count int
			Items                   []json.RawMessage
		}
		if err := json.Unmarshal(w.Body.Bytes(), &page); err != nil || w.Code != 200 {
			t.Fatalf("%d %v: %s", w.Code, err, w.Body)
		}
		if page.N != 10 || page.Offset != offset || page.Limit != 7 || page.Count != 92 {
			t.Fatalf("page %+v", page)
		}
		if len(page.Items) == 0 {
			break
		}
		objects = append(objects, page.Items...)
	}
	w := get(t, s, "GET", "/export/10.ndjson")
	lines := strings.Split(strings.TrimSuffix(w.Body.String(), "\n"), "\n")
	if len(objects) != len(lines) {
		t.Fatalf("%d objects through the API, %d in the export", len(objects), len(lines))
	}
	for i := range lines {
		if string(objects[i]) != lines[i] {
			t.Errorf("object %d: %s, the export has %s", i, objects[i], lines[i])
		}
	}
}

// TestGoldenPage compares the page of the classes of n = 8 with
// testdata/n8.html (go test -update rewrites it).
func TestGoldenPage(t *testing.T) {
	s, _ := openServer(t, Options{})
	w := get(t, s, "GET", "/n/8")
	golden := filepath.Join("testdata", "n8.html")
	if *update {
		if err := os.WriteFile(golden, w.Body.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w.Body.Bytes(), want) {
		t.Errorf("/n/8 differs from %s (go test -update rewrites it):\n%s", golden, w.Body)
	}
}

// TestNewNAppears builds n = 9 into a catalog a server reads, and checks
// that the server shows n = 9 once, and only once, the build completes.
func TestNewNAppears(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "c.db")
	w, err := store.Open(ctx, path, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.Run(ctx, 8, nqueens.Shard{}, store.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	r, err := store.Open(ctx, path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s := New(r, Options{})
	var during []int
	_, err = w.Run(ctx, 9, nqueens.Shard{}, store.RunOptions{Workers: 1, Progress: func(done, total int) {
		if done < total {
			during = append(during, get(t, s, "GET", "/n/9").Code, get(t, s, "GET", "/api/v1/classes/9/1").Code)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range during {
		if code != 404 {
			t.Fatalf("during the build: statuses %v, want 404s", during)
		}
	}
	if len(during) == 0 {
		t.Fatal("the build had one work unit: nothing was requested during it")
	}
	if code := get(t, s, "GET", "/n/9").Code; code != 200 {
		t.Errorf("after the build: /n/9 %d", code)
	}
	if body := get(t, s, "GET", "/").Body.String(); !strings.Contains(body, `<a href="/n/9">9</a>`) {
		t.Errorf("after the build: / has no link to n=9")
	}
}

// TestLog checks the request log: one line a request, with the method,
// the path as it came, the status, the bytes and the duration.
func TestLog(t *testing.T) {
	var log bytes.Buffer
	s, _ := openServer(t, Options{Log: &log})
	get(t, s, "GET", "/n/8/3")
	get(t, s, "POST", "/api/v1/counts")
	get(t, s, "GET", "/n/%0a8?x=%0a")
	lines := strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n")
	want := []string{
		`^GET /n/8/3 200 \d+ \d+(\.\d+)?(µs|ms)$`,
		`^POST /api/v1/counts 405 \d+ \d+(\.\d+)?(µs|ms)$`,
		`^GET /n/%0a8\?x=%0a 400 \d+ \d+(\.\d+)?(µs|ms)$`,
	}
	if len(lines) != len(want) {
		t.Fatalf("log:\n%s", log.String())
	}
	for i, re := range want {
		if !regexp.MustCompile(re).MatchString(lines[i]) {
			t.Errorf("log line %q, want %s", lines[i], re)
		}
	}
}

// TestRun runs a server on a free port, makes a request, cancels its
// context and checks that Run returns nil.
func TestRun(t *testing.T) {
	s, _ := openServer(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, "127.0.0.1:0", func(a net.Addr) { addrs <- a }) }()
	var addr net.Addr
	select {
	case addr = <-addrs:
	case err := <-done:
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + addr.String() + "/api/v1/classes/8/1")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"class":1`) {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run after cancel: %v", err)
	}
	if err := s.Run(context.Background(), "127.0.0.1:-1", nil); err == nil {
		t.Errorf("Run on a bad address: no error")
	}
}

// TestExportLex checks the judges' formats, whose export is every
// solution in lexicographic order unless told otherwise: the bytes equal
// those of the plain search's solutions, in its order, written by export,
// with and without a symmetry filter; order=lex without all, and an
// unknown order, are refused.
func TestExportLex(t *testing.T) {
	s, _ := openServer(t, Options{})
	for _, n := range []int{4, 6, 8} {
		for _, format := range []export.Format{export.FormatLeetCode, export.FormatGrid, export.FormatCSV} {
			for _, sym := range []string{"", "rot180"} {
				var want bytes.Buffer
				ew := format.New(&want, export.SolutionBoards)
				for p := range enumerate.Solutions(n) {
					id := canonical.Identify(p)
					if sym != "" && id.Symmetry.String() != sym {
						continue
					}
					ew.Write(nqueens.Layout{Placement: p, Symmetry: id.Symmetry, Class: classOf(t, s, n, id.Canonical)})
				}
				ew.Close()
				target := fmt.Sprintf("/export/%d.%s?symmetry=%s", n, format, sym)
				if format == export.FormatCSV {
					target += "&all=1&order=lex"
				}
				w := get(t, s, "GET", target)
				if w.Code != 200 || !bytes.Equal(w.Body.Bytes(), want.Bytes()) {
					t.Errorf("%s: status %d, %d bytes, want %d bytes:\n%.300s\nwant\n%.300s", target, w.Code, w.Body.Len(), want.Len(), w.Body, want.Bytes())
				}
			}
		}
	}
	for target, says := range map[string]string{
		"/export/8.csv?order=lex":         "order=lex orders every solution: add all=1",
		"/export/8.leetcode?order=sorted": "order must be class or lex",
	} {
		if w := get(t, s, "GET", target); w.Code != 400 || !strings.Contains(w.Body.String(), says) {
			t.Errorf("%s: %d %s, want 400 saying %q", target, w.Code, w.Body, says)
		}
	}
}

// classOf returns the class number of the canonical placement c, from the
// server's API.
func classOf(t *testing.T, s http.Handler, n int, c nqueens.Placement) int64 {
	t.Helper()
	w := get(t, s, "GET", "/api/v1/lookup?placement="+url.QueryEscape(c.String()))
	var got struct{ Class int64 }
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil || got.Class == 0 {
		t.Fatalf("lookup %v: %v %s", c, err, w.Body)
	}
	return got.Class
}

// TestTwinsMatchPages checks that a page of classes links its .json and
// .csv twins, and that they hold the classes the page shows, in its
// order, for filters by symmetry and square.
func TestTwinsMatchPages(t *testing.T) {
	s, _ := openServer(t, Options{})
	boardLink := regexp.MustCompile(`<figure class="board"><a href="/n/\d+/(\d+)">`)
	for _, target := range []string{"/n/6", "/n/10", "/n/10?symmetry=none", "/n/10?square=0,3", "/n/10?square=9,8&symmetry=rot180", "/n/9?size=large&square=4,4"} {
		page := get(t, s, "GET", target)
		if page.Code != 200 {
			t.Fatalf("%s: %d", target, page.Code)
		}
		var shown []string
		for _, m := range boardLink.FindAllStringSubmatch(page.Body.String(), -1) {
			shown = append(shown, m[1])
		}
		if len(shown) == 0 {
			t.Fatalf("%s shows no class", target)
		}
		links := regexp.MustCompile(`This page as <a href="([^"]+)">JSON</a> <a href="([^"]+)">CSV</a>`).FindStringSubmatch(page.Body.String())
		if links == nil {
			t.Fatalf("%s links no twins", target)
		}
		jsonURL, csvURL := html.UnescapeString(links[1]), html.UnescapeString(links[2])
		var twin struct {
			Count int
			Items []struct{ Class int64 }
		}
		w := get(t, s, "GET", jsonURL)
		if err := json.Unmarshal(w.Body.Bytes(), &twin); err != nil || w.Code != 200 {
			t.Fatalf("%s: %d %v", jsonURL, w.Code, err)
		}
		var inJSON []string
		for _, it := range twin.Items {
			inJSON = append(inJSON, fmt.Sprint(it.Class))
		}
		w = get(t, s, "GET", csvURL)
		var inCSV []string
		for _, line := range strings.Split(strings.TrimSpace(w.Body.String()), "\n")[1:] {
			inCSV = append(inCSV, strings.Split(line, ",")[1])
		}
		if strings.Join(inJSON, " ") != strings.Join(shown, " ") || strings.Join(inCSV, " ") != strings.Join(shown, " ") || twin.Count != len(shown) {
			t.Errorf("%s shows classes %v; its twins %s has %v (count %d), %s has %v", target, shown, jsonURL, inJSON, twin.Count, csvURL, inCSV)
		}
	}
}

// TestChart checks the chart of the counts on the front page of the test
// catalog (n = 1..10 complete, 11 being built): a point for each n with
// solutions, titled with its count, none for n = 2 and 3 (which have
// none) nor for n = 11, whose lines break there; a power of ten for each
// decade of 724, the largest total.
func TestChart(t *testing.T) {
	s, _ := openServer(t, Options{})
	body := get(t, s, "GET", "/").Body.String()
	chart := regexp.MustCompile(`<svg class="chart"(?s:.*?)</svg>`).FindString(body)
	if chart == "" {
		t.Fatalf("no chart on /:\n%.3000s", body)
	}
	for _, class := range []string{"total", "unique"} {
		path := regexp.MustCompile(`<path class="line ` + class + `" d="([^"]*)"/>`).FindStringSubmatch(chart)
		if path == nil || strings.Count(path[1], "M") != 2 || strings.Count(path[1], "L") != 6 {
			t.Errorf("the %s line %q: want a point for n = 1, then a break, then n = 4 to 10", class, path)
		}
		if k := strings.Count(chart, `<circle class="point `+class+`"`); k != 8 {
			t.Errorf("%d points of %s, want 8", k, class)
		}
	}
	for _, want := range []string{"<title>n=1: 1 total</title>", "<title>n=10: 724 total</title>", "<title>n=6: 1 unique</title>", ">1</text>", ">10</text>", ">100</text>", ">1k</text>", ">n</text>"} {
		if !strings.Contains(chart, want) {
			t.Errorf("the chart lacks %q", want)
		}
	}
	for _, wrong := range []string{"n=2:", "n=3:", "n=11:", ">10k</text>"} {
		if strings.Contains(chart, wrong) {
			t.Errorf("the chart holds %q", wrong)
		}
	}
}

// TestTwinPages follows the next links of the JSON twin of the pages of
// n = 11 (341 classes, 4 pages), filtered and not: every class the
// filter selects comes once, in order, each page links the one before,
// and the page past the last is a 404.
func TestTwinPages(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	db, err := store.Open(context.Background(), path, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	b, err := db.Run(context.Background(), 11, nqueens.Shard{}, store.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := New(db, Options{})
	sq := nqueens.Square{Row: 0, Col: 1}
	for _, tc := range []struct {
		start string
		f     store.Filter
	}{{"/n/11.json", store.Filter{}}, {"/n/11.json?symmetry=none", store.Filter{Symmetry: []nqueens.Symmetry{nqueens.SymNone}}}, {"/n/11.json?square=0,1", store.Filter{Square: &sq}}} {
		var want []int64
		for l, err := range db.Classes(context.Background(), 11, tc.f) {
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, l.Class)
		}
		var got []int64
		prev, pages := tc.start, 0 // prev: the page before, once the server wrote its link
		for next := tc.start; next != ""; {
			w := get(t, s, "GET", next)
			var page struct {
				Count       int
				Page, Pages int
				Prev, Next  string
				Items       []struct{ Class int64 }
			}
			if err := json.Unmarshal(w.Body.Bytes(), &page); err != nil || w.Code != 200 {
				t.Fatalf("%s: %d %v", next, w.Code, err)
			}
			if page.Count != len(want) || (prev != tc.start && page.Prev != prev) {
				t.Errorf("%s: count %d, prev %q; want %d, %q", next, page.Count, page.Prev, len(want), prev)
			}
			for _, it := range page.Items {
				got = append(got, it.Class)
			}
			if page.Page > 1 && page.Prev == "" {
				t.Errorf("%s: page %d links no page before", next, page.Page)
			}
			pages = page.Pages
			prev, next = next, page.Next
		}
		if fmt.Sprint(got) != fmt.Sprint(want) || len(want) <= pageSize || pages != (len(want)+pageSize-1)/pageSize {
			t.Errorf("%s and its next pages: %d classes in %d pages, want %d", tc.start, len(got), pages, len(want))
		}
		past := get(t, s, "GET", tc.start+map[bool]string{true: "&", false: "?"}[strings.Contains(tc.start, "?")]+fmt.Sprintf("page=%d", pages+1))
		if past.Code != 404 {
			t.Errorf("%s, page %d: %d, want 404", tc.start, pages+1, past.Code)
		}
	}
	if b.Unique != 341 {
		t.Fatalf("n=11 has %d classes", b.Unique)
	}
}
