package count

import (
	"context"
	"fmt"

	"github.com/nqueens/nqueens/count/join"
	"github.com/nqueens/nqueens/internal/phrase"
)

// JoinFaster reports whether the join counts a board of n faster than
// the constellations on the CPU: every n from 16 to 25, the largest the
// join counts, and the even n from 8 (measured on 2 cores; below 16 both
// take milliseconds, and below 8 microseconds).
func JoinFaster(n int) bool { return n <= join.MaxN && (n >= 16 || n >= 8 && n%2 == 0) }

// JoinMemory returns the bytes a count of n by the join takes on workers
// goroutines (join.Memory): on 2, about 102 MiB for n = 20 and 21, 646
// MiB for 22 and 23, 5.6 GiB for 24 and 25.
func JoinMemory(n, workers int) int64 { return join.Memory(n, workers) }

// JoinFits returns nil if the join can count a board of n on workers
// goroutines within available bytes of memory (available < 0: not
// known, and any n the join counts fits); otherwise an error that says
// what it would take: "the join of n=24 needs about 4.7 GiB of memory,
// more than the 3.1 GiB available", or for n above 25 that the join
// counts n up to 25.
func JoinFits(n, workers int, available int64) error {
	if n > join.MaxN {
		return fmt.Errorf("the join counts n up to %d (its memory grows about 9 times for each 2 n)", join.MaxN)
	}
	if need := join.Memory(n, workers); available >= 0 && need > available {
		return fmt.Errorf("the join of n=%d needs about %s of memory, more than the %s available",
			n, phrase.Bytes(uint64(need)), phrase.Bytes(uint64(available)))
	}
	return nil
}

// JoinUnitsOf returns the units of the join of a whole board of n.
func JoinUnitsOf(n int) JoinUnits {
	u := JoinUnits{N: n, Total: join.UnitsOf(n)}
	u.Of = make([]int, u.Total)
	for i := range u.Of {
		u.Of[i] = i
	}
	return u
}

// SearchJoin returns the number of solutions in units u of the join of a
// board of u.N, counted on o.Workers goroutines, with o's hooks and
// keeper as Search calls them: the units o.Keeper knows are added, not
// counted, and each one counted is handed to it. It returns ctx.Err()
// with a partial total if ctx is cancelled first, the keeper's error if
// it fails, and ErrOverflow if the total does not fit in 64 bits. A
// caller with a Keeper ends it (Options.End).
func (o Options) SearchJoin(ctx context.Context, u JoinUnits) (uint64, error) {
	return o.run(ctx, u, func(todo []int, found func(j int, solutions uint64)) error {
		if len(todo) == 0 {
			return nil
		}
		// The quarters' pieces take a minute to list for n = 24 and 25:
		// a cancelled count does not wait for them.
		type made struct {
			b   *join.Board
			err error
		}
		ready := make(chan made, 1)
		go func() {
			b, err := join.New(u.N)
			ready <- made{b, err}
		}()
		var b *join.Board
		select {
		case m := <-ready:
			if m.err != nil {
				return fmt.Errorf("join: %w", m.err)
			}
			b = m.b
		case <-ctx.Done():
			return ctx.Err()
		}
		if b.Units() != u.Total {
			return fmt.Errorf("join: n=%d has %d units, not %d", u.N, b.Units(), u.Total)
		}
		of := make([]int, len(todo))
		for j, i := range todo {
			of[j] = u.Of[i]
		}
		return b.Count(ctx, of, o.Workers, found)
	})
}
