package join

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"
)

func TestScratchTime(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("JN"))
	if n == 0 {
		t.Skip()
	}
	w, _ := strconv.Atoi(os.Getenv("JW"))
	every, _ := strconv.Atoi(os.Getenv("JEVERY"))
	every = max(every, 1)
	t0 := time.Now()
	b, err := New(n)
	if err != nil {
		t.Fatal(err)
	}
	t1 := time.Now()
	var units []int
	for u := 0; u < b.Units(); u += every {
		units = append(units, u)
	}
	var total uint64
	err = b.Count(context.Background(), units, w, func(_ int, s uint64) { total += s })
	t.Logf("n=%d every=%d total=%d err=%v table %v count %v", n, every, total, err, t1.Sub(t0), time.Since(t1))
}

func init() {
	if g, err := strconv.Atoi(os.Getenv("MING")); err == nil {
		minGroup = g
	}
}

func init() {
	if g, err := strconv.Atoi(os.Getenv("MINWIDE")); err == nil {
		minWide = g
	}
}
