// Command loadserve measures nqueens serve: with -url it has -clients
// concurrent clients make -requests requests in all, each of a random
// class page (/n/{n}/{k}) or API class object (/api/v1/classes/{n}/{k}),
// n drawn uniformly from the complete n of the catalog with classes and k
// uniformly from the classes of n, and prints the errors and the latency
// percentiles seen by the clients. With -log it reads the request log
// nqueens serve wrote on stderr and prints the percentiles of the
// durations the server logged, per kind of request. scripts/bench_serve.sh
// runs both.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

func main() {
	base := flag.String("url", "", "base URL of nqueens serve, http://127.0.0.1:PORT")
	clients := flag.Int("clients", 32, "concurrent clients")
	requests := flag.Int("requests", 3200, "requests in all")
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
	load(*base, *clients, *requests, *seed)
}

// build is what loadserve needs of an object of /api/v1/counts.
type build struct {
	N        int  `json:"n"`
	Unique   int  `json:"unique"`
	Complete bool `json:"complete"`
}

func load(base string, clients, requests int, seed uint64) {
	resp, err := http.Get(base + "/api/v1/counts")
	if err != nil {
		log.Fatal(err)
	}
	var all, builds []build
	if err := json.NewDecoder(resp.Body).Decode(&all); err != nil {
		log.Fatal(err)
	}
	resp.Body.Close()
	for _, b := range all {
		if b.Complete && b.Unique > 0 {
			builds = append(builds, b)
		}
	}
	if len(builds) == 0 {
		log.Fatal("loadserve: the catalog serves no classes")
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}, Timeout: 30 * time.Second}
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
				u := fmt.Sprintf("%s/n/%d/%d", base, b.N, k)
				if i%2 == 1 {
					u = fmt.Sprintf("%s/api/v1/classes/%d/%d", base, b.N, k)
				}
				t0 := time.Now()
				resp, err := client.Get(u)
				if err == nil {
					_, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if err == nil && resp.StatusCode != 200 {
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
	fmt.Printf("clients: %d requests by %d clients (n = %d..%d) in %v: %.0f requests/s, %d errors\n",
		requests, clients, builds[0].N, builds[len(builds)-1].N, wall.Round(time.Millisecond), float64(requests)/wall.Seconds(), errs)
	fmt.Printf("clients: latency %s\n", percentiles(ds))
	if errs > 0 {
		os.Exit(1)
	}
}

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
