package serve

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/store"
)

// loadOpenAPI loads openapi.json and validates it as OpenAPI 3.1 (the
// loader reads the version and validates its schemas as JSON Schema
// 2020-12, their examples included).
func loadOpenAPI(t *testing.T) *openapi3.T {
	t.Helper()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(openAPI)
	if err != nil {
		t.Fatalf("openapi.json does not load: %v", err)
	}
	if doc.OpenAPI != "3.1.0" || !doc.IsOpenAPI31OrLater() {
		t.Fatalf("openapi.json is OpenAPI %q, want 3.1.0", doc.OpenAPI)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatalf("openapi.json is not valid: %v", err)
	}
	return doc
}

// TestOpenAPIRoutes checks that openapi.json describes every route of the
// server under /api/ and nothing else, method and path as the server's
// mux has them.
func TestOpenAPIRoutes(t *testing.T) {
	doc := loadOpenAPI(t)
	var described []string
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			described = append(described, method+" "+path)
		}
	}
	var served []string
	for _, p := range New(nil, Options{}).patterns {
		if _, path, _ := strings.Cut(p, " "); strings.HasPrefix(path, "/api/") || strings.HasPrefix(p, "/api/") {
			served = append(served, p)
		}
	}
	slices.Sort(described)
	slices.Sort(served)
	if !slices.Equal(described, served) {
		t.Errorf("openapi.json describes\n\t%s\nthe server routes\n\t%s", strings.Join(described, "\n\t"), strings.Join(served, "\n\t"))
	}
	if len(served) < 5 {
		t.Errorf("the server routes %d paths under /api/: %v", len(served), served)
	}
}

// apiCatalog builds n = 1 to 8 as rows and n = 9 as an index into a new
// catalog, and opens it read-only.
func apiCatalog(t *testing.T) *store.DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "api.db")
	buildAPICatalog(t, path, func(db *store.DB) error {
		for n := 1; n <= 9; n++ {
			if _, err := db.Run(context.Background(), n, nqueens.Shard{}, store.RunOptions{Index: n == 9}); err != nil {
				return err
			}
		}
		return nil
	})
	return openCatalog(t, path)
}

// damagedCatalog makes a new catalog that records n = 28 complete with no
// class, as a damaged file could, and opens it read-only: the class of
// a solution of n = 28 is not in it.
func damagedCatalog(t *testing.T) *store.DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "damaged.db")
	buildAPICatalog(t, path, func(*store.DB) error { return nil })
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	const at = "2025-01-01T00:00:00Z"
	if _, err := raw.Exec(`INSERT INTO builds (n, complete, units_done, units_total, started_at, finished_at) VALUES (28, 1, 1, 1, ?, ?)`, at, at); err != nil {
		t.Fatal(err)
	}
	return openCatalog(t, path)
}

func buildAPICatalog(t *testing.T, path string, build func(*store.DB) error) {
	t.Helper()
	db, err := store.Open(context.Background(), path, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := build(db); err != nil {
		t.Fatal(err)
	}
}

func openCatalog(t *testing.T, path string) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// failing is a catalog whose every read fails with err.
type failing struct{ err error }

func (c failing) Read(context.Context, func(*store.DB) error) error { return c.err }

// holding is a catalog whose reads say so on entered, then wait for
// release to close, and fail.
type holding struct{ entered, release chan struct{} }

func (c holding) Read(ctx context.Context, read func(*store.DB) error) error {
	c.entered <- struct{}{}
	<-c.release
	return errors.New("released")
}

// runAPI runs a server of cat with opts on a free port of 127.0.0.1 until
// the test ends, and returns its URL.
func runAPI(t *testing.T, cat Catalog, opts Options) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- New(cat, opts).Run(ctx, "127.0.0.1:0", func(a net.Addr) { addrs <- a }) }()
	select {
	case a := <-addrs:
		t.Cleanup(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Run: %v", err)
			}
		})
		return "http://" + a.String()
	case err := <-done:
		cancel()
		t.Fatalf("Run: %v", err)
	}
	return ""
}

// apiChecker checks responses against openapi.json, and remembers which
// status of which operation it has seen answered as the document says.
type apiChecker struct {
	router routers.Router
	client *http.Client
	seen   map[string]bool // "GET /api/v1/classes 404"
}

// get requests target of the server at base and returns its response
// with the body read, or fails the test.
func (c *apiChecker) get(t *testing.T, base, target string) (*http.Request, *http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+target, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", target, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", target, err)
	}
	return req, resp, body
}

// validate returns an error unless the document has a route for req and
// describes the response of status, header and body, and then counts the
// status of the route as seen. For a 200, the request must be one the
// document describes too.
func (c *apiChecker) validate(req *http.Request, status int, header http.Header, body []byte) error {
	route, pathParams, err := c.router.FindRoute(req)
	if err != nil {
		return fmt.Errorf("no route in openapi.json: %w", err)
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: pathParams, Route: route,
		Options: &openapi3filter.Options{MultiError: true}}
	if status == http.StatusOK {
		if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
			return fmt.Errorf("the request is not as openapi.json describes it: %w", err)
		}
	}
	err = openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 status,
		Header:                 header,
		Body:                   io.NopCloser(bytes.NewReader(body)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	})
	if err != nil {
		return err
	}
	c.seen[fmt.Sprintf("%s %s %d", route.Method, route.Path, status)] = true
	return nil
}

// TestOpenAPIResponses runs servers on 127.0.0.1 and checks each answer of
// every route of the API, each success and each error, against
// openapi.json: its status, headers and body. Every status the document
// gives an operation must be among them, so that it describes no status
// the server does not answer.
func TestOpenAPIResponses(t *testing.T) {
	t.Parallel()
	doc := loadOpenAPI(t)
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	c := &apiChecker{router: router, seen: map[string]bool{},
		client: &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}}

	// A catalog of n = 1 to 8 as rows and 9 as an index, whose squares
	// below the index's prefixes the server does not search (46 classes).
	main := runAPI(t, apiCatalog(t), Options{MaxSquareSearch: 10})
	damaged := runAPI(t, damagedCatalog(t), Options{})
	broken := runAPI(t, failing{errors.New("read c.db: disk I/O error")}, Options{})
	gone := runAPI(t, failing{fmt.Errorf("c.db was removed: %w", store.ErrChanged)}, Options{})
	const class9 = "4+6+1+5+2+0+7+3" // a board of class 9 of n = 8
	solution28, err := nqueens.Construct(28)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		server, target string
		status         int
		has            string // in the body
	}{
		{main, "/api/v1/counts", 200, `{"n":9,"total":352,"unique":46,"orbit8":42,"orbit4":4,`},
		{main, "/api/v1/counts?n=8", 400, `unknown parameter \"n\": this page takes none`},
		{broken, "/api/v1/counts", 500, "disk I/O error"},
		{gone, "/api/v1/counts", 503, "c.db was removed"},

		{main, "/api/v1/classes?n=8", 200, `{"n":8,"offset":0,"limit":100,"count":12,"items":[{"n":8,"class":1,`},
		{main, "/api/v1/classes?n=8&offset=9&limit=2", 200, `"count":12,"items":[{"n":8,"class":10,"placement":[2,4,1,7,0,6,3,5],"orbit":4,"symmetry":"rot180"},{"n":8,"class":11,`},
		{main, "/api/v1/classes?n=8&offset=12", 200, `"count":12,"items":[]}`},
		{main, "/api/v1/classes?n=8&offset=9007199254740992&limit=1000", 200, `"items":[]}`},
		{main, "/api/v1/classes?n=1", 200, `"orbit":1,"symmetry":"full"}]}`},
		{main, "/api/v1/classes?n=2", 200, `"count":0,"items":[]}`},
		{main, "/api/v1/classes?n=4", 200, `"orbit":2,"symmetry":"rot90"}]}`},
		{main, "/api/v1/classes?n=8&symmetry=rot180,none&square=0,2", 200, `"count":3,`},
		{main, "/api/v1/classes?n=9&square=0,1&limit=1000", 200, `"n":9,`},
		{main, "/api/v1/classes?n=9&symmetry=rot180", 200, `"count":4,`},
		{main, "/api/v1/classes?limit=2", 400, "missing parameter n"},
		{main, "/api/v1/classes?n=33", 400, "n must be between 1 and 32, got 33"},
		{main, "/api/v1/classes?n=08", 400, "leading zeros are refused"},
		{main, "/api/v1/classes?n=8&limit=1001", 400, "limit must be a whole number from 1 to 1,000"},
		{main, "/api/v1/classes?n=8&limit=0", 400, "limit must be"},
		{main, "/api/v1/classes?n=8&offset=-1", 400, "offset must be"},
		{main, "/api/v1/classes?n=8&symmetry=odd", 400, "want none, rot180, rot90 or full"},
		{main, "/api/v1/classes?n=8&symmetry=NONE", 400, "write it as none"},
		{main, "/api/v1/classes?n=8&square=9,9", 400, "n=8 has rows 0 to 7, no row 9"},
		{main, "/api/v1/classes?n=8&square=0,+2", 400, "write it as 0,2"},
		{main, "/api/v1/classes?n=8&page=1", 400, `unknown parameter \"page\"`},
		{main, "/api/v1/classes?n=8&n=8", 400, "given 2 times"},
		{main, "/api/v1/classes?n=8&limit=%zz", 400, "does not parse"},
		{main, "/api/v1/classes?n=12", 404, "n=12 is not in the catalog"},
		{main, "/api/v1/classes?n=9&square=8,0", 422, "searching all 46 classes, which this server does up to 10 classes"},
		{broken, "/api/v1/classes?n=8", 500, "disk I/O error"},
		{gone, "/api/v1/classes?n=8", 503, "c.db was removed"},

		{main, "/api/v1/classes/8/7", 200, `{"n":8,"class":7,"placement":[1,5,7,2,0,3,6,4],"orbit":8,"symmetry":"none"}`},
		{main, "/api/v1/classes/1/1", 200, `"symmetry":"full"`},
		{main, "/api/v1/classes/9/46", 200, `{"n":9,"class":46,`},
		{main, "/api/v1/classes/8/x", 400, "want a class number, from 1 to 12 for n=8"},
		{main, "/api/v1/classes/8/-1", 400, "want a class number"},
		{main, "/api/v1/classes/40/1", 400, "n must be between 1 and 32, got 40"},
		{main, "/api/v1/classes/08/1", 400, "leading zeros are refused"},
		{main, "/api/v1/classes/8/7?x=1", 400, `unknown parameter \"x\": this page takes none`},
		{main, "/api/v1/classes/8/13", 404, "n=8 has 12 classes, no class 13"},
		{main, "/api/v1/classes/8/0", 404, "no class 0"},
		{main, "/api/v1/classes/12/1", 404, "n=12 is not in the catalog"},
		{broken, "/api/v1/classes/8/7", 500, "disk I/O error"},
		{gone, "/api/v1/classes/8/7", 503, "c.db was removed"},

		{main, "/api/v1/lookup?placement=" + class9, 200, `{"n":8,"placement":[4,6,1,5,2,0,7,3],"valid":true,"canonical":[1,6,4,7,0,3,5,2],"class":9,"orbit":8,"symmetry":"none","transform":"antitranspose"}`},
		{main, "/api/v1/lookup?placement=0+2+4+1+3+5+6+7", 200, `"valid":false,"error":"queens at row 0 column 0 and row 5 column 5 attack each other"}`},
		{main, "/api/v1/lookup?placement=0+2+4+6+8+10+1+3+5+7+9", 200, `"valid":true,"canonical":[0,2,4,6,8,10,1,3,5,7,9],"orbit":8,`},
		{main, "/api/v1/lookup?placement=%5B1%2C3%2C0%2C2%5D", 200, `"class":1,"orbit":2,"symmetry":"rot90"`},
		{main, "/api/v1/lookup?placement=.Q../...Q/Q.../..Q.", 200, `"placement":[1,3,0,2],"valid":true`},
		{main, "/api/v1/lookup?placement=" + url.QueryEscape(`{"n":4,"class":1,"placement":[2,0,3,1],"orbit":2,"symmetry":"rot90"}`), 200, `"placement":[2,0,3,1],"valid":true,"canonical":[1,3,0,2],"class":1,`},
		{main, "/api/v1/lookup", 400, "missing parameter placement"},
		{main, "/api/v1/lookup?placement=9", 400, "placement: "},
		{main, "/api/v1/lookup?placement=1+1", 400, "column 1 is in rows 0 and 1"},
		{main, "/api/v1/lookup?placement=1+0%0A0+1", 400, "one board, on one line"},
		{main, "/api/v1/lookup?placement=" + class9 + "&n=8", 400, "unknown parameter"},
		{damaged, "/api/v1/lookup?placement=" + url.QueryEscape(fmt.Sprint(solution28)), 404, "the catalog lacks the class of "},
		{broken, "/api/v1/lookup?placement=" + class9, 500, "disk I/O error"},
		{gone, "/api/v1/lookup?placement=" + class9, 503, "c.db was removed"},

		{main, "/api/v1/openapi.json", 200, `"openapi": "3.1.0"`},
		{main, "/api/v1/openapi.json?v=1", 400, `unknown parameter \"v\": this page takes none`},
	}
	for _, tt := range tests {
		req, resp, body := c.get(t, tt.server, tt.target)
		if resp.StatusCode != tt.status || !bytes.Contains(body, []byte(tt.has)) {
			t.Errorf("GET %s: %d, want %d with %s:\n%.500s", tt.target, resp.StatusCode, tt.status, tt.has, body)
		}
		if err := c.validate(req, resp.StatusCode, resp.Header, body); err != nil {
			t.Errorf("GET %s: %d, not as openapi.json says: %v\n%.500s", tt.target, resp.StatusCode, err, body)
		}
	}
	_, resp, body := c.get(t, main, "/api/v1/openapi.json")
	if !bytes.Equal(body, openAPI) || resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("/api/v1/openapi.json: %s, %d bytes, unlike openapi.json's %d", resp.Header.Get("Content-Type"), len(body), len(openAPI))
	}

	// Every turn taken: each route is answered 503 at once.
	hold := holding{entered: make(chan struct{}), release: make(chan struct{})}
	busy := runAPI(t, hold, Options{MaxRequests: 1, QueueTimeout: time.Nanosecond})
	held := make(chan int, 1)
	go func() {
		resp, err := c.client.Get(busy + "/api/v1/counts")
		if err != nil {
			held <- 0
			return
		}
		resp.Body.Close()
		held <- resp.StatusCode
	}()
	<-hold.entered
	for _, target := range []string{"/api/v1/counts", "/api/v1/classes?n=8", "/api/v1/classes/8/7", "/api/v1/lookup?placement=" + class9, "/api/v1/openapi.json"} {
		req, resp, body := c.get(t, busy, target)
		if resp.StatusCode != http.StatusServiceUnavailable || !bytes.Contains(body, []byte("too many requests at once")) {
			t.Errorf("GET %s of a busy server: %d, want 503:\n%.500s", target, resp.StatusCode, body)
		}
		if err := c.validate(req, resp.StatusCode, resp.Header, body); err != nil {
			t.Errorf("GET %s of a busy server: %d, not as openapi.json says: %v\n%.500s", target, resp.StatusCode, err, body)
		}
	}
	close(hold.release)
	if status := <-held; status != http.StatusInternalServerError {
		t.Errorf("the request that held the turn: %d, want 500", status)
	}

	// A connection beyond its address's share: answered 503 in plain text
	// before its request is read, which every route may be.
	crowded := strings.TrimPrefix(runAPI(t, failing{errors.New("unread")}, Options{MaxClientConnections: 1, IdleTimeout: time.Hour}), "http://")
	first, err := net.Dial("tcp", crowded)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	if _, err := io.WriteString(first, "GET /api/v1/openapi.json HTTP/1.1\r\nHost: nqueens\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	if resp, err := http.ReadResponse(bufio.NewReader(first), nil); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the first connection: %v %v", resp, err)
	}
	second, err := net.Dial("tcp", crowded)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	resp, err = http.ReadResponse(bufio.NewReader(second), nil)
	if err != nil {
		t.Fatalf("the second connection: %v", err)
	}
	body, err = io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("the second connection: %d %v", resp.StatusCode, err)
	}
	for _, target := range []string{"/api/v1/counts", "/api/v1/classes?n=8", "/api/v1/classes/8/7", "/api/v1/lookup?placement=" + class9, "/api/v1/openapi.json"} {
		req, _ := http.NewRequest(http.MethodGet, "http://"+crowded+target, nil)
		if err := c.validate(req, resp.StatusCode, resp.Header, body); err != nil {
			t.Errorf("GET %s on a connection beyond its share: %d, not as openapi.json says: %v\n%.500s", target, resp.StatusCode, err, body)
		}
	}

	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			for status := range op.Responses.Map() {
				if key := method + " " + path + " " + status; !c.seen[key] {
					t.Errorf("openapi.json describes %s, which no request here was answered", key)
				}
			}
		}
	}
}

// TestOpenAPIRefuses checks that the checks of TestOpenAPIResponses can
// fail: responses unlike the document's are refused.
func TestOpenAPIRefuses(t *testing.T) {
	router, err := gorillamux.NewRouter(loadOpenAPI(t))
	if err != nil {
		t.Fatal(err)
	}
	c := &apiChecker{router: router, seen: map[string]bool{}}
	jsonType := http.Header{"Content-Type": {"application/json"}}
	for _, tt := range []struct {
		target string
		status int
		header http.Header
		body   string
	}{
		{"/api/v1/classes/8/7", 200, jsonType, `{"n":8,"class":7,"placement":[1,5,7,2,0,3,6,4],"orbit":8,"symmetry":"none","board":1}`},
		{"/api/v1/classes/8/7", 200, jsonType, `{"n":8,"class":7,"placement":[1,5,7,2,0,3,6,4],"orbit":8,"symmetry":"diagonal"}`},
		{"/api/v1/classes/8/7", 200, jsonType, `{"n":8,"class":0,"placement":[1,5,7,2,0,3,6,4],"orbit":8,"symmetry":"none"}`},
		{"/api/v1/classes/8/7", 200, http.Header{"Content-Type": {"text/html; charset=utf-8"}}, `<p>class 7</p>`},
		{"/api/v1/classes?n=8", 200, jsonType, `{"n":8,"offset":0,"limit":100,"count":12}`},
		{"/api/v1/lookup?placement=1+3+0+2", 200, jsonType, `{"n":4,"placement":[1,3,0,2],"valid":true,"error":"no"}`},
		{"/api/v1/lookup?placement=1+3+0+2", 200, jsonType, `{"n":4,"placement":[1,3,0,2],"valid":false,"canonical":[1,3,0,2],"orbit":2,"symmetry":"rot90","transform":"identity"}`},
		{"/api/v1/counts", 200, jsonType, `[{"n":8,"total":92}]`},
		{"/api/v1/counts", 503, jsonType, `{"error":"too many requests at once: try again in a second"}`},
		{"/api/v1/counts", 404, jsonType, `{"error":"no"}`},
		{"/api/v1/counts", 400, jsonType, `{"message":"no"}`},
		{"/api/v1/classes?n=9", 422, jsonType, `{}`},
		{"/api/v1/openapi.json", 500, jsonType, `{"error":"no"}`},
		{"/api/v1/nowhere", 404, jsonType, `{"error":"no page at /api/v1/nowhere"}`},
	} {
		req, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1"+tt.target, nil)
		if err := c.validate(req, tt.status, tt.header, []byte(tt.body)); err == nil {
			t.Errorf("GET %s: %d %s passes for what openapi.json describes", tt.target, tt.status, tt.body)
		}
	}
	if len(c.seen) > 0 {
		t.Errorf("seen: %v", c.seen)
	}
}
