// Command loadserve measures nqueens serve. With -url it has -clients
// concurrent clients make -requests requests in all, a quarter each of a
// random class page (/n/{n}/{k}), page of classes (/n/{n}?page=P), API
// class object (/api/v1/classes/{n}/{k}) and lookup (/api/v1/lookup or
// /lookup, of a board of a random class turned upside down), n drawn
// uniformly from the complete n of the catalog with classes and k
// uniformly from the classes of n, and prints the errors and the latency
// percentiles seen by the clients. With -burst C it then opens C
// connections at once, each sending one request and holding its
// connection open until all C are answered. With -pid, the process id of
// the server, it samples the server's resident memory and open
// descriptors throughout and prints their peaks, and, after the burst,
// waits up to 30 s for the descriptors to fall back to what they were
// before it. With -log it reads the request log nqueens serve wrote on
// stderr and prints the percentiles of the durations the server logged,
// per kind of request. scripts/bench_serve.sh runs it.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	base := flag.String("url", "", "base URL of nqueens serve, http://127.0.0.1:PORT")
	clients := flag.Int("clients", 50, "concurrent clients")
	requests := flag.Int("requests", 20000, "requests in all")
	burst := flag.Int("burst", 0, "then open this many connections at once, one request each")
	pid := flag.Int("pid", 0, "process id of the server: sample its memory and descriptors")
	seed := flag.Uint64("seed", 1, "random seed")
	logFile := flag.String("log", "", "instead: summarise the request log of nqueens serve in this file")
	flag.Parse()
	log.SetFlags(0)
	if *logFile != "" {
		summariseLog(*logFile)
		return
	}
	if *base == "" {
		log.Fatal("loadserve: give -url or -log")
	}
	var m *monitor
	if *pid > 0 {
		m = startMonitor(*pid)
		fmt.Printf("server: before: RSS %s, %d descriptors\n", mib(m.rss()), m.fds())
	}
	errs := 0
	if *requests > 0 {
		errs += load(*base, *clients, *requests, *seed)
	}
	if m != nil && *requests > 0 {
		fmt.Printf("server: during the clients: peak RSS %s, peak %d descriptors\n", mib(m.peakRSS.Load()), m.peakFDs.Load())
	}
	if *burst > 0 {
		errs += burstLoad(*base, *burst, m)
	}
	if errs > 0 {
		os.Exit(1)
	}
}

// build is what loadserve needs of an object of /api/v1/counts.
type build struct {
	N        int  `json:"n"`
	Unique   int  `json:"unique"`
	Complete bool `json:"complete"`
}

// catalog reads the complete builds with classes that the server at base
// serves, and up to 1000 boards of each, for lookups.
func catalog(base string) ([]build, map[int][][]int) {
	var all, builds []build
	getJSON(base+"/api/v1/counts", &all)
	boards := map[int][][]int{}
	for _, b := range all {
		if !b.Complete || b.Unique == 0 {
			continue
		}
		builds = append(builds, b)
		var page struct {
			Items []struct {
				Placement []int `json:"placement"`
			} `json:"items"`
		}
		getJSON(fmt.Sprintf("%s/api/v1/classes?n=%d&offset=%d&limit=1000", base, b.N, max(0, b.Unique/2-500)), &page)
		for _, it := range page.Items {
			boards[b.N] = append(boards[b.N], it.Placement)
		}
	}
	if len(builds) == 0 {
		log.Fatal("loadserve: the catalog serves no classes")
	}
	return builds, boards
}

func getJSON(u string, v any) {
	resp, err := http.Get(u)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		log.Fatalf("%s: %v", u, err)
	}
}

// load runs the clients and returns the number of errors.
func load(base string, clients, requests int, seed uint64) int {
	builds, boards := catalog(base)
	client := &http.Client{
		Transport:     &http.Transport{MaxIdleConnsPerHost: clients},
		Timeout:       30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	type result struct {
		d   time.Duration
		err error
	}
	results := make([]result, requests)
	var wg sync.WaitGroup
	start := time.Now()
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(seed, uint64(c)))
			for i := c; i < requests; i += clients {
				b := builds[rng.IntN(len(builds))]
				k := 1 + rng.IntN(b.Unique)
				u, want := "", 200
				switch i % 4 {
				case 0:
					u = fmt.Sprintf("%s/n/%d/%d", base, b.N, k)
				case 1:
					u = fmt.Sprintf("%s/n/%d?page=%d", base, b.N, 1+(k-1)/100)
				case 2:
					u = fmt.Sprintf("%s/api/v1/classes/%d/%d", base, b.N, k)
				case 3:
					// A board of the class, upside down: a lookup that must
					// find its class.
					p := slices.Clone(boards[b.N][rng.IntN(len(boards[b.N]))])
					slices.Reverse(p)
					cols := make([]string, len(p))
					for j, c := range p {
						cols[j] = strconv.Itoa(c)
					}
					q := url.QueryEscape(strings.Join(cols, " "))
					u = base + "/api/v1/lookup?placement=" + q
					if rng.IntN(2) == 0 {
						u, want = base+"/lookup?placement="+q, 303
					}
				}
				t0 := time.Now()
				resp, err := client.Get(u)
				if err == nil {
					_, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if err == nil && resp.StatusCode != want {
						err = fmt.Errorf("%s: status %d", u, resp.StatusCode)
					}
				}
				results[i] = result{time.Since(t0), err}
			}
		}()
	}
	wg.Wait()
	wall := time.Since(start)
	var ds []time.Duration
	errs := 0
	for _, r := range results {
		if r.err != nil {
			if errs < 5 {
				log.Printf("error: %v", r.err)
			}
			errs++
		}
		ds = append(ds, r.d)
	}
	fmt.Printf("clients: %d requests by %d clients (class pages, pages of classes, API objects, lookups; n = %d..%d) in %v: %.0f requests/s, %d errors\n",
		requests, clients, builds[0].N, builds[len(builds)-1].N, wall.Round(time.Millisecond), float64(requests)/wall.Seconds(), errs)
	fmt.Printf("clients: latency %s\n", percentiles(ds))
	return errs
}

// burstLoad opens conns connections to the server at base at once, each
// sending one request and holding its connection until all are answered,
// then closes them all, and returns the number of errors. On loopback the
// connections come from 32 addresses in turn (250 each of 8,000), below
// the server's share of one address.
func burstLoad(base string, conns int, m *monitor) int {
	addr := strings.TrimPrefix(base, "http://")
	before := -1
	if m != nil {
		before = m.fds()
		m.peakRSS.Store(0)
		m.peakFDs.Store(0)
	}
	var answered, errs atomic.Int64
	ds := make([]time.Duration, conns)
	all := make(chan struct{})
	var wg sync.WaitGroup
	start := time.Now()
	for i := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			err := func() error {
				// From 127.0.0.1 to 127.0.0.32 in turn when the server is on
				// loopback: the server answers one address 512 connections
				// at once, as many clients would come from many addresses.
				d := net.Dialer{Timeout: 60 * time.Second}
				if strings.HasPrefix(addr, "127.") {
					d.LocalAddr = &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(1+i%32))}
				}
				c, err := d.Dial("tcp", addr)
				if err != nil {
					return err
				}
				defer c.Close()
				c.SetDeadline(time.Now().Add(120 * time.Second))
				fmt.Fprintf(c, "GET /api/v1/classes/%d/1 HTTP/1.1\r\nHost: %s\r\n\r\n", 8+i%3, addr)
				resp, err := http.ReadResponse(bufio.NewReader(c), nil)
				if err != nil {
					return err
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					return fmt.Errorf("status %d", resp.StatusCode)
				}
				ds[i] = time.Since(t0)
				if answered.Add(1) == int64(conns) {
					close(all)
				}
				<-all // hold the connection open until every one is answered
				return nil
			}()
			if err != nil {
				if errs.Add(1) <= 5 {
					log.Printf("burst: error: %v", err)
				}
				if answered.Add(1) == int64(conns) {
					close(all)
				}
			}
		}()
	}
	wg.Wait()
	fmt.Printf("burst: %d connections at once, one request each, answered in %v, %d errors; latency %s\n",
		conns, time.Since(start).Round(time.Millisecond), errs.Load(), percentiles(ds))
	if m != nil {
		fmt.Printf("server: during the burst: peak RSS %s, peak %d descriptors (%d before)\n", mib(m.peakRSS.Load()), m.peakFDs.Load(), before)
		t0 := time.Now()
		for m.fds() > before && time.Since(t0) < 30*time.Second {
			time.Sleep(10 * time.Millisecond)
		}
		fmt.Printf("server: after the burst: %d descriptors %v after the clients closed, RSS %s\n", m.fds(), time.Since(t0).Round(time.Millisecond), mib(m.rss()))
	}
	return int(errs.Load())
}

// monitor samples a process's resident memory and descriptors every 5 ms.
type monitor struct {
	pid              int
	peakRSS, peakFDs atomic.Int64
}

func startMonitor(pid int) *monitor {
	m := &monitor{pid: pid}
	go func() {
		for {
			if r := m.rss(); r > m.peakRSS.Load() {
				m.peakRSS.Store(r)
			}
			if f := int64(m.fds()); f > m.peakFDs.Load() {
				m.peakFDs.Store(f)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	return m
}

// rss returns the process's resident memory in bytes (VmRSS).
func (m *monitor) rss() int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", m.pid))
	if err != nil {
		log.Fatalf("loadserve: server %d: %v", m.pid, err)
	}
	f := regexp.MustCompile(`VmRSS:\s+(\d+) kB`).FindSubmatch(b)
	if f == nil {
		return 0
	}
	kb, _ := strconv.ParseInt(string(f[1]), 10, 64)
	return kb << 10
}

// fds returns how many descriptors the process has open.
func (m *monitor) fds() int {
	entries, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", m.pid))
	return len(entries)
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// percentiles writes the p50, p90, p99 and max of ds.
func percentiles(ds []time.Duration) string {
	if len(ds) == 0 {
		return "no requests"
	}
	slices.Sort(ds)
	p := func(q float64) time.Duration { return ds[min(len(ds)-1, int(q*float64(len(ds))))] }
	r := func(d time.Duration) string { return fmt.Sprintf("%.2fms", float64(d)/1e6) }
	return fmt.Sprintf("p50 %s, p90 %s, p99 %s, max %s (%d requests)", r(p(.5)), r(p(.9)), r(p(.99)), r(ds[len(ds)-1]), len(ds))
}

// logLine matches a request line of the log of nqueens serve.
var logLine = regexp.MustCompile(`^(GET|HEAD) (\S+) (\d{3}) \d+ (\S+)$`)

func summariseLog(path string) {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	kinds := map[string][]time.Duration{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := logLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		d, err := time.ParseDuration(m[4])
		if err != nil {
			continue
		}
		kind := "other"
		switch {
		case strings.HasPrefix(m[2], "/api/v1/classes/"):
			kind = "API class object /api/v1/classes/{n}/{k}"
		case regexp.MustCompile(`^/n/\d+/\d+$`).MatchString(m[2]):
			kind = "class page /n/{n}/{k}"
		case regexp.MustCompile(`^/n/\d+\?page=\d+$`).MatchString(m[2]):
			kind = "page of classes /n/{n}?page=P"
		case strings.Contains(m[2], "lookup?"):
			kind = "lookup /lookup, /api/v1/lookup"
		}
		kinds[kind] = append(kinds[kind], d)
	}
	for _, kind := range slices.Sorted(func(yield func(string) bool) {
		for k := range kinds {
			if !yield(k) {
				return
			}
		}
	}) {
		fmt.Printf("server: %s: %s\n", kind, percentiles(kinds[kind]))
	}
}
