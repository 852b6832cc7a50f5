package count_test

import (
	"context"
	"errors"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/count"
)

// wrongEngine searches as CPU does, but reports one more solution for the
// first constellation whose orbit is orbit.
type wrongEngine struct {
	count.CPU
	orbit int
}

func (e wrongEngine) Search(ctx context.Context, cs []count.Constellation, found func(int, uint64)) error {
	first := -1
	for i, c := range cs {
		if c.Orbit() == e.orbit && c.Solutions() > 0 {
			first = i
			break
		}
	}
	return e.CPU.Search(ctx, cs, func(i int, s uint64) {
		if i == first {
			s++
		}
		found(i, s)
	})
}

// endKeeper is a Keeper that keeps nothing and records the error it was
// ended with.
type endKeeper struct {
	ended bool
	err   error
}

func (k *endKeeper) Resume(context.Context, count.Units) (map[int]uint64, error) {
	return nil, nil
}
func (k *endKeeper) Keep(int, uint64) {}
func (k *endKeeper) End(err error) error {
	k.ended, k.err = true, err
	return err
}

// TestBoardChecksPublishedCounts counts n = 12 with an engine that finds
// one solution too many: whether the total still forms whole classes
// (orbit 8) or not (orbit 2), Board returns a *nqueens.KnownError naming
// the published counts, and ends its keeper with it. By ByClasses it
// gives the published counts by the class search, whatever the engine,
// and ends its keeper.
func TestBoardChecksPublishedCounts(t *testing.T) {
	ctx := context.Background()
	for _, orbit := range []int{8, 2} {
		k := &endKeeper{}
		_, err := count.Board(ctx, 12, count.Options{Workers: 2, Engine: wrongEngine{count.CPU{Workers: 2}, orbit}, Keeper: k})
		var ke *nqueens.KnownError
		if !errors.As(err, &ke) || ke.Known.Total != 14200 || !k.ended || !errors.As(k.err, &ke) {
			t.Errorf("orbit %d: err %v, keeper ended %v with %v; want a *nqueens.KnownError for both", orbit, err, k.ended, k.err)
		}
	}
	k := &endKeeper{}
	units := 0
	o := count.Options{Workers: 2, By: count.ByClasses, Engine: wrongEngine{count.CPU{Workers: 2}, 8}, Keeper: k, Start: func(_, total int) { units = total }}
	c, err := count.Board(ctx, 12, o)
	want := nqueens.Counts{Total: 14200, Unique: 1787, Orbit8: 1765, Orbit4: 18, Orbit2: 4}
	if err != nil || c != want || !k.ended || k.err != nil {
		t.Errorf("class search: %+v, %v; keeper ended %v with %v", c, err, k.ended, k.err)
	}
	if want := len(canonical.Units(12)); units != want {
		t.Errorf("class search: Start(%d), want canonical's %d units", units, want)
	}
}

// memoKeeper is a Keeper that records every work unit kept and resumes
// with those of known.
type memoKeeper struct {
	known map[int]uint64
	kept  map[int]uint64
}

func (k *memoKeeper) Resume(context.Context, count.Units) (map[int]uint64, error) {
	k.kept = map[int]uint64{}
	return k.known, nil
}
func (k *memoKeeper) Keep(i int, s uint64) { k.kept[i] = s }
func (k *memoKeeper) End(err error) error  { return err }

// TestResumedStartCountsTheWhole resumes counts of n = 12 whose keeper
// holds a third of the work units: Start is told those and all the units,
// as the keeper's messages count them, and Progress is called once for
// each of the others.
func TestResumedStartCountsTheWhole(t *testing.T) {
	ctx := context.Background()
	for _, by := range []count.Method{count.ByConstellations, count.ByJoin} {
		first := &memoKeeper{}
		if _, err := count.Board(ctx, 12, count.Options{Workers: 2, By: by, Engine: count.CPU{Workers: 2}, Keeper: first}); err != nil {
			t.Fatal(err)
		}
		total := len(first.kept)
		known := map[int]uint64{}
		for i := range total / 3 {
			known[i] = first.kept[i]
		}
		var done, all, steps int
		o := count.Options{Workers: 2, By: by, Engine: count.CPU{Workers: 2}, Keeper: &memoKeeper{known: known},
			Start: func(d, t int) { done, all = d, t }, Progress: func() { steps++ }}
		c, err := count.Board(ctx, 12, o)
		if err != nil || c.Total != 14200 {
			t.Fatalf("%v: resumed count %+v, %v", by, c, err)
		}
		if done != total/3 || all != total || steps != total-total/3 {
			t.Errorf("%v: Start(%d, %d) and %d steps, want Start(%d, %d) and %d steps", by, done, all, steps, total/3, total, total-total/3)
		}
	}
}
