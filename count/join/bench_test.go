package join

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkTotal counts n = 14 and 16 by the join on one goroutine, with
// the wide sieve where the processor has it and block by block:
//
//	go test -run '^$' -bench Total -count 6 ./count/join
func BenchmarkTotal(b *testing.B) {
	have := hasWide
	defer func() { hasWide = have }()
	for _, wide := range []bool{false, true} {
		if wide && !have {
			continue
		}
		for _, n := range []int{14, 16} {
			name := fmt.Sprintf("n=%d/blocks", n)
			if wide {
				name = fmt.Sprintf("n=%d/wide", n)
			}
			b.Run(name, func(b *testing.B) {
				hasWide = wide
				for b.Loop() {
					if _, err := total(context.Background(), n, 1); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
