package store

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
)

// BenchmarkBuild stores the 45752 classes of n = 14 into a fresh catalog,
// the write half of `nqueens build 14`, and reports rows per second.
func BenchmarkBuild(b *testing.B) {
	const n = 14
	units := canonical.Units(n)
	batches := make([][]nqueens.Layout, len(units))
	rows := 0
	for i, batch := range canonical.UnitClasses(context.Background(), units, 0, 0) {
		batches[i] = batch
		rows += len(batch)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		db, err := Open(context.Background(), filepath.Join(b.TempDir(), "c.db"), Options{Create: true})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		bl, err := db.begin(context.Background(), n, len(units))
		if err != nil {
			b.Fatal(err)
		}
		for i, batch := range batches {
			if err := bl.Add(i, batch); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := bl.Finish(); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		db.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
