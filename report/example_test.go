package report_test

import (
	"os"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/report"
	"github.com/nqueens/nqueens/store"
	"github.com/nqueens/nqueens/verify"
)

func ExampleBuilds() {
	report.Builds(os.Stdout, []store.Build{
		{N: 8, Counts: nqueens.Counts{Total: 92, Unique: 12, Orbit8: 11, Orbit4: 1}, Complete: true, UnitsDone: 8, UnitsTotal: 8, Seconds: 0.01},
		{N: 12, Counts: nqueens.Counts{Total: 5024, Unique: 628, Orbit8: 620, Orbit4: 8}, UnitsDone: 40, UnitsTotal: 66, Seconds: 0.2, Shard: nqueens.Shard{Index: 1, Count: 2}},
	})
	// Output:
	// n  total  unique  orbit8  orbit4  orbit2  orbit1               complete  seconds
	//    8     92      12      11       1       0       0                    yes     0.01
	//   12   5024     628     620       8       0       0  shard 1/2: no (40/66)     0.20
}

func ExampleCounts() {
	report.Counts(os.Stdout, []count.Result{{N: 6, Counts: nqueens.Counts{Total: 4, Unique: 1, Orbit4: 1}, Seconds: 0.0004}}, false)
	report.Counts(os.Stdout, []count.Result{{N: 6, Counts: nqueens.Counts{Total: 4, Unique: 1, Orbit4: 1}}}, true)
	// Output:
	// n  total  unique  orbit8  orbit4  orbit2  orbit1  seconds
	//   6      4       1       0       1       0       0    0.000
	// [
	//   {
	//     "n": 6,
	//     "total": 4,
	//     "unique": 1,
	//     "orbit8": 0,
	//     "orbit4": 1,
	//     "orbit2": 0,
	//     "orbit1": 0,
	//     "seconds": 0
	//   }
	// ]
}

func ExampleVerify() {
	report.Verify(os.Stdout, verify.Report{N: 8, OK: true, Total: 92, Unique: 12})
	report.Verify(os.Stdout, verify.Report{N: 1, Total: 1, Unique: 1, Problems: []string{"the build records 2 solutions, its classes add up to 1"}})
	report.Verify(os.Stdout, verify.Report{Problems: []string{"the catalog lacks its build lock"}})
	// Output:
	// n=8 ok: 92 solutions in 12 classes
	// n=1 MISMATCH: the build records 2 solutions, its classes add up to 1
	// catalog MISMATCH: the catalog lacks its build lock
}

func ExampleFilter() {
	println := func(f store.Filter) { os.Stdout.WriteString(report.Filter(f) + "\n") }
	println(store.Filter{})
	println(store.Filter{From: 3, To: 30, Symmetry: []nqueens.Symmetry{nqueens.SymRot90, nqueens.SymFull}})
	// Output:
	// classes
	// classes of symmetry rot90 or full among classes 3-30
}
