package estimate_test

import (
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
