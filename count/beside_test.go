package count

import (
	"context"
	"testing"

	"github.com/nqueens/nqueens"
)

// waitingEngine is an Engine other than CPU that, before it reports the
// CPU's solutions, waits for the symmetric search beside it to end.
type waitingEngine struct{ t *testing.T }

func (w waitingEngine) Name() string   { return "waiting" }
func (w waitingEngine) Device() string { return "the CPU, once the symmetric search is done" }

func (w waitingEngine) Search(ctx context.Context, cs []Constellation, found func(int, uint64)) error {
	v, ok := beside.Load(cs[0].N())
	if !ok {
		w.t.Fatal("no symmetric search beside the engine's")
	}
	<-v.(*symmetricBeside).done
	return CPU{}.Search(ctx, cs, found)
}

// TestSymmetricBeside checks that a search by an engine other than the
// CPU counts the symmetric solutions of a whole board beside it, which
// TallyTotal then takes, and that a shard's search leaves none.
func TestSymmetricBeside(t *testing.T) {
	const n = 11
	ctx := context.Background()
	c, err := Board(ctx, n, Options{Engine: waitingEngine{t}})
	if err != nil {
		t.Fatal(err)
	}
	if k, _ := nqueens.KnownCounts(n); c.Total != k.Total || c.Unique != k.Unique {
		t.Fatalf("n=%d: %+v, want %+v", n, c, k)
	}
	if _, ok := beside.Load(n); ok {
		t.Fatal("TallyTotal left the symmetric counts beside")
	}
	// A shard: the search beside finds it is not the whole board, and
	// TallyTotal searches on its own.
	cs := Constellations(n)
	if _, err := (Options{Engine: waitingEngine{t}}).Search(ctx, cs[:len(cs)/2]); err != nil {
		t.Fatal(err)
	}
	v, _ := beside.Load(n)
	if b := v.(*symmetricBeside); b.err == nil {
		t.Fatal("the search beside a shard counted the symmetric solutions")
	}
	if c, err := TallyTotal(ctx, n, 2680, 0); err != nil || c.Unique != 341 {
		t.Fatalf("TallyTotal after a shard: %+v, %v", c, err)
	}
}
