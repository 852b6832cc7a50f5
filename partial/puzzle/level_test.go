package puzzle

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// TestLevelOf checks the thresholds of each level at their edges: n³/32
// and n³/8 nodes, and a search with no wrong move easy whatever n.
func TestLevelOf(t *testing.T) {
	for _, tc := range []struct {
		n, empty int
		nodes    uint64
		want     Level
	}{
		{8, 5, 16, Easy}, // 32 × 16 = 512 = 8³
		{8, 5, 17, Medium},
		{8, 5, 64, Medium}, // 8 × 64 = 512
		{8, 5, 65, Hard},
		{12, 8, 54, Easy}, // 32 × 54 = 1728 = 12³
		{12, 8, 55, Medium},
		{12, 8, 216, Medium},
		{12, 8, 217, Hard},
		{16, 11, 128, Easy},
		{16, 11, 129, Medium},
		{16, 11, 512, Medium},
		{16, 11, 513, Hard},
		{1, 1, 1, Easy},   // no wrong move: easy though 32 > 1
		{4, 3, 3, Easy},   // no wrong move
		{4, 3, 4, Medium}, // one wrong move: 32 × 4 > 64
		{6, 4, 27, Medium},
		{6, 4, 28, Hard},
		{20, 0, 0, Easy}, // a full board
		{32, 28, 4097, Hard},
		{32, 28, 1024, Easy},
	} {
		if got := levelOf(tc.n, tc.empty, tc.nodes); got != tc.want {
			t.Errorf("levelOf(n=%d, %d empty rows, %d nodes) = %v, want %v", tc.n, tc.empty, tc.nodes, got, tc.want)
		}
	}
}

func TestParseLevel(t *testing.T) {
	for _, tc := range []struct {
		name string
		want Level
	}{{"easy", Easy}, {"Medium", Medium}, {"HARD", Hard}} {
		if got, err := ParseLevel(tc.name); err != nil || got != tc.want || got.String() != levelNames[tc.want-1] {
			t.Errorf("ParseLevel(%q) = %v, %v, want %v", tc.name, got, err, tc.want)
		}
	}
	for _, name := range []string{"", "expert", "easy "} {
		if _, err := ParseLevel(name); err == nil || err.Error() != `unknown difficulty "`+name+`": must be one of easy, medium, hard` {
			t.Errorf("ParseLevel(%q): %v", name, err)
		}
	}
	if s := Level(0).String(); s != "Level(0)" {
		t.Errorf("Level(0).String() = %q", s)
	}
}

// TestOfLevel: the puzzles of a level are the draws of that level, in the
// order drawn, the same for a seed with any number of workers; a level
// that no draw has is an error after levelTries draws.
func TestOfLevel(t *testing.T) {
	ctx := context.Background()
	const n, seed, draws = 10, 5, 300
	opts := Options{Source: search(t, n, 1)}
	var all []Result
	for r, err := range Puzzles(ctx, n, draws, seed, opts, 2) {
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, r)
	}
	for _, l := range []Level{Easy, Medium, Hard} {
		var want []Result
		for _, r := range all {
			if r.Level == l {
				want = append(want, r)
			}
		}
		if len(want) == 0 {
			t.Fatalf("n=%d: no %v puzzle in %d draws", n, l, draws)
		}
		for _, workers := range []int{1, 3} {
			var got []Result
			for r, err := range OfLevel(Puzzles(ctx, n, draws, seed, opts, workers), n, l) {
				if err != nil {
					t.Fatal(err)
				}
				checkPuzzle(t, n, r, 0)
				got = append(got, r)
			}
			if !slices.Equal(got, want) {
				t.Errorf("n=%d %v, %d workers: %d puzzles, want the %d draws of that level", n, l, workers, len(got), len(want))
			}
		}
	}

	// n = 4: every minimal puzzle takes at most 7 nodes, under 8 × 7 <
	// 4³, so none is hard.
	var err error
	k := 0
	for _, e := range OfLevel(Puzzles(ctx, 4, LevelDraws(1), seed, Options{}, 2), 4, Hard) {
		err = e
		k++
	}
	want := "puzzle: n=4: no puzzle of that level: none of 10,000 draws is hard (hard puzzles of n=4 are too rare, or there are none: the levels' thresholds grow as n³)"
	if k != 1 || !errors.Is(err, errLevel) || err.Error() != want {
		t.Errorf("n=4 hard: %d yields, last %v, want the one error %q", k, err, want)
	}

	boom := errors.New("boom")
	for _, err := range OfLevel(func(yield func(Result, error) bool) { yield(Result{}, boom) }, 8, Easy) {
		if !errors.Is(err, boom) {
			t.Errorf("OfLevel passed on %v, want the source's error", err)
		}
	}
}

func TestLevelDraws(t *testing.T) {
	for _, tc := range []struct{ count, want int }{{1, 10_100}, {1000, 110_000}, {1 << 40, MaxCount}} {
		if got := LevelDraws(tc.count); got != tc.want {
			t.Errorf("LevelDraws(%d) = %d, want %d", tc.count, got, tc.want)
		}
	}
}
