package sample

import (
	"context"
	"fmt"
	"iter"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/internal/phrase"
)

// MaxSearchN is the largest n Search lists the classes of (1.8 million
// classes of n = 16, about 3 s a search on 2 cores); above it, uniform
// draws come from a catalog that holds n.
const MaxSearchN = 16

// Searcher is a Source of the classes of n found by the class search
// (canonical.Classes), numbered as the catalog numbers them: the same
// seed draws the same classes and solutions from it as from the catalog.
// It is not safe for concurrent use; Close stops its search.
type Searcher struct {
	n, workers int
	count      int64
	next       func() (nqueens.Layout, bool)
	stop       func()
	last       int64 // the number of the last class read, 0 before the first
}

// Search returns a Searcher of the classes of n that searches on workers
// goroutines (all cores when workers < 1), or nil if n is above
// MaxSearchN or has no solution.
func Search(n, workers int) *Searcher {
	k, ok := nqueens.KnownCounts(n)
	if !ok || n > MaxSearchN || k.Unique == 0 {
		return nil
	}
	return &Searcher{n: n, workers: workers, count: int64(k.Unique)}
}

// Count returns the number of classes of n.
func (s *Searcher) Count() int64 { return s.count }

// Class returns class k of n. It goes on with the search from the last
// class it returned, or, for a k not after it, searches from the start
// again: Draw reads each round in ascending order, so a round costs one
// search at most. The search runs under the ctx of the call that starts
// it; it returns ctx's error if ctx is cancelled, and an error if n has
// no class k.
func (s *Searcher) Class(ctx context.Context, k int64) (nqueens.Layout, error) {
	if k < 1 || k > s.count {
		return nqueens.Layout{}, fmt.Errorf("n=%d has %s, no class %d", s.n, phrase.Plural(s.count, "class"), k)
	}
	if s.next == nil || k <= s.last {
		s.Close()
		s.next, s.stop = iter.Pull(canonical.Classes(ctx, s.n, s.workers))
	}
	for {
		l, ok := s.next()
		if !ok {
			s.Close()
			if err := ctx.Err(); err != nil {
				return nqueens.Layout{}, err
			}
			return nqueens.Layout{}, fmt.Errorf("the class search of n=%d ended before class %d", s.n, k)
		}
		s.last = l.Class
		if l.Class == k {
			return l, nil
		}
	}
}

// Close stops the search, if one is under way. The Searcher may be used
// again: its next Class searches from the start.
func (s *Searcher) Close() {
	if s.stop != nil {
		s.stop()
	}
	s.next, s.stop, s.last = nil, nil, 0
}
