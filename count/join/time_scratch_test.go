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
	t0 := time.Now()
	got, err := Total(context.Background(), n, w)
	t.Logf("n=%d total=%d err=%v %v", n, got, err, time.Since(t0))
}

func init() {
	if g, err := strconv.Atoi(os.Getenv("MING")); err == nil {
		minGroup = g
	}
}
