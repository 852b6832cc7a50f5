package estimate

import (
	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/phrase"
)

// The join of half boards (count.ByJoin) has no search tree to estimate:
// its time is measured. joinCoreSeconds are the seconds one core of the
// reference machine, a 2-core AMD EPYC with AVX-512 that searches refRate
// nodes a second on a core (MeasureRate), took to count each n by the
// join, n = 1..25: measured to n = 20 (from n = 17 as twice the wall time
// on both cores), for 21 and 22 from a sample of their units (16 of 21's,
// 8 of 22's: each unit is a stride of the whole, so they cost alike), and
// above 22 extrapolated from the growth measured from 19 to 22, each odd n
// about 10 times the even n below it and each even n about 8 times the
// odd n below. An estimate of the join scales them by the rate of this
// machine against the reference's, as measured on the constellations: the
// two searches differ, but both are bound by the same core's speed.
var joinCoreSeconds = [...]float64{
	0,
	1e-5, 1e-5, 1e-5, 4e-5, 4e-5, 6e-5, 7e-5, 9e-5, // n = 1..8
	1.7e-4, 2.9e-4, 2.2e-3, 2.3e-3, 1.6e-2, 1.7e-2, 0.19, 0.27, // 9..16
	3.2, 5.2, 65, 195, 1980, 16000, // 17..22
	16000 * 10, 16000 * 10 * 8, 16000 * 10 * 8 * 10, // 23..25
}

// refRate is the constellation rate of one core of the reference machine
// of joinCoreSeconds, in nodes a second, measured with it.
const refRate = 1.5e8

// joinShortMax is the largest n whose count by the join is short (not
// Long) at MinRate even on one core: 18 (56 s at MinRate); 19 takes
// about 12 times longer.
const joinShortMax = 18

// joinWork returns the work of counting a board of n by the join, in
// nodes of the constellation search that take the same time (so that a
// Rate divides it as it divides Nodes): joinCoreSeconds[n] times the
// reference's rate. It panics if n is outside 1..25.
func joinWork(n int) float64 {
	if n < 1 || n >= len(joinCoreSeconds) {
		panic("estimate: the join counts n from 1 to 25")
	}
	return joinCoreSeconds[n] * refRate
}

// ForJoin returns the estimate of counting a board of n by the join at
// rate r: JoinWork(n) at r, the memory it takes (count.JoinMemory) and
// Engine "join". It panics if n is outside 1..25.
func (r Rate) ForJoin(n int) Result {
	if err := nqueens.CheckN(n); err != nil {
		panic("estimate: " + err.Error())
	}
	e := r.estimate(n, joinWork(n))
	e.Engine, e.Bytes = "join", count.JoinMemory(n, r.Workers)
	return e
}

// joinText is the parenthesis of a join's estimate: "(the join, 101.5 MiB
// of memory)".
func joinText(e Result) string {
	return "(the join, " + phrase.Bytes(uint64(e.Bytes)) + " of memory)"
}
