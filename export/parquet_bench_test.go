package export

import (
	"context"
	"testing"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
)

// rows16 returns every solution of the first classes of n = 16, class by
// class, as export 16 --all writes them: about 32,000 layouts.
func rows16() []nqueens.Layout {
	var out []nqueens.Layout
	for l := range canonical.Classes(context.Background(), 16, 1) {
		for _, p := range canonical.Orbit(l.Placement) {
			m := l
			m.Placement = p
			out = append(out, m)
		}
		if len(out) >= 32_000 {
			break
		}
	}
	return out
}

// BenchmarkWrite16 writes layouts of n = 16, every solution class by
// class as export 16 --all writes them, in ndjson and in parquet, to a
// writer that counts the bytes; an op is one layout.
func BenchmarkWrite16(b *testing.B) {
	ls := rows16()
	for _, f := range []Format{FormatNDJSON, FormatParquet} {
		b.Run(f.String(), func(b *testing.B) {
			var c counter
			w := f.New(&c, SolutionBoards)
			i := 0
			for b.Loop() {
				if err := w.Write(ls[i]); err != nil {
					b.Fatal(err)
				}
				if i++; i == len(ls) {
					i = 0
				}
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "layouts/s")
			b.ReportMetric(float64(c)/float64(b.N), "bytes/layout")
		})
	}
}

type counter int64

func (c *counter) Write(p []byte) (int, error) { *c += counter(len(p)); return len(p), nil }

// BenchmarkParquetVsNDJSON writes the same layouts of n = 16 (as
// BenchmarkWrite16) in ndjson and in parquet, taking turns every 65,536
// layouts so that both meet the same load on a busy machine; an op is
// one layout in each. It reports each format's rate and parquet's as a
// share of ndjson's (the writers' Close included).
func BenchmarkParquetVsNDJSON(b *testing.B) {
	ls := rows16()
	var cn, cp counter
	nd, pq := FormatNDJSON.New(&cn, SolutionBoards), FormatParquet.New(&cp, SolutionBoards)
	var tn, tp time.Duration
	timed := func(t *time.Duration, f func() error) {
		start := time.Now()
		if err := f(); err != nil {
			b.Fatal(err)
		}
		*t += time.Since(start)
	}
	write := func(w Writer, from, k int) func() error {
		return func() error {
			for j := range k {
				if err := w.Write(ls[(from+j)%len(ls)]); err != nil {
					return err
				}
			}
			return nil
		}
	}
	b.ResetTimer()
	for done := 0; done < b.N; done += 1 << 16 {
		k := min(1<<16, b.N-done)
		timed(&tn, write(nd, done, k))
		timed(&tp, write(pq, done, k))
	}
	timed(&tn, nd.Close)
	timed(&tp, pq.Close)
	rn, rp := float64(b.N)/tn.Seconds(), float64(b.N)/tp.Seconds()
	b.ReportMetric(rn, "ndjson-layouts/s")
	b.ReportMetric(rp, "parquet-layouts/s")
	b.ReportMetric(rp/rn, "parquet/ndjson")
	b.ReportMetric(float64(cp)/float64(b.N), "parquet-bytes/layout")
}
