package main

import (
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/store"
	"github.com/nqueens/nqueens/verify"
)

// TestReportTables checks the tables, lines and words the command prints
// of its work, and the JSON shape of count --json.
func TestReportTables(t *testing.T) {
	t.Parallel()
	check := func(name string, write func(*strings.Builder) error, want string) {
		t.Helper()
		var b strings.Builder
		if err := write(&b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := b.String(); got != want {
			t.Errorf("%s:\n%s\nwant\n%s", name, got, want)
		}
	}
	check("builds", func(b *strings.Builder) error {
		return writeBuilds(b, []store.Build{
			{N: 8, Counts: nqueens.Counts{Total: 92, Unique: 12, Orbit8: 11, Orbit4: 1}, Complete: true, UnitsDone: 8, UnitsTotal: 8, Seconds: 0.0104},
			{N: 12, Counts: nqueens.Counts{Total: 5024, Unique: 628, Orbit8: 620, Orbit4: 8}, UnitsDone: 40, UnitsTotal: 66, Seconds: 0.2, Shard: nqueens.Shard{Index: 1, Count: 2}, Form: store.FormIndex},
		})
	}, `   n  total  unique  orbit8  orbit4  orbit2  orbit1               complete  seconds   form
   8     92      12      11       1       0       0                    yes    0.010   rows
  12   5024     628     620       8       0       0  shard 1/2: no (40/66)    0.200  index
`)
	check("counts", func(b *strings.Builder) error {
		if err := writeCounts(b, []count.Result{{N: 6, Counts: nqueens.Counts{Total: 4, Unique: 1, Orbit4: 1}, Seconds: 0.0004}}, countTable); err != nil {
			return err
		}
		return writeCounts(b, []count.Result{{N: 6, Counts: nqueens.Counts{Total: 4, Unique: 1, Orbit4: 1}}, {N: 4, Engine: "cpu", Device: "2 cores"}}, countJSON)
	}, `  n  total  unique  orbit8  orbit4  orbit2  orbit1  seconds
  6      4       1       0       1       0       0    0.000
[
  {
    "n": 6,
    "total": 4,
    "unique": 1,
    "orbit8": 0,
    "orbit4": 1,
    "orbit2": 0,
    "orbit1": 0,
    "seconds": 0
  },
  {
    "n": 4,
    "total": 0,
    "unique": 0,
    "orbit8": 0,
    "orbit4": 0,
    "orbit2": 0,
    "orbit1": 0,
    "seconds": 0,
    "engine": "cpu",
    "device": "2 cores"
  }
]
`)
	check("verify", func(b *strings.Builder) error {
		writeVerify(b, verify.Report{N: 8, OK: true, Total: 92, Unique: 12})
		writeVerify(b, verify.Report{N: 1, Total: 1, Unique: 1, Problems: []string{"the build records 2 solutions, its classes add up to 1"}})
		return writeVerify(b, verify.Report{Problems: []string{"the catalog lacks its build lock"}})
	}, `n=8 ok: 92 solutions in 12 classes
n=1 MISMATCH: the build records 2 solutions, its classes add up to 1
catalog MISMATCH: the catalog lacks its build lock
`)
	check("filter", func(b *strings.Builder) error {
		b.WriteString(filterWords(store.Filter{}) + "\n")
		b.WriteString(filterWords(store.Filter{From: 3, To: 30, Symmetry: []nqueens.Symmetry{nqueens.SymRot90, nqueens.SymFull}}) + "\n")
		return nil
	}, "classes\nclasses of symmetry rot90 or full among classes 3-30\n")
}
