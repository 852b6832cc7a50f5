// Package parts is the protocol of count parts: a count of one shard of a
// board's work units, its constellations or the units of the join
// (Make), written as one line of JSON by count
// --shard, read back strictly (Read), and added up with the other shards
// of the board (Combine), which checks that they are its K shards, each
// once, as this version splits the board, and derives the classes.
package parts

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/balance"
	"github.com/nqueens/nqueens/internal/phrase"
)

// Part is the count of one shard of a board, as count --shard prints it:
// one JSON object with these keys, in this order. A shard's classes are
// not whole (a class's solutions lie in several constellations), so a
// part holds solutions only and Combine derives the classes of the whole
// board.
type Part struct {
	N          int `json:"n"`
	Shards     int `json:"shards"`
	Shard      int `json:"shard"`
	UnitsTotal int `json:"units_total"`
	// Units is how many work units (constellations, or units of the
	// join) the shard covered, UnitsDigest their digest (count.Units),
	// which Combine checks against the split it computes, keeping the
	// part small.
	Units       int    `json:"units"`
	UnitsDigest string `json:"units_digest"`
	// Total is the number of solutions in the orbits of the shard's
	// constellations.
	Total uint64 `json:"total"`
	// Seconds is the wall time of the whole run, SearchSeconds that of the
	// search alone, without splitting the work into shards.
	Seconds       float64 `json:"seconds"`
	SearchSeconds float64 `json:"search_seconds"`
}

// maxSize is the largest part Read reads, in bytes: a part is one
// short line, so a larger input is none.
const maxSize = 1 << 20

// Errors of Read and Make that callers branch on, with errors.Is.
var (
	// ErrOtherVersion is wrapped by Read's error for a key this
	// version's parts do not have, as parts of older versions carry.
	ErrOtherVersion = errors.New("unknown field")
	// ErrMoreThanOne is Read's error for data that holds more than a
	// part.
	ErrMoreThanOne = errors.New("more than one part")
	// ErrOutOfRange is matched by Read's error for a part whose n or
	// shard cannot be: n outside 1..nqueens.MaxN, or not 0 <= I < K.
	ErrOutOfRange = errors.New("out of range")
	// ErrAltered is matched by Combine's error for parts whose numbers
	// cannot be right although their split is: a total was altered.
	ErrAltered = errors.New("altered part")
)

// marked is an error that reads as err and matches kind too.
type marked struct{ err, kind error }

func (m marked) Error() string   { return m.err.Error() }
func (m marked) Unwrap() []error { return []error{m.err, m.kind} }

// Make counts shard s of the constellations of a board of n, split by
// their cost (count.Constellation.Cost), as count.Board does the whole
// board, with o's engine, hooks and keeper (count.Options.Search), and
// returns its part, timed: the same part whichever engine of
// constellations counts. With o.By count.ByJoin it counts shard s of the
// join's units instead, which cost about the same each
// (count.Options.SearchJoin), and its part combines only with the join's
// parts; count.ByClasses, which counts whole boards only, is an error
// before anything is counted. It ends
// o's keeper (count.Options.End) once the part is made or the count
// failed. It returns an error matching nqueens.ErrNoShard if there is no
// such shard; the others name the shard and are worded by the keeper's
// End: one that reads "interrupted" and matches ctx.Err() if ctx is
// cancelled first, one matching count.ErrOverflow if its total does not
// fit in 64 bits.
func Make(ctx context.Context, n int, s nqueens.Shard, o count.Options) (Part, error) {
	start := time.Now()
	var units count.Units
	var search func() (uint64, error)
	var idx []int
	switch o.By {
	case count.ByClasses:
		return Part{}, fmt.Errorf("n=%d shard %s: the class search counts whole boards, not shards", n, s)
	case count.ByJoin:
		all := count.JoinUnitsOf(n)
		var err error
		if _, idx, err = balance.Shard(all.Of, s, sameCost); err != nil {
			return Part{}, fmt.Errorf("n=%d: %w of the join (by constellations, --engine cpu, it has %d)", n, err, len(count.Constellations(n)))
		}
		u := count.JoinUnits{N: n, Total: all.Total, Of: idx}
		units, search = u, func() (uint64, error) { return o.SearchJoin(ctx, u) }
	default:
		cs, i, err := balance.Shard(count.Constellations(n), s, count.Constellation.Cost)
		if err != nil {
			return Part{}, fmt.Errorf("n=%d: %w", n, err)
		}
		idx = i
		units, search = count.ConstellationUnits(cs), func() (uint64, error) { return o.Search(ctx, cs) }
	}
	begun := time.Now()
	total, err := search()
	if ctx.Err() != nil {
		err = count.Interrupted(ctx.Err())
	}
	if err = o.End(err); err != nil {
		return Part{}, fmt.Errorf("n=%d shard %s: %w", n, s, err)
	}
	return Part{N: n, Shards: s.Count, Shard: s.Index, UnitsTotal: unitsTotal(n, units),
		Units: len(idx), UnitsDigest: units.Digest(), Total: total,
		Seconds: time.Since(start).Seconds(), SearchSeconds: time.Since(begun).Seconds()}, nil
}

// sameCost is the cost of a unit of the join: each costs about the same.
func sameCost(int) uint64 { return 1 }

// unitsTotal returns the number of work units of the whole board of n
// that u is a shard of.
func unitsTotal(n int, u count.Units) int {
	if ju, ok := u.(count.JoinUnits); ok {
		return ju.Total
	}
	return len(count.Constellations(n))
}

// split returns the units of each of k shards of the board of n, cut as
// the parts whose digest is digest were (count.IsJoinDigest): the digest
// of each shard's units, and how many units the whole board has.
func split(n, k int, digest string) (digests []string, counts []int, total int, err error) {
	if count.IsJoinDigest(digest) {
		all := count.JoinUnitsOf(n)
		shards, err := balance.Split(all.Of, k, sameCost)
		if err != nil {
			return nil, nil, 0, err
		}
		for _, idx := range shards {
			digests = append(digests, count.JoinUnits{N: n, Total: all.Total, Of: idx}.Digest())
			counts = append(counts, len(idx))
		}
		return digests, counts, all.Total, nil
	}
	cs := count.Constellations(n)
	shards, err := balance.Split(cs, k, count.Constellation.Cost)
	if err != nil {
		return nil, nil, 0, err
	}
	for _, idx := range shards {
		digests = append(digests, count.Digest(pick(cs, idx)))
		counts = append(counts, len(idx))
	}
	return digests, counts, len(cs), nil
}

// Read decodes data, which must hold exactly one part, strictly: a
// JSON object with every key of Part exactly once, spelled exactly, and
// no other; whole numbers in range for the counts (no 1e3, no -1, no
// 1.5); a string for the digest; numbers of seconds of 0 or more; at most
// MaxSize bytes. The error names the key at fault. One for a key it
// does not know wraps ErrOtherVersion; data with more after the part is
// ErrMoreThanOne; a part whose n or shard cannot be matches ErrOutOfRange.
func Read(data []byte) (Part, error) {
	if len(data) > maxSize {
		return Part{}, fmt.Errorf("larger than %d bytes", maxSize)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	p, err := decodePart(dec)
	switch {
	case err != nil:
		return p, err
	case dec.More() || len(bytes.TrimSpace(data[dec.InputOffset():])) > 0:
		return p, ErrMoreThanOne
	case nqueens.CheckN(p.N) != nil || p.Shards < 1 || p.Shards > nqueens.MaxShards || p.Shard >= p.Shards:
		return p, marked{fmt.Errorf("n=%d shard %d/%d is out of range", p.N, p.Shard, p.Shards), ErrOutOfRange}
	}
	return p, nil
}

// partKey is a key of a part and where decodePart stores its value: an
// *int, *uint64, *float64 or *string.
type partKey struct {
	name string
	to   any
}

// decodePart decodes one part from the start of dec, as Read
// describes.
func decodePart(dec *json.Decoder) (Part, error) {
	var p Part
	keys := []partKey{
		{"n", &p.N}, {"shards", &p.Shards}, {"shard", &p.Shard}, {"units_total", &p.UnitsTotal},
		{"units", &p.Units}, {"units_digest", &p.UnitsDigest}, {"total", &p.Total},
		{"seconds", &p.Seconds}, {"search_seconds", &p.SearchSeconds},
	}
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil {
		return p, jsonError(err)
	} else if tok != json.Delim('{') {
		return p, fmt.Errorf("want a JSON object, got %s", tokenText(tok))
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return p, jsonError(err)
		}
		name := tok.(string) // an object's keys are strings
		i := slices.IndexFunc(keys, func(k partKey) bool { return k.name == name })
		if i < 0 {
			for _, k := range keys {
				if strings.EqualFold(k.name, name) {
					return p, fmt.Errorf("unknown key %s (did you mean %q?)", phrase.Quote(name), k.name)
				}
			}
			return p, fmt.Errorf("%w %s", ErrOtherVersion, phrase.Quote(name))
		}
		if seen[name] {
			return p, fmt.Errorf("key %q given twice", name)
		}
		seen[name] = true
		if tok, err = dec.Token(); err != nil {
			return p, jsonError(err)
		}
		if err := setValue(keys[i].to, tok); err != nil {
			return p, fmt.Errorf("%q: %s: %w", name, tokenText(tok), err)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return p, jsonError(err)
	}
	for _, k := range keys {
		if !seen[k.name] {
			return p, fmt.Errorf("key %q missing", k.name)
		}
	}
	return p, nil
}

// setValue stores the JSON value tok into to.
func setValue(to any, tok json.Token) error {
	num, isNum := tok.(json.Number)
	switch to := to.(type) {
	case *string:
		s, ok := tok.(string)
		if !ok {
			return errors.New("want a string")
		}
		*to = s
	case *int:
		n, err := strconv.ParseInt(string(num), 10, 0)
		if !isNum || err != nil || n < 0 {
			return fmt.Errorf("want a whole number from 0 to %d", math.MaxInt)
		}
		*to = int(n)
	case *uint64:
		n, err := strconv.ParseUint(string(num), 10, 64)
		if !isNum || err != nil {
			return fmt.Errorf("want a whole number from 0 to %d", uint64(math.MaxUint64))
		}
		*to = n
	case *float64:
		f, err := strconv.ParseFloat(string(num), 64)
		if !isNum || err != nil || f < 0 || math.IsInf(f, 0) {
			return errors.New("want a number of seconds, 0 or more")
		}
		*to = f
	}
	return nil
}

// tokenText writes a JSON token for a message.
func tokenText(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			return "an object"
		}
		return "a list"
	case string:
		return phrase.Quote(t)
	case json.Number:
		if len(t) > 40 {
			return string(t[:40]) + "..."
		}
		return string(t)
	case nil:
		return "null"
	}
	return fmt.Sprint(tok)
}

// jsonError words an error of json.Decoder.Token.
func jsonError(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// Combine returns the result of a board from parts, the K parts of its
// shards as Read reads them; names[i] names parts[i] in errors (a
// file, say). It checks that they are the K shards of one n, each exactly
// once, covering the constellations this version's split gives each (or
// they come from another version, and may overlap or leave gaps); then it
// adds their totals and derives the classes (TallyTotal, on workers
// goroutines). The result's seconds are those of the parts and of the
// derivation. It returns ctx.Err() if ctx is cancelled first, and an
// error matching ErrAltered if the split checks out but the totals cannot
// be a board's: a sum past 2^64, or solutions that cannot form whole
// classes.
func Combine(ctx context.Context, parts []Part, names []string, workers int) (count.Result, error) {
	if len(parts) == 0 {
		return count.Result{}, errors.New("no parts")
	}
	first := parts[0]
	seen := map[int]string{}
	for i, p := range parts {
		switch {
		case p.N != first.N:
			return count.Result{}, fmt.Errorf("%s counts n=%d, %s n=%d", names[i], p.N, names[0], first.N)
		case p.Shards != first.Shards:
			return count.Result{}, fmt.Errorf("%s is shard %d/%d, %s one of %d shards", names[i], p.Shard, p.Shards, names[0], first.Shards)
		}
		if prev, dup := seen[p.Shard]; dup {
			return count.Result{}, fmt.Errorf("shard %d/%d given twice: %s and %s", p.Shard, p.Shards, prev, names[i])
		}
		seen[p.Shard] = names[i]
	}
	if missing := phrase.MissingShards(first.Shards, func(i int) bool { _, ok := seen[i]; return ok }); missing != "" {
		return count.Result{}, fmt.Errorf("n=%d: shards %s of %d missing", first.N, missing, first.Shards)
	}
	// The totals first: no work unit needs listing to see that one was
	// altered.
	var total uint64
	known, isKnown := nqueens.KnownCounts(first.N)
	for i, p := range parts {
		if isKnown && p.Total > known.Total {
			return count.Result{}, marked{fmt.Errorf("n=%d: %s: \"total\" %d is more than the %s of the whole board (OEIS A000170): was the part altered?",
				first.N, names[i], p.Total, phrase.Plural(known.Total, "solution")), ErrAltered}
		}
		var carry uint64
		if total, carry = bits.Add64(total, p.Total, 0); carry != 0 {
			// No board counted here has 2^64 solutions: a total was
			// altered, and the largest is the one to doubt, not the part
			// whose turn it was to be added.
			big := 0
			for j := range parts {
				if parts[j].Total > parts[big].Total {
					big = j
				}
			}
			return count.Result{}, marked{fmt.Errorf("n=%d: %s: \"total\" %d, the largest of the parts, takes their sum past %d: was the part altered?",
				first.N, names[big], parts[big].Total, uint64(math.MaxUint64)), ErrAltered}
		}
	}
	for i, p := range parts {
		if count.IsJoinDigest(p.UnitsDigest) != count.IsJoinDigest(first.UnitsDigest) {
			return count.Result{}, fmt.Errorf("%s and %s were counted by different engines (one by the join, one by constellations): count every shard with one --engine, join or cpu", names[0], names[i])
		}
	}
	digests, units, all, err := split(first.N, first.Shards, first.UnitsDigest)
	if err != nil {
		return count.Result{}, fmt.Errorf("n=%d: %w", first.N, err)
	}
	out := count.Result{N: first.N}
	for i, p := range parts {
		out.Seconds += p.Seconds
		if p.UnitsTotal != all || p.Units != units[p.Shard] || p.UnitsDigest != digests[p.Shard] {
			return count.Result{}, fmt.Errorf("%s: shard %d/%d covers other work units than this nqueens splits n=%d into (%s units): made by another version?",
				names[i], p.Shard, p.Shards, p.N, phrase.Count(all))
		}
	}
	start := time.Now()
	c, err := count.TallyTotal(ctx, first.N, total, workers)
	switch {
	case ctx.Err() != nil:
		return count.Result{}, ctx.Err()
	case err != nil:
		// The split checked out, so a part's total was altered.
		return count.Result{}, marked{fmt.Errorf("n=%d: the %d shards add up to %s, which cannot form whole classes: was a part altered? (%v)",
			first.N, first.Shards, phrase.Plural(total, "solution"), err), ErrAltered}
	}
	out.Counts, out.Seconds = c, out.Seconds+time.Since(start).Seconds()
	return out, nil
}

// pick returns the constellations of cs at the indexes idx, in order.
func pick(cs []count.Constellation, idx []int) []count.Constellation {
	out := make([]count.Constellation, len(idx))
	for i, j := range idx {
		out[i] = cs[j]
	}
	return out
}
