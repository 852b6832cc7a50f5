// Package serve is the web view and JSON API of a catalog: server-rendered
// HTML pages to browse the classes of every n a catalog holds complete,
// page by page and filtered by symmetry and by a queen's square, to look a board up and to
// download exports, and the same over a JSON API for scripts. It reads the
// catalog through store (class numbers, filters, lookups) and writes
// every byte of a class or an export through export, so a page, an API
// object and nqueens export agree.
//
// The routes, all GET (and HEAD):
//
//	/                        the counts of the catalog, their chart and a lookup form
//	/.json                   the front page's twin: the builds, as /api/v1/counts
//	/n/{n}                   a page of classes (?page=, ?symmetry=, ?square=r,c, ?size=,
//	                         ?class= jumps to a class)
//	/n/{n}.json, /n/{n}.csv  the page's twins: its classes as JSON and CSV (?page=,
//	                         ?symmetry=, ?square=)
//	/n/{n}/{k}               one class: the board, its orbit's images, links
//	/n/{n}/{k}.json          the class page's twin: the class as the JSON export's object
//	/n/{n}/{k}.svg           the class's board as an SVG file
//	/lookup                  ?placement=: redirects to the board's class page
//	/export/{n}.{format}     json, ndjson, csv or leetcode (?all=1, ?symmetry=, ?square=), streamed
//	/api/v1/counts           the builds, as nqueens stats --json
//	/api/v1/classes          ?n=&offset=&limit=&symmetry=&square=: a page of classes
//	/api/v1/classes/{n}/{k}  one class
//	/api/v1/lookup           ?placement=: the object of nqueens lookup --json
//	/api/v1/openapi.json     the OpenAPI 3.1 description of /api/v1 (openapi.json)
//	/style.css               the pages' stylesheet
//
// An n is shown once its build is complete (a catalog being built is read
// afresh on every request, so a new n appears as soon as its build
// finishes; given a store.Follower, the server follows the file at its
// path when it is replaced). Errors are pages for the HTML routes and JSON
// objects {"error": "..."} for /api/ and the .json twins, with status 400
// for a bad parameter, 404 for an n the catalog lacks, a class or page out
// of range or an unknown path, 405 for a method other than GET and HEAD,
// 429 for an export of a client that holds its share of them (see
// Options.MaxClientExports), 503 with Retry-After while the path holds no
// catalog or the server is saturated (see Options.MaxRequests), and 500
// for a read error or a damaged row, whose board is never drawn.
// Parameters are parsed strictly: an unknown or repeated parameter is a
// 400 too. Nothing is read from the file system on behalf of a URL.
package serve

import (
	"bytes"
	"cmp"
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/store"
)

// Options tune a Server. The zero value logs nothing, advises nothing
// and takes the default of each bound below; a bound is the default
// wherever it is zero.
type Options struct {
	// Log, if not nil, receives one line per request: method, path (and
	// query), status, bytes written and duration, as
	//
	//	GET /n/8/3 200 5012 1.2ms
	Log io.Writer
	// Advice holds what the program running the server tells a user to
	// do where a page or an error says what is missing, in the program's
	// own words: its commands and flags, which this package does not
	// know. Where a func of it is nil, the page or error says what is
	// missing and no more.
	Advice Advice

	// Bounds on the work a Server does at once. A request beyond
	// MaxRequests or MaxExports waits its turn, in no particular order,
	// for up to QueueTimeout, and is then answered 503 with Retry-After:
	// 1; an export beyond MaxClientExports is answered 429 at once.

	// MaxRequests is how many requests other than exports are handled at
	// once (default 8): enough to keep every core busy, few enough that a
	// flood of clients queues instead of sharing the cores and the
	// catalog's connections ever more thinly.
	MaxRequests int
	// MaxExports is how many exports produce at once (default 4): an
	// export holds one of these turns while it reads the catalog and
	// writes its next 64 KiB into its buffer, and gives it back while it
	// waits for its client to take them, so that a client that reads
	// slowly, or not at all, costs a connection and a buffer, not a
	// turn. An export that cannot take a turn back within QueueTimeout
	// is cut off. A lexicographic export whose classes take more than
	// 1 MiB in memory (n >= 13) holds one of another MaxExports turns,
	// of tables, from the start to the end, which bounds the memory of
	// exports whose clients read slowly.
	MaxExports int
	// MaxClientExports is how many exports one client address may have
	// in progress at once, producing or waiting for the client (default
	// 2), so that one client cannot take them all. (A reverse proxy in
	// front is one address: raise it there, and limit clients at the
	// proxy.)
	MaxClientExports int
	// QueueTimeout is how long a request waits for its turn (default 10 s).
	QueueTimeout time.Duration
	// ExportChunk is how many classes an export reads in one statement
	// (default 1,024).
	ExportChunk int
	// MaxSquareSearch is the most classes of an n stored as an index that
	// a page, API call or export searches for a square on a row below
	// those the index's prefixes fix (default 2,000,000: a search of every
	// class, about 2 s for the 1.8 million of n = 16 on two cores). A
	// larger n is answered 422 naming the command that gives it
	// (Advice.Square); a square on a row the prefixes fix is answered from
	// the index at any n.
	MaxSquareSearch uint64
	// MinExportRate, in bytes a second (default 16 KiB), is the slowest
	// an export's client may take it, measured over windows of
	// RateWindow (default 30 s): a window starts with the first write
	// after the last window ended or was taken whole, and a client that
	// has not taken MinExportRate × RateWindow bytes by its end while the
	// server waits to write more is cut off, freeing its turn. A
	// negative rate sets no minimum.
	MinExportRate int
	RateWindow    time.Duration

	// Timeouts of the server Run starts. A response may take longer than
	// WriteTimeout (default 30 s) only as a stream that keeps writing: an
	// export extends its write deadline by WriteTimeout each time it
	// writes (and no further than its rate window allows), up to
	// ExportTimeout (default 30 min) after it starts. The request's
	// headers must arrive within ReadHeaderTimeout (default 5 s) and the
	// whole request within ReadTimeout (default 10 s); a connection idle
	// for IdleTimeout (default 10 s) between requests is closed. Once
	// its context is cancelled, Run waits ShutdownTimeout (default 5 s)
	// for the requests in flight before it closes their connections.
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	WriteTimeout      time.Duration
	IdleTimeout       time.Duration
	ExportTimeout     time.Duration
	ShutdownTimeout   time.Duration
	// MaxConnections is how many connections Run holds open at once
	// (default 2,048); more wait in the listener's backlog until one
	// closes, and the idle ones are closed to make room.
	MaxConnections int
	// MaxClientConnections is how many of them one client address (an
	// IPv6 client's /64 network) may hold open at once (default a
	// quarter of MaxConnections, 512), so that no fewer than 4 addresses
	// take every connection: Run answers a connection beyond it 503 with
	// Retry-After and closes it as soon as it accepts it.
	MaxClientConnections int
}

// Advice is the advice of the program running a Server, which the server
// adds to its pages and errors. Each func may be nil.
type Advice struct {
	// Open returns err, the error of a request that found the catalog's
	// path could not be opened afresh (see store.Follower), or an error
	// wrapping err that adds what to do about it; the server shows the
	// text of what it returns. The errors that call for advice are those
	// of a path that holds no catalog now (store.ErrNoCatalog, or
	// store.ErrEmptyCatalog) and of a catalog holding a write that a
	// killed process left unfinished, which only its owner can roll back
	// (store.ErrHotJournal). Open returns any other error as it is; the
	// server shows err itself if Open returns nil.
	Open func(err error) error
	// Build returns the command line that builds the classes of n, such
	// as "nqueens build 8", which the lookup page suggests for a board
	// of an n the catalog does not hold: "n=8 is not in this catalog:
	// build it with" and the command.
	Build func(n int) string
	// Start returns the command line that builds the first n of a
	// catalog, such as "nqueens build 1-14": the home page of an empty
	// catalog says "build some n with" and the command.
	Start func() string
	// Lex returns the command line that writes every solution of n in
	// lexicographic order, such as "nqueens export 17 --all --order lex":
	// an export of an n above MaxLexN, served in class order only, says
	// in parentheses that the command gives it.
	Lex func(n int) string
	// Square returns the command line that writes the classes of n with
	// a queen on the square sq, such as "nqueens export 18 --square 9,4
	// --format csv": a filter by a square the server does not search
	// (above MaxSquareSearch) says in parentheses that the command gives
	// it.
	Square func(n int, sq nqueens.Square) string
}

// withDefaults returns o with each zero bound set to its default.
func (o Options) withDefaults() Options {
	o.MaxRequests = cmp.Or(o.MaxRequests, 8)
	o.MaxExports = cmp.Or(o.MaxExports, 4)
	o.MaxClientExports = cmp.Or(o.MaxClientExports, 2)
	o.QueueTimeout = cmp.Or(o.QueueTimeout, 10*time.Second)
	o.ExportChunk = cmp.Or(o.ExportChunk, 1024)
	o.MaxSquareSearch = cmp.Or(o.MaxSquareSearch, 2_000_000)
	o.MinExportRate = cmp.Or(o.MinExportRate, 16<<10)
	o.RateWindow = cmp.Or(o.RateWindow, 30*time.Second)
	o.ReadHeaderTimeout = cmp.Or(o.ReadHeaderTimeout, 5*time.Second)
	o.ReadTimeout = cmp.Or(o.ReadTimeout, 10*time.Second)
	o.WriteTimeout = cmp.Or(o.WriteTimeout, 30*time.Second)
	o.IdleTimeout = cmp.Or(o.IdleTimeout, 10*time.Second)
	o.ExportTimeout = cmp.Or(o.ExportTimeout, 30*time.Minute)
	o.ShutdownTimeout = cmp.Or(o.ShutdownTimeout, 5*time.Second)
	o.MaxConnections = cmp.Or(o.MaxConnections, 2048)
	o.MaxClientConnections = cmp.Or(o.MaxClientConnections, max(o.MaxConnections/4, 1))
	return o
}

// FollowOptions returns the bounds of the catalog's connections that a
// server with these options should be given (see store.Follow): as many
// as MaxRequests, so that a page or API request seldom waits for a
// connection (database/sql hands a freed one to a waiter at random, which
// stretches the tail), and exports share them a chunk at a time; closed
// after a minute unused. A read holds one connection at a time, so fewer
// connections than readers make them wait, never deadlock.
func (o Options) FollowOptions() store.FollowOptions {
	return store.FollowOptions{MaxConns: o.withDefaults().MaxRequests, MaxIdle: time.Minute}
}

// Catalog is what a Server reads: a *store.Follower, which follows the
// catalog at a path as builds change it and as it is replaced, or a
// *store.DB, one open catalog. Read calls read with the catalog open as it
// is now (see store.Follower.Read).
type Catalog interface {
	Read(ctx context.Context, read func(*store.DB) error) error
}

// Server serves one catalog. It holds no state but the catalog, its
// templates and the turns of requests in progress; it is safe for
// concurrent use.
type Server struct {
	cat     Catalog
	opts    Options // with defaults
	mux     *http.ServeMux
	pages   map[string]*template.Template
	turns   chan struct{} // one token a request in progress, exports aside
	exports chan struct{} // one token an export producing
	tables  chan struct{} // one token a lexicographic export holding a large table
	clients clients       // the exports in progress of each client address
	logMu   sync.Mutex
	log     io.Writer
	advice  Advice

	// patterns are the patterns of the routes, in the order routes
	// declares them.
	patterns []string
}

//go:embed templates/*.html static/style.css
var files embed.FS

// New returns a Server of the catalog cat, which the caller opens
// (read-only is enough) and closes after the server is done.
func New(cat Catalog, opts Options) *Server {
	opts = opts.withDefaults()
	s := &Server{cat: cat, opts: opts, mux: http.NewServeMux(), log: opts.Log, advice: opts.Advice,
		turns: make(chan struct{}, opts.MaxRequests), exports: make(chan struct{}, opts.MaxExports),
		tables:  make(chan struct{}, opts.MaxExports),
		clients: clients{held: map[string]int{}}}
	s.pages = parsePages()
	s.routes()
	return s
}

// routes declares every route of the server.
func (s *Server) routes() {
	s.handle("GET /{$}", s.handleIndex)
	s.handle("GET /.json", s.handleAPICounts)
	s.handle("GET /n/{n}", s.handleClasses)
	s.handle("GET /n/{n}/{k}", s.handleClass)
	s.handle("GET /lookup", s.handleLookup)
	s.handle("GET /export/{file}", s.handleExport)
	s.handle("GET /style.css", s.handleStyle)
	s.handle("GET /api/v1/counts", s.handleAPICounts)
	s.handle("GET /api/v1/classes", s.handleAPIClasses)
	s.handle("GET /api/v1/classes/{n}/{k}", s.handleAPIClass)
	s.handle("GET /api/v1/lookup", s.handleAPILookup)
	s.handle("GET /api/v1/openapi.json", s.handleOpenAPI)
	s.mux.HandleFunc("/", s.handleNotFound)
}

// handle routes pattern to h, which answers the request or returns the
// error to answer it with (failErr).
func (s *Server) handle(pattern string, h func(http.ResponseWriter, *http.Request) error) {
	s.patterns = append(s.patterns, pattern)
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			s.failErr(w, r, err)
		}
	})
}

// ServeHTTP sets the security headers, refuses methods other than GET and
// HEAD with 405, routes the request and logs it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &recorder{ResponseWriter: w, status: http.StatusOK}
	h := rec.Header()
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	defer func() {
		if s.log != nil {
			s.logRequest(r, rec, time.Since(start))
		}
	}()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		s.fail(rec, r, http.StatusMethodNotAllowed, fmt.Sprintf("method %s not allowed: use GET or HEAD", r.Method))
		return
	}
	if strings.HasPrefix(r.URL.Path, "/export/") {
		// An export takes its turns itself (handleExport), as it produces.
		client := clientAddr(r)
		if !s.clients.take(client, s.opts.MaxClientExports) {
			h.Set("Retry-After", "1")
			s.fail(rec, r, http.StatusTooManyRequests, fmt.Sprintf("too many exports from %s at once: at most %d from one address; try again once one has finished", client, s.opts.MaxClientExports))
			return
		}
		defer s.clients.give(client)
		s.mux.ServeHTTP(rec, r)
		return
	}
	if !wait(r.Context(), s.turns, s.opts.QueueTimeout) {
		h.Set("Retry-After", "1")
		s.fail(rec, r, http.StatusServiceUnavailable, "too many requests at once: try again in a second")
		return
	}
	defer func() { <-s.turns }()
	s.mux.ServeHTTP(rec, r)
}

// turn is a request's hold on a token of turns, which it may give back
// and take again as it goes. It is used by one goroutine.
type turn struct {
	turns   chan struct{}
	timeout time.Duration
	held    bool
}

// take takes a token unless the turn holds one, waiting up to the
// turn's timeout, and reports whether the turn holds one.
func (t *turn) take(ctx context.Context) bool {
	if !t.held {
		t.held = wait(ctx, t.turns, t.timeout)
	}
	return t.held
}

// give gives the token back, if the turn holds one.
func (t *turn) give() {
	if t.held {
		<-t.turns
		t.held = false
	}
}

// wait takes a token of turns, waiting up to timeout for one, and
// reports whether it got one.
func wait(ctx context.Context, turns chan struct{}, timeout time.Duration) bool {
	select {
	case turns <- struct{}{}:
		return true
	default:
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case turns <- struct{}{}:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

// clients counts the exports in progress of each client address.
type clients struct {
	mu   sync.Mutex
	held map[string]int
}

// take counts one more export of client and reports true, unless client
// holds max already.
func (c *clients) take(client string, max int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held[client] >= max {
		return false
	}
	c.held[client]++
	return true
}

// give counts one export of client fewer.
func (c *clients) give(client string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held[client]--; c.held[client] <= 0 {
		delete(c.held, client)
	}
}

// clientAddr returns the address of r's client (addrOf its RemoteAddr).
func clientAddr(r *http.Request) string { return addrOf(r.RemoteAddr) }

// addrOf returns the address of a client at remote (host:port), without
// its port: an IPv4 address whole, and an IPv6 one as its /64 network,
// which one client commonly holds whole and could otherwise spread its
// exports and connections over.
func addrOf(remote string) string {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		return remote
	}
	if ip, err := netip.ParseAddr(host); err == nil && ip.Is6() && !ip.Is4In6() {
		if p, err := ip.Prefix(64); err == nil {
			return p.String()
		}
	}
	return host
}

// contentSecurityPolicy lets a page load only this server's stylesheet,
// submit forms only to this server, and run no script at all.
const contentSecurityPolicy = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// Run serves on addr (host:port; port 0 picks a free one) until ctx is
// cancelled, with the timeouts of its Options. Once it listens it calls
// ready, if not nil, with the address it listens on. When ctx is
// cancelled it stops accepting, waits up to its ShutdownTimeout for the
// requests in flight, then
// closes their connections, and returns nil. It returns an error if it
// cannot listen or serving fails.
func (s *Server) Run(ctx context.Context, addr string, ready func(addr net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	limit := &limitListener{Listener: ln, conns: make(chan struct{}, s.opts.MaxConnections), closed: make(chan struct{}),
		perClient: s.opts.MaxClientConnections, clients: clients{held: map[string]int{}}}
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: s.opts.ReadHeaderTimeout,
		ReadTimeout:       s.opts.ReadTimeout,
		WriteTimeout:      s.opts.WriteTimeout,
		IdleTimeout:       s.opts.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	limit.full = func() {
		// Turning keep-alives off closes the idle connections: clients
		// waiting in the backlog come before clients that hold a
		// connection open doing nothing.
		srv.SetKeepAlivesEnabled(false)
		srv.SetKeepAlivesEnabled(true)
	}
	ln = limit
	if ready != nil {
		ready(ln.Addr())
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	stop, cancel := context.WithTimeout(context.Background(), s.opts.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(stop); err != nil {
		srv.Close()
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// recorder remembers the status and the size of a response, for the log.
type recorder struct {
	http.ResponseWriter
	status  int
	written int64
	wrote   bool
}

func (r *recorder) WriteHeader(status int) {
	if !r.wrote {
		r.status, r.wrote = status, true
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	n, err := r.ResponseWriter.Write(b)
	r.written += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// logRequest writes the log line of one request. The path is written as
// it came, escaped, so a line is always one line.
func (s *Server) logRequest(r *http.Request, rec *recorder, d time.Duration) {
	uri := r.URL.EscapedPath()
	if r.URL.RawQuery != "" {
		uri += "?" + r.URL.RawQuery
	}
	if strings.ContainsFunc(uri, func(c rune) bool { return c <= ' ' || c >= 0x7f }) {
		uri = strconv.QuoteToASCII(uri)
	}
	line := fmt.Sprintf("%s %s %d %d %s\n", r.Method, uri, rec.status, rec.written, roundDuration(d))
	s.logMu.Lock()
	defer s.logMu.Unlock()
	io.WriteString(s.log, line)
}

// roundDuration rounds d to 3 significant digits or so: 1.23ms, 456µs.
func roundDuration(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

// handleStyle serves the pages' stylesheet.
func (s *Server) handleStyle(w http.ResponseWriter, r *http.Request) error {
	if _, err := params(r); err != nil {
		return err
	}
	css, _ := files.ReadFile("static/style.css")
	w.Header().Set("Content-Type", "text/css; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	http.ServeContent(w, r, "style.css", time.Time{}, bytes.NewReader(css))
	return nil
}

// handleNotFound answers every path no route serves: 404.
func (s *Server) handleNotFound(w http.ResponseWriter, r *http.Request) {
	s.fail(w, r, http.StatusNotFound, fmt.Sprintf("no page at %s", r.URL.EscapedPath()))
}

// isAPI reports whether r is a request of the JSON API or of a page's
// JSON twin, whose errors are JSON.
func isAPI(r *http.Request) bool {
	return strings.HasPrefix(r.URL.Path, "/api/") || strings.HasSuffix(r.URL.Path, ".json") && !strings.HasPrefix(r.URL.Path, "/export/")
}

// fail answers r with an error: a JSON object {"error": msg} for the API,
// an error page otherwise.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, status int, msg string) {
	if isAPI(r) {
		writeJSONError(w, status, msg)
		return
	}
	s.render(w, status, "error", errorPage{page: page{Title: http.StatusText(status)}, Status: status, Message: msg})
}

// failErr answers r with the status err calls for: 404 for an n the
// catalog lacks or a class it lacks, 503 with Retry-After when the
// catalog's file was removed or replaced and the path holds none now, 500
// for anything else, a read error or a row the store finds damaged
// (which is not shown to the client beyond its text: no board of a bad
// row is ever rendered).
func (s *Server) failErr(w http.ResponseWriter, r *http.Request, err error) {
	var pe paramError
	var ss squareSearch
	switch {
	case errors.As(err, &pe):
		s.fail(w, r, http.StatusBadRequest, err.Error())
	case errors.As(err, &ss):
		msg := err.Error()
		if s.advice.Square != nil {
			msg += fmt.Sprintf(" (%s gives them)", s.advice.Square(ss.b.N, ss.sq))
		}
		s.fail(w, r, http.StatusUnprocessableEntity, msg)
	case errors.Is(err, errNotServed), errors.Is(err, store.ErrNoClass):
		s.fail(w, r, http.StatusNotFound, err.Error())
	case errors.Is(err, context.Canceled):
		// The client went away: nobody reads the answer.
		s.fail(w, r, http.StatusServiceUnavailable, "request cancelled")
	case errors.Is(err, store.ErrChanged), errors.Is(err, store.ErrBusy):
		// The file was removed or replaced, and the path holds no catalog
		// now, or is locked: it may be back in a moment.
		w.Header().Set("Retry-After", "1")
		if s.advice.Open != nil {
			if advised := s.advice.Open(err); advised != nil {
				err = advised
			}
		}
		s.fail(w, r, http.StatusServiceUnavailable, err.Error())
	default:
		s.fail(w, r, http.StatusInternalServerError, err.Error())
	}
}

// tooManyConnections is the whole response to a connection beyond its
// address's share (Options.MaxClientConnections), written before the
// request is read.
const tooManyConnections = "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Type: text/plain; charset=utf-8\r\n" +
	"Connection: close\r\nContent-Length: 46\r\n\r\ntoo many connections from this client address\n"

// limitListener accepts a connection only while fewer than cap(conns)
// are open: the rest wait in the kernel's backlog. When all are taken it
// calls full, which closes the idle ones, before it waits. A connection
// from a client address (addrOf) that holds perClient open already is
// answered 503 (tooManyConnections) and closed as soon as it is accepted.
type limitListener struct {
	net.Listener
	conns     chan struct{}
	full      func()
	closed    chan struct{}
	once      sync.Once
	perClient int
	clients   clients // the open connections of each client address
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		select {
		case l.conns <- struct{}{}:
		default:
			l.full()
			select {
			case l.conns <- struct{}{}:
			case <-l.closed:
				return nil, net.ErrClosed
			}
		}
		c, err := l.Listener.Accept()
		if err != nil {
			<-l.conns
			return nil, err
		}
		client := addrOf(c.RemoteAddr().String())
		if !l.clients.take(client, l.perClient) {
			// Told why, in the few bytes a new socket's buffer takes at
			// once (a deadline bounds the write), then closed.
			c.SetWriteDeadline(time.Now().Add(50 * time.Millisecond))
			io.WriteString(c, tooManyConnections)
			c.Close()
			<-l.conns
			continue
		}
		return &limitConn{Conn: c, release: func() {
			l.clients.give(client)
			<-l.conns
		}}, nil
	}
}

func (l *limitListener) Close() error {
	l.once.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

// limitConn calls release once, when it is first closed.
type limitConn struct {
	net.Conn
	release func()
	once    sync.Once
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
