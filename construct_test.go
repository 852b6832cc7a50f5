package nqueens_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/nqueens/nqueens"
)

func TestConstructIsValid(t *testing.T) {
	ns := []int{1}
	for n := 4; n <= 300; n++ {
		ns = append(ns, n)
	}
	ns = append(ns, 1000, 1001, 1002, 1003, 1004, 1005, 999_999, 1_000_003, nqueens.MaxConstructN)
	for _, n := range ns {
		cols, err := nqueens.Construct(n)
		if err != nil {
			t.Fatalf("Construct(%d): %v", n, err)
		}
		if len(cols) != n {
			t.Fatalf("Construct(%d) has %d rows", n, len(cols))
		}
		if err := nqueens.CheckColumns(cols); err != nil {
			t.Errorf("Construct(%d) (n mod 6 = %d): %v", n, n%6, err)
		}
	}
}

func TestConstructSmallBoards(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want []int32
	}{
		{1, []int32{0}},
		{4, []int32{1, 3, 0, 2}},
		{6, []int32{1, 3, 5, 0, 2, 4}},
		{8, []int32{1, 3, 5, 7, 2, 0, 6, 4}},
		{9, []int32{3, 5, 7, 1, 4, 6, 8, 0, 2}},
	} {
		got, err := nqueens.Construct(tt.n)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("Construct(%d) = %v, %v; want %v", tt.n, got, err, tt.want)
		}
	}
}

func TestConstructRefuses(t *testing.T) {
	for _, n := range []int{2, 3} {
		if _, err := nqueens.Construct(n); !errors.Is(err, nqueens.ErrNoSolution) {
			t.Errorf("Construct(%d): %v, want ErrNoSolution", n, err)
		}
	}
	for _, n := range []int{0, -1, nqueens.MaxConstructN + 1} {
		if _, err := nqueens.Construct(n); err == nil {
			t.Errorf("Construct(%d) succeeded", n)
		}
	}
}

func TestCheckColumnsFindsConflicts(t *testing.T) {
	for _, tt := range []struct {
		cols []int32
		want string
	}{
		{[]int32{0, 1}, "row 1: the queen in column 1 shares an anti-diagonal"},
		{[]int32{1, 0}, "row 1: the queen in column 0 shares a diagonal"},
		{[]int32{1, 3, 0, 1}, "row 3: column 1 is taken"},
		{[]int32{1, 3, 0, 4}, "row 3: column 4 is off the board of 4"},
		{[]int32{-1}, "row 0: column -1 is off the board"},
		{nil, "no rows"},
	} {
		err := nqueens.CheckColumns(tt.cols)
		if err == nil || len(err.Error()) < len(tt.want) || err.Error()[:len(tt.want)] != tt.want {
			t.Errorf("CheckColumns(%v) = %v, want %q...", tt.cols, err, tt.want)
		}
	}
}

func ExampleConstruct() {
	cols, _ := nqueens.Construct(8)
	fmt.Println(cols)
	// Output: [1 3 5 7 2 0 6 4]
}

func BenchmarkConstruct(b *testing.B) {
	for b.Loop() {
		nqueens.Construct(1_000_000)
	}
}
