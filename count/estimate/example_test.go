package estimate_test

import (
	"context"
	"fmt"

	"github.com/nqueens/nqueens/count/estimate"
)

func ExampleResult_String() {
	e := estimate.Rate{Workers: 2, Cores: 2, PerSecond: 1e7}.For(20)
	fmt.Println(e.Long())
	fmt.Println(e.Time())
	// Output:
	// true
	// about 10 hours on 2 cores
}

func ExampleMinRate() {
	e := estimate.MinRate(1).For(12)
	fmt.Println(e.Long())
	// Output: false
}

// An Estimator answers whether a count is long, measuring the machine's
// rate only for a count that could be: here the rate is known already.
func ExampleEstimator_Long() {
	e := estimate.Estimator{Workers: 2, Measured: &estimate.Rate{Workers: 2, Cores: 2, PerSecond: 1e7}}
	for _, n := range []int{16, 20} {
		est, long, err := e.Long(context.Background(), n, false)
		fmt.Println(n, long, err)
		if long {
			fmt.Println(est.Time())
		}
	}
	// Output:
	// 16 false <nil>
	// 20 true <nil>
	// about 10 hours on 2 cores
}
