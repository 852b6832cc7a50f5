// Package indexblock is the binary form of the blocks of a catalog's
// index (the index form of a build: see the store package): how a block's
// prefixes and their counts are written into its data, how the data is
// read back and checked, and the checksum that seals a block. It does no
// I/O: the store reads and writes the rows, this package turns them into
// blocks and back.
//
// A block is a header (its number, the number of its first prefix, how
// many prefixes it holds, the classes and solutions under the prefixes
// before it, its first prefix as text, its checksum) and its data: each
// prefix in turn, a byte saying how many leading rows it shares with the
// one before (0 for the first), a byte for each other row's column, then
// two unsigned LEB128 varints, its classes and 8 x classes - solutions
// (the solutions its symmetric classes lack, mostly 0).
//
// Decode never panics and never allocates more than the data's length
// justifies, whatever the header and data hold: every size read is
// bounded before it is used.
package indexblock

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"strings"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/enumerate"
)

// Header is what a block records besides its prefixes: a row of the
// catalog's index_blocks but its data.
type Header struct {
	N int
	// Block numbers the block from 0.
	Block int64
	// FirstEntry numbers the block's first prefix among the index's,
	// from 0; Entries is how many prefixes it holds.
	FirstEntry, Entries int64
	// ClassesBefore and SolutionsBefore are the classes and solutions
	// under the prefixes of the blocks before it.
	ClassesBefore, SolutionsBefore int64
	// Orbit4Before, Orbit2Before and Orbit1Before are the symmetric
	// classes among those, by orbit: the classes the index's list of
	// symmetric classes holds before the block.
	Orbit4Before, Orbit2Before, Orbit1Before int64
	// FirstPrefix is the first prefix as Key writes it.
	FirstPrefix string
	// Checksum seals the header and the data (Sum).
	Checksum int64
}

// Entry is one prefix of an index and the counts under it.
type Entry struct {
	Unit      enumerate.Unit
	Classes   uint64
	Solutions uint64
}

// Block is a decoded block: its header and its prefixes, in order.
type Block struct {
	Header
	Prefixes []Entry
}

// Fault is the error of a block that is not what an index promises: one
// whose checksum does not match, whose data does not decode, whose
// prefixes are out of order, or whose counts do not follow the block
// before or the build's.
type Fault struct {
	// Block is the block at fault, -1 for the index as a whole.
	Block int64
	// Problem says what is wrong: "records 120 classes before it, the
	// block before ends after 118".
	Problem string
}

// Error is the problem, with the block's number.
func (f *Fault) Error() string {
	if f.Block < 0 {
		return "index " + f.Problem
	}
	return fmt.Sprintf("index block %d %s", f.Block, f.Problem)
}

func fault(block int64, format string, args ...any) *Fault {
	return &Fault{Block: block, Problem: fmt.Sprintf(format, args...)}
}

// Key writes the prefix of u as base-32 digits, as a placement's key
// writes its columns: text order is the order of the prefixes.
func Key(u enumerate.Unit) string {
	var b strings.Builder
	for r := range u.Depth() {
		b.WriteString(nqueens.Square{Row: r, Col: u.Queen(r)}.KeyDigit())
	}
	return b.String()
}

// minEntryBytes is the fewest bytes an entry takes in a block's data: the
// count of rows it shares with the entry before, and two uvarints.
const minEntryBytes = 3

// maxCount bounds the classes and solutions a header or the prefixes of a
// block may record, so that no sum of them overflows: 2^62 is more than a
// million times the solutions of n = 27, the largest n counted.
const maxCount = 1 << 62

// maxPrefixClasses bounds the classes one prefix may record (2^56, more
// than all the classes of n = 27), so that 8 x classes cannot overflow.
const maxPrefixClasses = 1 << 56

// Encode returns a sealed block: h's numbers (N, Block, FirstEntry, the
// counts before it), with Entries, FirstPrefix and Checksum set for
// entries (at least one, each of n), and its data.
func Encode(h Header, entries []Entry) (Header, []byte) {
	data := appendEntries(nil, entries)
	h.Entries, h.FirstPrefix = int64(len(entries)), Key(entries[0].Unit)
	h.Checksum = Sum(h, data)
	return h, data
}

// appendEntries appends the encoding of entries to buf.
func appendEntries(buf []byte, entries []Entry) []byte {
	var prev enumerate.Unit
	for i, e := range entries {
		shared := 0
		if i > 0 {
			for shared < e.Unit.Depth() && e.Unit.Queen(shared) == prev.Queen(shared) {
				shared++
			}
		}
		buf = append(buf, byte(shared))
		for r := shared; r < e.Unit.Depth(); r++ {
			buf = append(buf, byte(e.Unit.Queen(r)))
		}
		buf = binary.AppendUvarint(buf, e.Classes)
		buf = binary.AppendUvarint(buf, 8*e.Classes-e.Solutions)
		prev = e.Unit
	}
	return buf
}

// castagnoli is the CRC-32C table.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Sum returns the checksum of a block: the CRC-32C of n, the header's
// numbers (each 8 bytes, little-endian, in the order of Header's fields),
// its first prefix (its length, then its bytes) and the data. A flipped bit anywhere in a block, a
// count moved between its prefixes, or a block's row given another
// block's number changes it. The header's Checksum is not summed.
func Sum(h Header, data []byte) int64 {
	var buf [10 * 8]byte
	b := buf[:0]
	for _, v := range []int64{int64(h.N), h.Block, h.FirstEntry, h.Entries, h.ClassesBefore, h.SolutionsBefore,
		h.Orbit4Before, h.Orbit2Before, h.Orbit1Before, int64(len(h.FirstPrefix))} {
		b = binary.LittleEndian.AppendUint64(b, uint64(v))
	}
	c := crc32.Update(0, castagnoli, b)
	c = crc32.Update(c, castagnoli, []byte(h.FirstPrefix))
	return int64(crc32.Update(c, castagnoli, data))
}

// SymmetricSum returns the checksum of a row of an index's list of
// symmetric classes: the CRC-32C of n, the class's number and orbit (each
// 8 bytes, little-endian) and its placement as stored. A row renumbered,
// moved to another class's place, or given another orbit or placement
// changes it.
func SymmetricSum(n int, class int64, placement string, orbit int64) int64 {
	var buf [3 * 8]byte
	b := buf[:0]
	for _, v := range []int64{int64(n), class, orbit} {
		b = binary.LittleEndian.AppendUint64(b, uint64(v))
	}
	c := crc32.Update(0, castagnoli, b)
	return int64(crc32.Update(c, castagnoli, []byte(placement)))
}

// Decode reads the block whose header is h and whose data is data, of an
// index whose prefixes fix depth rows, and checks what one block tells:
// with sealed, that its checksum matches (a catalog written before blocks
// had checksums has none to check); that n and depth can be; that its
// data holds the entries it records, prefixes of the board increasing from
// its first prefix, each with solutions that its classes can hold; and
// that its counts stay below 2^62. A fault is a *Fault.
func Decode(h Header, data []byte, depth int, sealed bool) (Block, error) {
	b := Block{Header: h}
	fail := func(format string, args ...any) (Block, error) {
		return Block{Header: h}, fault(h.Block, format, args...)
	}
	if sealed {
		if sum := Sum(h, data); sum != h.Checksum {
			return fail("does not match its checksum (%08x, its rows sum to %08x)", uint32(h.Checksum), uint32(sum))
		}
	}
	switch {
	case h.N < 1 || h.N > nqueens.MaxN:
		return fail("is of n=%d, which no board has", h.N)
	case depth < 1 || depth > min(h.N, enumerate.MaxDepth):
		return fail("has prefixes of %d rows, which a board of n=%d cannot have", depth, h.N)
	case h.Block < 0:
		return fail("is numbered below 0")
	case h.FirstEntry < 0 || h.Entries < 1 || h.ClassesBefore < 0 || h.SolutionsBefore < 0 ||
		h.ClassesBefore >= maxCount || h.SolutionsBefore >= maxCount:
		return fail("records %d prefixes from prefix %d, after %d classes and %d solutions, which cannot be", h.Entries, h.FirstEntry, h.ClassesBefore, h.SolutionsBefore)
	case h.Orbit4Before < 0 || h.Orbit2Before < 0 || h.Orbit1Before < 0 || h.Orbit4Before+h.Orbit2Before+h.Orbit1Before > h.ClassesBefore:
		return fail("records %d, %d and %d symmetric classes of orbit 4, 2 and 1 before it, among %d classes, which cannot be", h.Orbit4Before, h.Orbit2Before, h.Orbit1Before, h.ClassesBefore)
	case h.Entries > int64(len(data)/minEntryBytes):
		// A prefix takes 3 bytes of data at least: a block that records
		// more than its data can hold is refused before anything is
		// allocated for them.
		return fail("records %d prefixes, more than its %d bytes of data can hold", h.Entries, len(data))
	}
	b.Prefixes = make([]Entry, 0, h.Entries)
	var cols [enumerate.MaxDepth]uint8
	classesSum, solutionsSum := uint64(h.ClassesBefore), uint64(h.SolutionsBefore)
	for len(data) > 0 {
		i := len(b.Prefixes)
		if int64(i) == h.Entries {
			return fail("holds more than the %d prefixes it records", h.Entries)
		}
		shared := int(data[0])
		if shared > depth || (i == 0 && shared != 0) || len(data) < 1+depth-shared {
			return fail("does not decode: prefix %d", i)
		}
		for r := shared; r < depth; r++ {
			c := data[1+r-shared]
			if int(c) >= h.N {
				return fail("does not decode: prefix %d has a column %d", i, c)
			}
			cols[r] = c
		}
		data = data[1+depth-shared:]
		classes, k := uvarint(data)
		if k <= 0 {
			return fail("does not decode: prefix %d", i)
		}
		data = data[k:]
		missing, k := uvarint(data)
		if k <= 0 {
			return fail("does not decode: prefix %d", i)
		}
		data = data[k:]
		e := Entry{Unit: enumerate.NewUnit(h.N, cols[:depth]), Classes: classes}
		if classes > maxPrefixClasses || missing > 7*classes {
			return fail("prefix %d (%s) records %d classes, %d of whose solutions are missing, which cannot be", i, Key(e.Unit), classes, missing)
		}
		e.Solutions = 8*classes - missing
		if classesSum += classes; classesSum >= maxCount {
			return fail("records more than 2^62 classes by prefix %d", i)
		}
		if solutionsSum += e.Solutions; solutionsSum >= maxCount {
			return fail("records more than 2^62 solutions by prefix %d", i)
		}
		if i > 0 && shared == depth {
			return fail("prefix %d (%s) repeats the one before", i, Key(e.Unit))
		}
		// Rows shared with the prefix before are written once: a column
		// equal to the one before it is a count of shared rows too low.
		if i > 0 && e.Unit.Queen(shared) <= b.Prefixes[i-1].Unit.Queen(shared) {
			return fail("prefix %d (%s) is out of order", i, Key(e.Unit))
		}
		b.Prefixes = append(b.Prefixes, e)
	}
	if int64(len(b.Prefixes)) != h.Entries {
		return fail("records %d prefixes and holds %d", h.Entries, len(b.Prefixes))
	}
	if first := Key(b.Prefixes[0].Unit); first != h.FirstPrefix {
		return fail("records first prefix %s and begins with %s", h.FirstPrefix, first)
	}
	return b, nil
}

// uvarint reads an unsigned varint as binary.Uvarint does, and refuses
// (k = 0) one written in more bytes than it needs, so that a block's data
// has one encoding.
func uvarint(data []byte) (uint64, int) {
	v, k := binary.Uvarint(data)
	if k > 1 && data[k-1] == 0 {
		return 0, 0
	}
	return v, k
}

// Sums returns the classes and solutions under the block's prefixes.
func (b Block) Sums() (classes, solutions uint64) {
	for _, e := range b.Prefixes {
		classes += e.Classes
		solutions += e.Solutions
	}
	return classes, solutions
}

// End returns where the block ends: the number of the prefix after its
// last, and the classes and solutions under its prefixes and those before.
func (b Block) End() (entry int64, classes, solutions uint64) {
	c, s := b.Sums()
	return b.FirstEntry + int64(len(b.Prefixes)), uint64(b.ClassesBefore) + c, uint64(b.SolutionsBefore) + s
}

// LastKey returns the block's last prefix as Key writes it.
func (b Block) LastKey() string { return Key(b.Prefixes[len(b.Prefixes)-1].Unit) }

// Follows checks that the block whose header is next begins where b
// ends: its number after b's, its first prefix numbered next and after
// b's last, its counts before it b's end. It is the one check that a block
// follows another.
func (b Block) Follows(next Header) error {
	entry, classes, solutions := b.End()
	var problem string
	switch {
	case next.Block <= b.Block:
		problem = fmt.Sprintf("is followed by block %d", next.Block)
	case uint64(next.ClassesBefore) != classes:
		problem = fmt.Sprintf("ends after %d classes, block %d records %d before it: the counts are not increasing in turn", classes, next.Block, next.ClassesBefore)
	case uint64(next.SolutionsBefore) != solutions:
		problem = fmt.Sprintf("ends after %d solutions, block %d records %d before it: the counts are not increasing in turn", solutions, next.Block, next.SolutionsBefore)
	case next.FirstEntry != entry:
		problem = fmt.Sprintf("ends at prefix %d, block %d begins at prefix %d", entry, next.Block, next.FirstEntry)
	case next.FirstPrefix <= b.LastKey():
		problem = fmt.Sprintf("ends with prefix %s, block %d begins with %s: out of order", b.LastKey(), next.Block, next.FirstPrefix)
	default:
		return nil
	}
	return fault(b.Block, "%s", problem)
}

// Orbits checks that the symmetric classes counted after the block, o4,
// o2 and o1 of orbit 4, 2 and 1 (as the block after it, or the build,
// records them: whose says which), less those it records before it, lack
// the solutions its prefixes record them lacking: 4, 6 and 7 a class of
// orbit 4, 2 and 1.
func (b Block) Orbits(o4, o2, o1 int64, whose string) error {
	var want uint64
	for _, e := range b.Prefixes {
		want += 8*e.Classes - e.Solutions
	}
	d4, d2, d1 := o4-b.Orbit4Before, o2-b.Orbit2Before, o1-b.Orbit1Before
	if d4 < 0 || d2 < 0 || d1 < 0 || d4 > maxCount/8 || d2 > maxCount/8 || d1 > maxCount/8 || uint64(4*d4+6*d2+7*d1) != want {
		return fault(b.Block, "holds symmetric classes lacking %d solutions; %s %d, %d and %d of orbit 4, 2 and 1 after it, %d, %d and %d before it",
			want, whose, o4, o2, o1, b.Orbit4Before, b.Orbit2Before, b.Orbit1Before)
	}
	return nil
}

// First checks that b, the first block of an index, begins it: prefix 0,
// after no class.
func (b Block) First() error {
	if b.FirstEntry != 0 || b.ClassesBefore != 0 || b.SolutionsBefore != 0 || b.Orbit4Before != 0 || b.Orbit2Before != 0 || b.Orbit1Before != 0 {
		return fault(b.Block, "is the first and records prefix %d, %d classes and %d solutions before it", b.FirstEntry, b.ClassesBefore, b.SolutionsBefore)
	}
	return nil
}

// Last checks that b, the last block of a complete index, ends it where
// the build's counts say: after c.Unique classes and c.Total solutions,
// and, with orbits (a block that counts the symmetric classes before it),
// c.Orbit4, c.Orbit2 and c.Orbit1 symmetric classes (Orbits).
func (b Block) Last(c nqueens.Counts, orbits bool) error {
	_, classes, solutions := b.End()
	switch {
	case classes != c.Unique:
		return fault(b.Block, "ends the index after %d classes, the build records %d", classes, c.Unique)
	case solutions != c.Total:
		return fault(b.Block, "ends the index after %d solutions, the build records %d", solutions, c.Total)
	case !orbits:
		return nil
	case c.Orbit4 >= maxCount || c.Orbit2 >= maxCount || c.Orbit1 >= maxCount:
		return fault(b.Block, "ends an index whose build records %d, %d and %d symmetric classes, which cannot be", c.Orbit4, c.Orbit2, c.Orbit1)
	}
	return b.Orbits(int64(c.Orbit4), int64(c.Orbit2), int64(c.Orbit1), "the build records")
}
