package estimate_test

import (
	"context"
	"fmt"

	"github.com/nqueens/nqueens/count/estimate"
)

func ExampleResult_String() {
	e := estimate.Rate{Workers: 2, Cores: 2, PerSecond: 1e7}.For(20)
	fmt.Println(e.Long())
	fmt.Println(e)
	fmt.Println(estimate.Rate{Workers: 1, Cores: 1, PerSecond: 1e7}.For(12))
	// Output:
	// true
	// about 10 h on 2 cores (3.7e11 nodes)
	// under 0.1 s on 1 core (94,785 nodes)
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
	// about 10 h on 2 cores
}
