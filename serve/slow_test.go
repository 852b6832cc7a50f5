package serve

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// firstByteBound is how soon the first byte of an export must come to a
// client while others read theirs slowly.
const firstByteBound = time.Second

// TestSlowReadersDenyNoExport has 4 clients from 2 addresses, then 8 from
// 4, take the big export at 20 KB/s, just above the minimum rate of 16
// KiB/s, each with a small receive buffer, so that the server waits on
// each of them for seconds at a time; they hold every export turn the
// server has if an export holds its turn while it waits for its client.
// Another client's export, twice in a row, must begin within a second
// and come whole, and every slow client must still be reading.
func TestSlowReadersDenyNoExport(t *testing.T) {
	t.Parallel()
	db := exportCatalog(t)
	for _, tc := range []struct{ readers, addrs int }{{4, 2}, {8, 4}} {
		t.Run(fmt.Sprintf("%d readers from %d addresses", tc.readers, tc.addrs), func(t *testing.T) {
			addr, _ := runServer(t, db, Options{})
			want := dial(t, "127.0.0.1", addr).get(t, "/export/12.csv")
			wantBody, err := io.ReadAll(want.Body)
			if want.StatusCode != http.StatusOK || err != nil {
				t.Fatalf("an export alone: %s, %v", want.Status, err)
			}
			ctx, stop := context.WithCancel(context.Background())
			var readers sync.WaitGroup
			errs := make([]error, tc.readers)
			defer readers.Wait()
			defer stop()
			for i := range tc.readers {
				c := dial(t, fmt.Sprintf("127.0.0.%d", 2+i%tc.addrs), addr)
				c.conn.(*net.TCPConn).SetReadBuffer(8 << 10)
				resp := c.get(t, bigExport)
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("slow client %d: %s", i, resp.Status)
				}
				readers.Go(func() { errs[i] = readAt(ctx, resp.Body, 20_000) })
			}
			for try := range 2 {
				c := dial(t, "127.0.0.1", addr)
				start := time.Now()
				fmt.Fprintf(c.conn, "GET /export/12.csv HTTP/1.1\r\nHost: nqueens\r\nConnection: close\r\n\r\n")
				if _, err := c.r.Peek(1); err != nil {
					t.Fatalf("export %d beside the slow clients: %v", try+1, err)
				}
				first := time.Since(start)
				resp, err := http.ReadResponse(c.r, nil)
				if err != nil {
					t.Fatal(err)
				}
				got, err := io.ReadAll(resp.Body)
				if resp.StatusCode != http.StatusOK || err != nil || string(got) != string(wantBody) {
					t.Fatalf("export %d beside the slow clients: %s, %d bytes of %d, %v\n%.300s", try+1, resp.Status, len(got), len(wantBody), err, got)
				}
				if first > firstByteBound {
					t.Errorf("export %d beside the slow clients: its first byte came after %v, more than %v", try+1, first, firstByteBound)
				}
				t.Logf("export %d: first byte after %v, whole after %v", try+1, first, time.Since(start))
			}
			stop()
			readers.Wait()
			for i, err := range errs {
				if err != nil {
					t.Errorf("slow client %d: %v", i, err)
				}
			}
		})
	}
}

// readAt reads body at about rate bytes a second, a tenth of a second's
// worth at a time, until ctx is cancelled (nil) or the body ends or fails
// (the error, io.ErrUnexpectedEOF for an end).
func readAt(ctx context.Context, body io.Reader, rate int) error {
	buf := make([]byte, rate/10)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		if _, err := io.ReadFull(body, buf); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return err
		}
	}
}

// TestClientConnections runs a server that lets one address hold 2
// connections: a third from the address is answered 503 and closed, while
// another address is served, and once one of the two closes the address
// may connect again.
func TestClientConnections(t *testing.T) {
	t.Parallel()
	db := exportCatalog(t)
	s := New(db, Options{MaxClientConnections: 2})
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, "127.0.0.1:0", func(a net.Addr) { addrs <- a }) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	addr := (<-addrs).String()
	// ask sends a request on c, keeping it open, and returns the status,
	// or the error of a connection that could not be read.
	ask := func(c *client) (string, error) {
		if _, err := fmt.Fprintf(c.conn, "GET /api/v1/counts HTTP/1.1\r\nHost: nqueens\r\n\r\n"); err != nil {
			return "", err
		}
		resp, err := http.ReadResponse(c.r, nil)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		_, err = io.Copy(io.Discard, resp.Body)
		return resp.Status, err
	}
	var held []*client
	for i := range 2 {
		c := dial(t, "127.0.0.2", addr)
		if status, err := ask(c); err != nil || !strings.HasPrefix(status, "200") {
			t.Fatalf("connection %d from 127.0.0.2: %s %v", i+1, status, err)
		}
		held = append(held, c)
	}
	if status, err := ask(dial(t, "127.0.0.2", addr)); err != nil || !strings.HasPrefix(status, "503") {
		t.Errorf("a third connection from 127.0.0.2: %s %v; want 503 (too many connections from this client address)", status, err)
	}
	if status, err := ask(dial(t, "127.0.0.3", addr)); err != nil || !strings.HasPrefix(status, "200") {
		t.Errorf("a connection from 127.0.0.3 beside them: %s %v", status, err)
	}
	// The server ends a connection once it reads its client's close,
	// which takes it a moment: until then a third connection is answered 503.
	held[0].conn.Close()
	bound := time.Now().Add(10 * time.Second)
	for {
		status, err := ask(dial(t, "127.0.0.2", addr))
		if err == nil && strings.HasPrefix(status, "200") {
			break
		}
		if time.Now().After(bound) {
			t.Fatalf("no connection from 127.0.0.2 served after one of its two closed: %s %v", status, err)
		}
	}
	if status, err := ask(held[1]); err != nil || !strings.HasPrefix(status, "200") {
		t.Errorf("the connection left: %s %v", status, err)
	}
}
