package main

// Tests of nqueens serve as a long-lived reader: run by a user who cannot
// write the catalog while its owner builds, with its file removed and
// replaced under it, and under a burst of clients.

import (
	"bufio"
	"database/sql"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nqueens/nqueens/serve"
)

// startServeAs starts nqueens serve (exe, from sharedDir) as the user uid
// in dir on the catalog db, on a free port, and returns it with its base
// URL, read from the line it prints once it listens.
func startServeAs(t *testing.T, uid int, exe, dir, db string) (*exec.Cmd, *bufio.Reader, func() bool, string) {
	t.Helper()
	cmd := exec.Command(exe, "serve", "--db", db, "--addr", "127.0.0.1:0")
	cmd.Dir = dir
	cmd.Env = []string{"NQUEENS_TEST_AS_MAIN=1", "HOME=" + dir, "PATH=/usr/bin:/bin", childGORACE()}
	if uid != os.Geteuid() {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
	}
	stderr, guardFired := startReady(t, cmd)
	line, err := stderr.ReadString('\n')
	m := regexp.MustCompile(`^serving .* on (http://127\.0\.0\.1:\d+)/ \(Ctrl-C to stop\)\n$`).FindStringSubmatch(line)
	if m == nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("serve as uid %d said %q %v", uid, line, err)
	}
	return cmd, stderr, guardFired, m[1]
}

// expect fetches each path of base and fails t unless it answers want
// with a body holding has.
func expect(t *testing.T, when, base string, want int, has string, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if code, body := fetch(t, base+p); code != want || !strings.Contains(body, has) {
			t.Errorf("%s: %s %d, want %d with %q: %.300s", when, p, code, want, has, body)
		}
	}
}

// ownedBy returns the entries of dir owned by uid.
func ownedBy(t *testing.T, dir string, uid int) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && fi.Sys().(*syscall.Stat_t).Uid == uint32(uid) {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestServeByAnotherUser runs nqueens serve as an unprivileged user on a
// catalog owned by root, in a private directory, in a sticky shared one
// and through a read-only bind mount, while root builds into it: the
// server answers every page of the n it had throughout, shows the n being
// built as such while the build is paused in the middle, serves it as
// soon as the build completes, serves an n built after that, creates no
// file, and stops with status 0.
func TestServeByAnotherUser(t *testing.T) {
	t.Parallel()
	dir, exe := sharedDir(t)
	for _, tc := range []struct {
		name  string
		mode  os.FileMode
		mount bool // serve through a read-only bind mount of the directory
	}{{"private", 0o755, false}, {"sticky", 0o777 | os.ModeSticky, false}, {"bind mount", 0o755, true}} {
		sub := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(sub, tc.mode); err != nil {
			t.Fatal(err)
		}
		db := filepath.Join(sub, "c.db")
		if out, err := runAs(t, 0, exe, dir, "build", "1-10", "-q", "--db", db); err != nil {
			t.Fatalf("%s: owner's build: %v\n%s", tc.name, err, out)
		}
		served := db
		if tc.mount {
			mnt := filepath.Join(dir, "mnt")
			if err := os.Mkdir(mnt, 0o755); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command("mount", "--bind", sub, mnt).CombinedOutput(); err != nil {
				t.Logf("cannot bind-mount here: %v %s", err, out)
				continue
			}
			t.Cleanup(func() { exec.Command("umount", mnt).Run() })
			if out, err := exec.Command("mount", "-o", "remount,bind,ro", mnt).CombinedOutput(); err != nil {
				t.Logf("cannot remount read-only here: %v %s", err, out)
				continue
			}
			served = filepath.Join(mnt, "c.db")
		}
		cmd, stderr, guardFired, base := startServeAs(t, nobody, exe, dir, served)
		before := []string{"/n/8/3", "/n/10", "/n/10/50", "/api/v1/classes/9/46"}
		expect(t, tc.name+", before the build", base, 200, "", before...)

		b := startPausedBuild(t, db, 12, 5)
		expect(t, tc.name+", during the build", base, 200, "", before...)
		expect(t, tc.name+", during the build", base, 404, "is being built", "/n/12")
		b.resume()
		if err := b.wait(); err != nil {
			t.Fatalf("%s: build 12: %v\n%s", tc.name, err, b.stderr)
		}
		expect(t, tc.name+", after the build", base, 200, "", append(before, "/n/12", "/n/12?page=18", "/n/12/1787", "/api/v1/classes/12/1000")...)
		expect(t, tc.name+", after the build", base, 200, "The classes of n = 12", "/n/12")

		if out, err := runAs(t, 0, exe, dir, "build", "11", "-q", "--db", db); err != nil {
			t.Fatalf("%s: owner's build 11: %v\n%s", tc.name, err, out)
		}
		expect(t, tc.name+", after build 11", base, 200, "", append(before, "/n/11/341", "/n/12/1787")...)
		if left := ownedBy(t, sub, nobody); len(left) > 0 {
			t.Errorf("%s: serve as another user created %v", tc.name, left)
		}
		rest, err := signalAndWait(t, cmd, stderr, guardFired, syscall.SIGTERM)
		if err != nil || strings.Contains(string(rest), " 500 ") {
			t.Errorf("%s: serve: %v\n%s", tc.name, err, rest)
		}
	}
}

// fetchAll GETs base+path from clients clients at once, each on its own
// connection, and returns the statuses and the bodies.
func fetchAll(t *testing.T, clients int, u string) ([]int, []string) {
	t.Helper()
	codes, bodies := make([]int, clients), make([]string, clients)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
			resp, err := c.Get(u)
			if err != nil {
				bodies[i] = err.Error()
				return
			}
			defer resp.Body.Close()
			var b strings.Builder
			_, err = bufio.NewReader(resp.Body).WriteTo(&b)
			codes[i], bodies[i] = resp.StatusCode, b.String()
			if err != nil {
				codes[i], bodies[i] = 0, err.Error()
			}
		}()
	}
	wg.Wait()
	return codes, bodies
}

// TestServeFileReplaced removes the catalog an owner's nqueens serve reads,
// then puts another catalog in its place by a rename, then the first one
// back: while the path holds nothing every request is a 503 saying so
// (with Retry-After) and no file is created; after each rename every
// request, from many clients at once, answers from the file the path holds
// then, never from the other.
func TestServeFileReplaced(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "c.db")
	buildApart(t, db, "1-10")
	other := filepath.Join(dir, "other.db")
	buildApart(t, other, "1-9")
	cmd, stderr, guardFired, base := startServe(t, db)
	expect(t, "at first", base, 200, "", "/n/10/50", "/n/8/3")

	moved := filepath.Join(dir, "moved.db")
	if err := os.Rename(db, moved); err != nil {
		t.Fatal(err)
	}
	codes, bodies := fetchAll(t, 24, base+"/n/8/3")
	for i, code := range codes {
		if code != 503 || !strings.Contains(bodies[i], "c.db was removed") {
			t.Fatalf("with the catalog removed: /n/8/3 %d: %.300s", code, bodies[i])
		}
	}
	resp, err := http.Get(base + "/api/v1/counts")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" {
		t.Errorf("with the catalog removed: /api/v1/counts %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if _, err := os.Stat(db); err == nil {
		t.Fatalf("serve created %s after it was removed", db)
	}

	if err := os.Rename(other, db); err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct {
		path string
		want int
	}{{"/n/10/50", 404}, {"/n/9/46", 200}} {
		codes, bodies := fetchAll(t, 24, base+p.path)
		for i, code := range codes {
			if code != p.want {
				t.Fatalf("after a rename onto the path: %s %d, want %d: %.300s", p.path, code, p.want, bodies[i])
			}
		}
	}

	if err := os.Rename(moved, db); err != nil {
		t.Fatal(err)
	}
	codes, bodies = fetchAll(t, 24, base+"/n/10/50")
	for i, code := range codes {
		if code != 200 {
			t.Fatalf("with the first catalog back: /n/10/50 %d: %.300s", code, bodies[i])
		}
	}
	rest, err := signalAndWait(t, cmd, stderr, guardFired, syscall.SIGTERM)
	if err != nil {
		t.Errorf("serve: %v\n%s", err, rest)
	}
}

// descriptors returns the open descriptors of the process pid, and those
// of them that are the catalog db or its companions.
func descriptors(t *testing.T, pid int, db string) (all, catalog int) {
	t.Helper()
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Skipf("no /proc here: %v", err)
	}
	for _, fd := range fds {
		target, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
		if strings.HasPrefix(target, db) {
			catalog++
		}
	}
	return len(fds), catalog
}

// TestServeBounds sends nqueens serve 400 requests at once, each on its own
// connection, then exports n = 12 in chunks: every one is answered 200,
// the exports as nqueens export writes them, the server never holds more than
// the bounded number of SQLite connections (their descriptors on the
// catalog), and its other descriptors go back to what they were before
// the burst once the clients have closed theirs.
func TestServeBounds(t *testing.T) {
	t.Parallel()
	db := builtCatalog(t, "1-12")
	cmd, stderr, guardFired, base := startServe(t, db, "--quiet")
	expect(t, "before the burst", base, 200, "", "/n/12?page=3")
	all, catalog := descriptors(t, cmd.Process.Pid, db)
	baseline := all - catalog // the catalog's are bounded apart

	codes, bodies := fetchAll(t, 400, base+"/n/12?page=7")
	for i, code := range codes {
		if code != 200 {
			t.Fatalf("in the burst: /n/12?page=7 %d: %.300s", code, bodies[i])
		}
	}
	// An export of n = 12 (1,787 classes) reads them in two chunks: its
	// bytes are those of nqueens export.
	for _, format := range []string{"csv", "json"} {
		want, _, err := runCLI(t, "--db", db, "export", "12", "--all", "--format", format)
		if err != nil {
			t.Fatal(err)
		}
		if code, body := fetch(t, base+"/export/12."+format+"?all=1"); code != 200 || body != want {
			t.Errorf("/export/12.%s?all=1: %d, %d bytes, want the %d of nqueens export", format, code, len(body), len(want))
		}
	}
	maxCatalog := 2*serve.Options{}.FollowOptions().MaxConns + 1 // the file and its log a connection, and the index
	if _, catalog := descriptors(t, cmd.Process.Pid, db); catalog > maxCatalog {
		t.Errorf("after the burst: %d descriptors on the catalog, want at most %d", catalog, maxCatalog)
	}
	// The server closes each connection once it reads the client's close:
	// a failure deadline only.
	other := 0
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		all, catalog := descriptors(t, cmd.Process.Pid, db)
		if other = all - catalog; other <= baseline {
			break
		}
	}
	if other > baseline {
		t.Errorf("after the burst: %d descriptors open besides the catalog's, %d before it", other, baseline)
	}
	rest, err := signalAndWait(t, cmd, stderr, guardFired, syscall.SIGTERM)
	if err != nil {
		t.Errorf("serve: %v\n%s", err, rest)
	}
}

// TestServeDamagedRow serves a catalog one of whose rows the store cannot
// read as a class (its placement overwritten by hand): every route that
// reads the row answers 500 with the store's error, which names n and the
// class, and no route shows a board for it; an export fails before its
// first byte rather than sending part of the classes.
func TestServeDamagedRow(t *testing.T) {
	t.Parallel()
	// A row that cannot be read, and one that reads as a board but is no
	// solution (class 3 of n = 8 is 1 3 5 7 2 0 6 4).
	for _, bad := range []struct{ key, board string }{{"!!!!!!!!", ""}, {"13572046", "1 3 5 7 2 0 4 6"}} {
		db := builtCatalog(t, "1-10")
		cmd, stderr, guardFired, base := startServe(t, db, "--quiet")
		_, class3 := fetch(t, base+"/api/v1/classes/8/3")
		m := regexp.MustCompile(`"placement":\[([0-9,]+)\]`).FindStringSubmatch(class3)
		if m == nil {
			t.Fatalf("class 3 of n=8: %s", class3)
		}
		board := strings.ReplaceAll(m[1], ",", " ")
		sqlDB, err := sql.Open("sqlite", "file:"+db+"?mode=rw")
		if err != nil {
			t.Fatal(err)
		}
		_, err = sqlDB.Exec(`UPDATE classes SET placement = ? WHERE n = 8 AND class = 3`, bad.key)
		sqlDB.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"/n/8/3", "/n/8", "/n/8/3.svg", "/api/v1/classes/8/3", "/api/v1/classes?n=8",
			"/export/8.json", "/export/8.csv?all=1", "/lookup?placement=" + url.QueryEscape(board), "/api/v1/lookup?placement=" + url.QueryEscape(board)} {
			code, body := fetch(t, base+p)
			// The message names the row as stored; nothing else may show it.
			rest := strings.ReplaceAll(body, "n=8 class 3 ("+bad.board+")", "")
			if code != 500 || !strings.Contains(body, "n=8 class 3") || strings.Contains(body, board) || bad.board != "" && strings.Contains(rest, bad.board) {
				t.Errorf("%s with class 3 of n=8 set to %s: %d, want 500 naming n=8 class 3 and no board:\n%.400s", p, bad.key, code, body)
			}
		}
		expect(t, "beside the damaged row", base, 200, "", "/n/8/2", "/n/9", "/export/9.json")
		if _, err := signalAndWait(t, cmd, stderr, guardFired, syscall.SIGTERM); err != nil {
			t.Errorf("serve: %v", err)
		}
	}
}

// TestServeStalledExportLetsBuildCheckpoint stalls a client part way into
// a large export (it reads the first bytes, then nothing) and builds n =
// 15 into the served catalog meanwhile: the build's log is checkpointed
// into the catalog as it commits, as the export holds no read transaction
// while it waits for the client, so the catalog grows (by at least 1 MB of
// the 8 MB of n = 15: the last commits may stay in the log, below SQLite's
// checkpoint threshold of 1,000 pages).
func TestServeStalledExportLetsBuildCheckpoint(t *testing.T) {
	t.Parallel()
	db := builtCatalog(t, "1-14")
	cmd, stderr, guardFired, base := startServe(t, db, "--quiet")
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /export/14.json?all=1 HTTP/1.1\r\nHost: x\r\n\r\n")
	head := make([]byte, 4096)
	if _, err := io.ReadFull(conn, head); err != nil || !strings.HasPrefix(string(head), "HTTP/1.1 200 ") {
		t.Fatalf("export: %v %.200s", err, head)
	}
	// The client reads nothing more: the server's writes fill the
	// socket's buffers and block.
	before := size(db)
	buildApart(t, db, "15")
	if grew, wal := size(db)-before, size(db+"-wal"); grew < 1<<20 {
		t.Errorf("build 15 beside a stalled export: the catalog grew by %d bytes and its log is %d bytes: the build's pages were not checkpointed", grew, wal)
	}
	conn.Close()
	if _, err := signalAndWait(t, cmd, stderr, guardFired, syscall.SIGTERM); err != nil {
		t.Errorf("serve: %v", err)
	}
}
