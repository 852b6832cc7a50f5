package export

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
)

func TestTextGolden(t *testing.T) {
	for _, n := range []int{1, 4, 6, 8} {
		for _, ascii := range []bool{false, true} {
			name := "text-" + strings.Repeat("ascii-", boolInt(ascii)) + itoa(n)
			t.Run(name, func(t *testing.T) {
				ls := layouts(n, false)
				var buf bytes.Buffer
				w := NewText(&buf)
				w.ASCII, w.Classes = ascii, uint64(len(ls))
				for _, l := range ls {
					if err := w.Write(l); err != nil {
						t.Fatal(err)
					}
				}
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				golden(t, name, buf.Bytes())
			})
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestTextWithoutClasses(t *testing.T) {
	var buf bytes.Buffer
	w := NewText(&buf)
	w.ASCII = true
	l := nqueens.Layout{Class: 3, Placement: nqueens.MustNew(1, 3, 0, 2), Symmetry: nqueens.SymRot90}
	if err := w.Write(l); err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(buf.String(), "\n"); first != "n=4 class 3: 1 3 0 2" {
		t.Errorf("heading %q", first)
	}
	if err := NewText(&failWriter{limit: 10}).Write(l); err != errFull {
		t.Errorf("Write to a full disk: %v", err)
	}
}

func ExampleNewText() {
	l := nqueens.Layout{Class: 1, Placement: nqueens.MustNew(1, 3, 0, 2), Symmetry: nqueens.SymRot90}
	w := NewText(os.Stdout)
	w.Classes = 1
	w.Write(l)
	w.ASCII = true
	w.Write(l)
	if err := w.Close(); err != nil {
		panic(err)
	}
	// Output:
	// n=4 class 1 of 1: 1 3 0 2
	// orbit 2, symmetric under the quarter turn (90°)
	// ┌───┬───┬───┬───┐
	// │   │ ♛ │   │   │
	// ├───┼───┼───┼───┤
	// │   │   │   │ ♛ │
	// ├───┼───┼───┼───┤
	// │ ♛ │   │   │   │
	// ├───┼───┼───┼───┤
	// │   │   │ ♛ │   │
	// └───┴───┴───┴───┘
	//
	// n=4 class 1 of 1: 1 3 0 2
	// orbit 2, symmetric under the quarter turn (90°)
	// . Q . .
	// . . . Q
	// Q . . .
	// . . Q .
}
