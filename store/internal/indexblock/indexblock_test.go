package indexblock_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/enumerate"
	"github.com/nqueens/nqueens/store/internal/indexblock"
)

// entries returns the prefixes of depth rows of n, from the first, with
// made-up counts: classes i+1, and a few symmetric solutions missing.
func entries(n, depth, count int) []indexblock.Entry {
	var out []indexblock.Entry
	for _, u := range enumerate.UnitsWhere(n, depth, nil) {
		if len(out) == count {
			break
		}
		c := uint64(len(out) + 1)
		out = append(out, indexblock.Entry{Unit: u, Classes: c, Solutions: 8*c - uint64(len(out)%3)*2})
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	for _, tt := range []struct{ n, depth, count int }{{4, 1, 1}, {8, 2, 10}, {12, 3, 64}, {20, 5, 300}} {
		es := entries(tt.n, tt.depth, tt.count)
		h, data := indexblock.Encode(indexblock.Header{N: tt.n, Block: 7, FirstEntry: 100, ClassesBefore: 1000, SolutionsBefore: 7990, Orbit4Before: 3}, es)
		b, err := indexblock.Decode(h, data, tt.depth, true)
		if err != nil {
			t.Fatalf("n=%d: %v", tt.n, err)
		}
		if !reflect.DeepEqual(b.Prefixes, es) || b.Header != h {
			t.Errorf("n=%d: decoded %+v, want %+v", tt.n, b, es)
		}
		entry, classes, solutions := b.End()
		var c, s uint64
		for _, e := range es {
			c += e.Classes
			s += e.Solutions
		}
		if entry != 100+int64(len(es)) || classes != 1000+c || solutions != 7990+s {
			t.Errorf("n=%d: End() = %d, %d, %d", tt.n, entry, classes, solutions)
		}
	}
}

// TestDecodeRefuses changes one field or byte of a sealed block at a time:
// every change is refused as a *Fault, sealed by its checksum, and unsealed
// by what the block itself tells where it can.
func TestDecodeRefuses(t *testing.T) {
	es := entries(12, 3, 20)
	h, data := indexblock.Encode(indexblock.Header{N: 12, Block: 3, FirstEntry: 40, ClassesBefore: 500, SolutionsBefore: 3990, Orbit4Before: 2, Orbit2Before: 1}, es)
	for _, tt := range []struct {
		name   string
		change func(h *indexblock.Header, data []byte) []byte
		// unsealed is whether Decode without the checksum refuses it too.
		unsealed bool
	}{
		{"entries 10^12", func(h *indexblock.Header, d []byte) []byte { h.Entries = 1e12; return d }, true},
		{"entries 2^63-1", func(h *indexblock.Header, d []byte) []byte { h.Entries = 1<<63 - 1; return d }, true},
		{"entries one more", func(h *indexblock.Header, d []byte) []byte { h.Entries++; return d }, true},
		{"classes before", func(h *indexblock.Header, d []byte) []byte { h.ClassesBefore++; return d }, false},
		{"classes before 2^63-1", func(h *indexblock.Header, d []byte) []byte { h.ClassesBefore = 1<<63 - 1; return d }, true},
		{"orbit 4 before", func(h *indexblock.Header, d []byte) []byte { h.Orbit4Before++; return d }, false},
		{"orbits before more than the classes", func(h *indexblock.Header, d []byte) []byte { h.Orbit2Before = 600; return d }, true},
		{"block -1", func(h *indexblock.Header, d []byte) []byte { h.Block = -1; return d }, true},
		{"block number", func(h *indexblock.Header, d []byte) []byte { h.Block++; return d }, false},
		{"first prefix", func(h *indexblock.Header, d []byte) []byte { h.FirstPrefix = "000"; return d }, true},
		{"n", func(h *indexblock.Header, d []byte) []byte { h.N = 200; return d }, true},
		{"data cut", func(h *indexblock.Header, d []byte) []byte { return d[:len(d)-1] }, true},
		{"a count moved", func(h *indexblock.Header, d []byte) []byte {
			// The last prefix's classes (20) one less, the one before one more.
			d[len(d)-2]--
			return d
		}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h2 := h
			d2 := tt.change(&h2, append([]byte(nil), data...))
			for _, sealed := range []bool{true, false} {
				_, err := indexblock.Decode(h2, d2, 3, sealed)
				var f *indexblock.Fault
				switch {
				case err == nil && (sealed || tt.unsealed):
					t.Errorf("sealed=%v: decoded with no error", sealed)
				case err != nil && !errors.As(err, &f):
					t.Errorf("sealed=%v: %v is no *Fault", sealed, err)
				case err != nil && f.Block != h2.Block:
					t.Errorf("sealed=%v: %v names block %d", sealed, err, f.Block)
				}
			}
		})
	}
}

func TestFollows(t *testing.T) {
	es := entries(10, 2, 30)
	h0, d0 := indexblock.Encode(indexblock.Header{N: 10}, es[:10])
	b0, err := indexblock.Decode(h0, d0, 2, true)
	if err != nil {
		t.Fatal(err)
	}
	_, c, s := b0.End()
	// entries' first 10 prefixes lack 0, 2, 4, 0, 2, 4, ... solutions: 18
	// in all, 3 classes of orbit 4 and 1 of orbit 2.
	h1, _ := indexblock.Encode(indexblock.Header{N: 10, Block: 1, FirstEntry: 10, ClassesBefore: int64(c), SolutionsBefore: int64(s), Orbit4Before: 3, Orbit2Before: 1}, es[10:])
	if err := b0.First(); err != nil {
		t.Errorf("First: %v", err)
	}
	if err := b0.Follows(h1); err != nil {
		t.Errorf("Follows: %v", err)
	}
	if err := b0.Orbits(h1.Orbit4Before, h1.Orbit2Before, h1.Orbit1Before, "block 1 records"); err != nil {
		t.Errorf("Orbits: %v", err)
	}
	end := nqueens.Counts{Unique: c, Total: s, Orbit4: 3, Orbit2: 1}
	if err := b0.Last(end, true); err != nil {
		t.Errorf("Last: %v", err)
	}
	for name, change := range map[string]func(*indexblock.Header){
		"classes":   func(h *indexblock.Header) { h.ClassesBefore++ },
		"solutions": func(h *indexblock.Header) { h.SolutionsBefore-- },
		"entry":     func(h *indexblock.Header) { h.FirstEntry++ },
		"block":     func(h *indexblock.Header) { h.Block = 0 },
		"prefix":    func(h *indexblock.Header) { h.FirstPrefix = "00" },
		"orbits":    func(h *indexblock.Header) { h.Orbit4Before = 1 },
	} {
		h := h1
		change(&h)
		if b0.Follows(h) == nil && b0.Orbits(h.Orbit4Before, h.Orbit2Before, h.Orbit1Before, "block 1 records") == nil {
			t.Errorf("%s changed: follows", name)
		}
	}
	for _, other := range []nqueens.Counts{{Unique: c + 1, Total: s, Orbit4: 3, Orbit2: 1}, {Unique: c, Total: s + 1, Orbit4: 3, Orbit2: 1}, {Unique: c, Total: s, Orbit4: 4}} {
		if b0.Last(other, true) == nil {
			t.Errorf("Last accepts %+v", other)
		}
	}
}

// FuzzDecode checks that Decode never panics, never allocates prefixes
// that its data cannot hold, and gives back what Encode wrote.
func FuzzDecode(f *testing.F) {
	for _, n := range []int{4, 9, 14} {
		es := entries(n, 2, 12)
		h, data := indexblock.Encode(indexblock.Header{N: n, Block: 1, FirstEntry: 5, ClassesBefore: 60, SolutionsBefore: 470}, es)
		f.Add(h.N, h.Block, h.FirstEntry, h.Entries, h.ClassesBefore, h.SolutionsBefore, h.FirstPrefix, data, 2)
	}
	f.Add(8, int64(0), int64(0), int64(1e12), int64(0), int64(0), "0", []byte{0, 1, 2, 3}, 2)
	f.Fuzz(func(t *testing.T, n int, block, first, count, cb, sb int64, key string, data []byte, depth int) {
		h := indexblock.Header{N: n, Block: block, FirstEntry: first, Entries: count, ClassesBefore: cb, SolutionsBefore: sb, FirstPrefix: key}
		b, err := indexblock.Decode(h, data, depth, false)
		if err != nil {
			return
		}
		if int64(len(b.Prefixes)) != count || cap(b.Prefixes) > len(data)/3 {
			t.Fatalf("decoded %d prefixes (capacity %d) of %d bytes", len(b.Prefixes), cap(b.Prefixes), len(data))
		}
		// What decodes encodes to the same bytes, sealed, and decodes again.
		h2, data2 := indexblock.Encode(h, b.Prefixes)
		if string(data2) != string(data) {
			t.Fatalf("re-encoded %x, decoded from %x", data2, data)
		}
		b2, err := indexblock.Decode(h2, data2, depth, true)
		if err != nil || !reflect.DeepEqual(b2.Prefixes, b.Prefixes) {
			t.Fatalf("round trip: %v", err)
		}
	})
}
