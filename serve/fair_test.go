package serve

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/store"
)

// bigExport is an export of n = 12 that takes a client some time: every
// solution as a grid, 2.2 MB, far more than the sockets between a
// server and a client that does not read can hold.
const bigExport = "/export/12.grid?order=class"

// exportCatalog builds n = 12 into a new catalog and opens it read-only.
func exportCatalog(t *testing.T) *store.DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "c.db")
	ctx := context.Background()
	db, err := store.Open(ctx, path, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Run(ctx, 12, nqueens.Shard{}, store.RunOptions{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = store.Open(ctx, path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// lines is a server's log, a line a Write, passed on to a channel.
type lines chan string

func (l lines) Write(p []byte) (int, error) {
	l <- string(p)
	return len(p), nil
}

// runServer runs a server of db with opts on a free port of 127.0.0.1
// until the test ends, and returns its address and its log. Its sockets
// have send buffers as small as the system allows, so that a client that
// does not read holds up the server at once (left to itself, the system
// lets a socket buffer megabytes).
func runServer(t *testing.T, db *store.DB, opts Options) (string, lines) {
	t.Helper()
	log := make(lines, 1000)
	opts.Log = log
	srv := httptest.NewUnstartedServer(New(db, opts))
	srv.Listener = smallBuffers{srv.Listener}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.Listener.Addr().String(), log
}

// smallBuffers is a listener whose connections have small send buffers.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(1024)
	}
	return c, err
}

// waitLog waits for a line of log that holds has, and returns it. It
// fails the test should none come in a minute, which no server takes.
func waitLog(t *testing.T, log lines, has string) string {
	t.Helper()
	bound := time.After(time.Minute)
	for {
		select {
		case line := <-log:
			if strings.Contains(line, has) {
				return line
			}
		case <-bound:
			t.Fatalf("no line of the log says %q", has)
		}
	}
}

// client is an HTTP/1.1 client connection from the address from (such as
// 127.0.0.2) to the server at addr. Its receive buffer is the system's:
// an export of a few hundred kilobytes fits in it whole, so that the
// server never waits for a client that reads all, however the machine
// schedules the client.
type client struct {
	conn net.Conn
	r    *bufio.Reader
}

func dial(t *testing.T, from, addr string) *client {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		t.Skipf("cannot connect from %s: %v", from, err)
	}
	t.Cleanup(func() { conn.Close() })
	return &client{conn: conn, r: bufio.NewReaderSize(conn, 64)}
}

// get sends GET path and returns the response, its headers read.
func (c *client) get(t *testing.T, path string) *http.Response {
	t.Helper()
	if _, err := fmt.Fprintf(c.conn, "GET %s HTTP/1.1\r\nHost: nqueens\r\nConnection: close\r\n\r\n", path); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(c.r, nil)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// readSlowly reads body 64 bytes every 10 ms (6.4 KB/s) until it ends.
func readSlowly(body io.Reader) {
	buf := make([]byte, 64)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for range tick.C {
		if _, err := body.Read(buf); err != nil {
			return
		}
	}
}

// TestClientExports has one address start two exports that it does not
// read, then a third: the third is answered 429 at once saying why, while
// another address's export is answered 200 in full; once one of the two
// ends, the address may start another.
func TestClientExports(t *testing.T) {
	t.Parallel()
	addr, log := runServer(t, exportCatalog(t), Options{MinExportRate: -1})
	var stalled []*client
	for range 2 {
		c := dial(t, "127.0.0.1", addr)
		if resp := c.get(t, bigExport); resp.StatusCode != http.StatusOK {
			t.Fatalf("export %d: %s", len(stalled)+1, resp.Status)
		}
		stalled = append(stalled, c)
	}
	third := dial(t, "127.0.0.1", addr).get(t, bigExport)
	body, _ := io.ReadAll(third.Body)
	if third.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(body), "too many exports from 127.0.0.1 at once: at most 2 from one address") {
		t.Errorf("a third export from one address: %s\n%.500s", third.Status, body)
	}
	other := dial(t, "127.0.0.2", addr).get(t, "/export/12.csv")
	n, err := io.Copy(io.Discard, other.Body)
	if other.StatusCode != http.StatusOK || err != nil {
		t.Errorf("an export from another address beside them: %s, %d bytes, %v", other.Status, n, err)
	}
	// The first client goes away; the server, blocked writing to it, fails
	// and logs the request once its turn is given back.
	stalled[0].conn.Close()
	waitLog(t, log, "GET "+bigExport+" 200")
	again := dial(t, "127.0.0.1", addr).get(t, "/export/12.csv")
	if n, err := io.Copy(io.Discard, again.Body); again.StatusCode != http.StatusOK || err != nil {
		t.Errorf("an export from the address once one of its two ended: %s, %d bytes, %v", again.Status, n, err)
	}
}

// TestSlowExports has four clients, two from each of two addresses, read
// exports at 6.4 KB/s, under a minimum rate of 256 KiB/s over windows of
// 200 ms, holding every export turn; a fifth client's export, waiting
// for a turn, must be answered 200 in full as the slow clients are cut
// off, which the log says of each.
func TestSlowExports(t *testing.T) {
	t.Parallel()
	addr, log := runServer(t, exportCatalog(t), Options{MinExportRate: 256 << 10, RateWindow: 200 * time.Millisecond})
	want := dial(t, "127.0.0.3", addr).get(t, "/export/12.csv")
	wantBody, err := io.ReadAll(want.Body)
	if want.StatusCode != http.StatusOK || err != nil {
		t.Fatalf("an export alone: %s, %v", want.Status, err)
	}
	var readers sync.WaitGroup
	defer readers.Wait()
	for i := range 4 {
		c := dial(t, fmt.Sprintf("127.0.0.%d", 1+i%2), addr)
		resp := c.get(t, bigExport)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("slow client %d: %s", i, resp.Status)
		}
		// Closed as the test ends: what the client holds in its buffers when
		// the server cuts it off would take it half a minute more.
		defer c.conn.Close()
		readers.Go(func() { readSlowly(resp.Body) })
	}
	fifth := dial(t, "127.0.0.4", addr).get(t, "/export/12.csv")
	got, err := io.ReadAll(fifth.Body)
	if fifth.StatusCode != http.StatusOK || err != nil || string(got) != string(wantBody) {
		t.Fatalf("the fifth client's export beside four slow ones: %s, %d bytes of %d, %v", fifth.Status, len(got), len(wantBody), err)
	}
	for range 4 {
		line := waitLog(t, log, "under the minimum of 262144 bytes/s")
		t.Logf("%s", strings.TrimSpace(line))
	}
}
