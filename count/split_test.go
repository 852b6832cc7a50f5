package count_test

import (
	"fmt"

	"github.com/nqueens/nqueens/count"
)

// ExampleDigest names the first three of the 78 constellations of n = 8:
// a part or a state of another list of constellations has another name.
func ExampleDigest() {
	cs := count.Constellations(8)
	fmt.Println(len(cs), count.Digest(cs[:3])[:23])
	// Output: 78 sha256:1a5e13d01bfecaa8
}
