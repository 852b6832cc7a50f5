package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// chromiumTimeout bounds each wait on Chromium: its start, each page
// loaded and read, and its exit.
const chromiumTimeout = 60 * time.Second

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

// A cdpBrowser is one headless Chromium with one tab, driven over the Chrome
// DevTools Protocol through --remote-debugging-pipe: Chromium reads
// commands on its fd 3 and writes replies and events on its fd 4, each
// message one JSON object followed by a NUL byte. A test loads all its
// pages in the one tab, which costs far less CPU than a Chromium per page.
// Its methods must be called from the test's goroutine, one at a time, and
// fail the test (with Chromium's stderr) on any error or when a wait
// outlasts chromiumTimeout.
type cdpBrowser struct {
	t       *testing.T
	stderr  string            // the file holding Chromium's stderr
	send    *os.File          // the pipe to Chromium's fd 3
	recv    <-chan cdpMessage // what Chromium wrote on its fd 4, in order
	readErr error             // why recv closed; read only once it has
	lastID  int               // the id of the last command sent
	session string            // the tab's session, once attached
	events  []cdpMessage      // events read while waiting for a reply
}

// A cdpMessage is what Chromium sends: the reply to the command with ID,
// holding Result or Error, or (with ID 0) the event Method with Params.
// SessionID names the tab's session for both, and is empty for the
// browser's own.
type cdpMessage struct {
	ID        int             `json:"id"`
	SessionID string          `json:"sessionId"`
	Method    string          `json:"method"`
	Params    json.RawMessage `json:"params"`
	Result    json.RawMessage `json:"result"`
	Error     *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// startChromium starts the Chromium bin headless, with flags that keep it
// off the network and a profile of its own, opens a tab and attaches to
// it. A cleanup asks Chromium to close and waits for it to exit, killing
// it if it has not within chromiumTimeout.
func startChromium(t *testing.T, bin string) *cdpBrowser {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), chromiumTimeout)
	defer cancel()
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	evR, evW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	b := &cdpBrowser{t: t, stderr: filepath.Join(t.TempDir(), "chromium.stderr"), send: cmdW}
	stderr, err := os.Create(b.stderr)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--remote-debugging-pipe")
	cmd.Stderr = stderr
	cmd.ExtraFiles = []*os.File{cmdR, evW} // fd 3 and fd 4
	err = cmd.Start()
	// Chromium holds its own copies of these: closing ours makes a read of
	// evR end when Chromium exits.
	cmdR.Close()
	evW.Close()
	stderr.Close()
	if err != nil {
		cmdW.Close()
		evR.Close()
		t.Fatalf("start %s: %v", bin, err)
	}

	recv := make(chan cdpMessage)
	stop := make(chan struct{})
	b.recv = recv
	go func() {
		defer close(recv)
		r := bufio.NewReader(evR)
		for {
			msg, err := r.ReadBytes(0)
			if err != nil {
				b.readErr = err
				return
			}
			var m cdpMessage
			if err := json.Unmarshal(msg[:len(msg)-1], &m); err != nil {
				b.readErr = fmt.Errorf("decode %.200q: %w", msg, err)
				return
			}
			select {
			case recv <- m:
			case <-stop:
				return
			}
		}
	}()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), chromiumTimeout)
		defer cancel()
		// A Chromium that has exited cannot take the command, and Wait
		// reports how it ended.
		b.write(ctx, "", "Browser.close", nil)
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		var err error
		select {
		case err = <-exited:
		case <-ctx.Done():
			cmd.Process.Kill()
			err = fmt.Errorf("still running %v after Browser.close, killed: %v", chromiumTimeout, <-exited)
		}
		close(stop)
		cmdW.Close()
		evR.Close()
		if err != nil {
			t.Errorf("chromium: %v\nchromium's stderr:\n%s", err, b.stderrText())
		}
	})

	var target struct {
		TargetID string `json:"targetId"`
	}
	b.call(ctx, "Target.createTarget", map[string]any{"url": "about:blank"}, &target)
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	b.call(ctx, "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached)
	b.session = attached.SessionID
	b.call(ctx, "Page.enable", nil, nil)
	return b
}

// dumpDOMScript serializes the DOM for dumpDOM.
const dumpDOMScript = `(document.doctype ? new XMLSerializer().serializeToString(document.doctype) + "\n" : "") +
	document.documentElement.outerHTML + "\n"`

// dumpDOM loads url in the tab and returns its DOM once the page has
// loaded, serialized byte for byte as chromium --dump-dom prints it: the
// doctype on a line of its own, then the root element's outerHTML and a
// newline.
func (b *cdpBrowser) dumpDOM(url string) []byte {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), chromiumTimeout)
	defer cancel()
	b.load(ctx, url)
	var eval struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	b.call(ctx, "Runtime.evaluate", map[string]any{"expression": dumpDOMScript, "returnByValue": true}, &eval)
	if eval.ExceptionDetails != nil {
		b.fatalf("read the DOM of %s: %s", url, eval.ExceptionDetails.Text)
	}
	return []byte(eval.Result.Value)
}

// evaluate evaluates the JavaScript expression in the page the tab holds
// (as dumpDOM left it) and returns its value, a string.
func (b *cdpBrowser) evaluate(expression string) string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), chromiumTimeout)
	defer cancel()
	var eval struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	b.call(ctx, "Runtime.evaluate", map[string]any{"expression": expression, "returnByValue": true}, &eval)
	if eval.ExceptionDetails != nil {
		b.fatalf("evaluate %s: %s", expression, eval.ExceptionDetails.Text)
	}
	return eval.Result.Value
}

// screenshot loads url in the tab with a viewport of 1200x900 CSS pixels
// and writes a PNG of that viewport to path.
func (b *cdpBrowser) screenshot(url, path string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), chromiumTimeout)
	defer cancel()
	b.call(ctx, "Emulation.setDeviceMetricsOverride", map[string]any{"width": 1200, "height": 900, "deviceScaleFactor": 1, "mobile": false}, nil)
	b.load(ctx, url)
	var shot struct {
		Data []byte `json:"data"` // base64 in the JSON
	}
	b.call(ctx, "Page.captureScreenshot", map[string]any{"format": "png"}, &shot)
	if err := os.WriteFile(path, shot.Data, 0o644); err != nil {
		b.t.Fatalf("screenshot of %s: %v", url, err)
	}
}

// load navigates the tab to url and waits for the new document's load
// event. Page.loadEventFired does not say which document loaded, so load
// first waits for Page.frameNavigated of the navigation's own loader: a
// load event after that one is the new document's, not an earlier one's.
func (b *cdpBrowser) load(ctx context.Context, url string) {
	b.t.Helper()
	var nav struct {
		FrameID   string `json:"frameId"`
		LoaderID  string `json:"loaderId"`
		ErrorText string `json:"errorText"`
	}
	b.call(ctx, "Page.navigate", map[string]any{"url": url}, &nav)
	if nav.ErrorText != "" {
		b.fatalf("navigate to %s: %s", url, nav.ErrorText)
	}
	for navigated := false; ; {
		m := b.event(ctx, "the load event of "+url)
		switch m.Method {
		case "Page.frameNavigated":
			var p struct {
				Frame struct {
					ID       string `json:"id"`
					LoaderID string `json:"loaderId"`
				} `json:"frame"`
			}
			if err := json.Unmarshal(m.Params, &p); err != nil {
				b.fatalf("%s: %v", m.Method, err)
			}
			if p.Frame.ID == nav.FrameID && p.Frame.LoaderID == nav.LoaderID {
				navigated = true
			}
		case "Page.loadEventFired":
			if navigated {
				return
			}
		}
	}
}

// call sends the command method with params (nil for none) to the tab's
// session, or to the browser before there is one, waits for its reply and
// decodes the reply's result into result, unless that is nil. The events
// read meanwhile are kept for event.
func (b *cdpBrowser) call(ctx context.Context, method string, params, result any) {
	b.t.Helper()
	if err := b.write(ctx, b.session, method, params); err != nil {
		b.fatalf("send %s: %v", method, err)
	}
	for {
		m := b.next(ctx, "the reply to "+method)
		if m.ID == 0 {
			b.events = append(b.events, m)
			continue
		}
		if m.ID != b.lastID {
			b.fatalf("reply to command %d while waiting for %d (%s)", m.ID, b.lastID, method)
		}
		if m.Error != nil {
			b.fatalf("%s: %s (code %d)", method, m.Error.Message, m.Error.Code)
		}
		if result != nil {
			if err := json.Unmarshal(m.Result, result); err != nil {
				b.fatalf("the reply to %s: %v: %.200s", method, err, m.Result)
			}
		}
		return
	}
}

// write sends the command method with params to session ("" for the
// browser) under the next id.
func (b *cdpBrowser) write(ctx context.Context, session, method string, params any) error {
	b.lastID++
	msg, err := json.Marshal(struct {
		ID        int    `json:"id"`
		SessionID string `json:"sessionId,omitempty"`
		Method    string `json:"method"`
		Params    any    `json:"params,omitempty"`
	}{b.lastID, session, method, params})
	if err != nil {
		return err
	}
	if deadline, ok := ctx.Deadline(); ok {
		b.send.SetWriteDeadline(deadline)
	}
	_, err = b.send.Write(append(msg, 0))
	return err
}

// event returns the tab's next event, first those call kept; what names
// the event awaited, for the error should none come.
func (b *cdpBrowser) event(ctx context.Context, what string) cdpMessage {
	b.t.Helper()
	for {
		var m cdpMessage
		if len(b.events) > 0 {
			m, b.events = b.events[0], b.events[1:]
		} else {
			m = b.next(ctx, what)
		}
		if m.ID == 0 && m.SessionID == b.session {
			return m
		}
	}
}

// next returns the next message from Chromium; what names the message
// awaited, for the error should none come before ctx's deadline.
func (b *cdpBrowser) next(ctx context.Context, what string) cdpMessage {
	b.t.Helper()
	select {
	case m, ok := <-b.recv:
		if !ok {
			err := b.readErr
			if errors.Is(err, io.EOF) {
				err = errors.New("chromium closed its pipe (has it exited?)")
			}
			b.fatalf("waiting for %s: %v", what, err)
		}
		return m
	case <-ctx.Done():
		b.fatalf("waiting for %s: none within %v", what, chromiumTimeout)
	}
	panic("unreachable")
}

// fatalf fails the test with the message and Chromium's stderr.
func (b *cdpBrowser) fatalf(format string, args ...any) {
	b.t.Helper()
	b.t.Fatalf("chromium: %s\nchromium's stderr:\n%s", fmt.Sprintf(format, args...), b.stderrText())
}

// stderrText returns what Chromium has written on its stderr.
func (b *cdpBrowser) stderrText() []byte {
	text, err := os.ReadFile(b.stderr)
	if err != nil {
		return []byte(err.Error())
	}
	return text
}
