package main

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the meter's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestLineMeterWritesPlainLines(t *testing.T) {
	var out syncBuffer
	m := newLineMeter(&out, "build n=16", 100, 1000, "work units", 20*time.Millisecond)
	for range 9 {
		time.Sleep(10 * time.Millisecond)
		m.Add(50)
	}
	m.Done()
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) < 2 {
		t.Fatalf("%d lines in 90ms at one per 20ms: %q", len(lines), out.String())
	}
	re := regexp.MustCompile(`^build n=16: \d+/1000 work units \(\d+%\), \d+/s, \d+s elapsed, (about \S+ left|time left unknown)$`)
	for _, l := range lines {
		if !re.MatchString(l) {
			t.Errorf("line %q does not match %s", l, re)
		}
	}
	if strings.Contains(out.String(), "\x1b") {
		t.Errorf("plain lines hold terminal escapes: %q", out.String())
	}
	after := out.String()
	time.Sleep(50 * time.Millisecond)
	if out.String() != after {
		t.Errorf("the meter wrote after Done")
	}
}

func TestProgressChoosesTheMeter(t *testing.T) {
	var buf bytes.Buffer
	a := &app{stderr: &buf}
	m := a.progress("x", 0, 10, "units")
	defer m.Done()
	if _, ok := m.(*lineMeter); !ok {
		t.Errorf("stderr not a terminal: want plain lines")
	}
	a.cfg.Quiet = true
	if _, ok := a.progress("x", 0, 10, "units").(nopMeter); !ok {
		t.Errorf("--quiet: want no progress")
	}
	a.cfg.Quiet = false
	if _, ok := a.progress("x", 0, 0, "units").(nopMeter); !ok {
		t.Errorf("nothing to do: want no progress")
	}
}
