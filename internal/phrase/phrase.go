// Package phrase words the values of nqueens's messages the same way in
// every package and on every page: a value quoted and cut short (Quote),
// a count (Count) and a count with its noun (Plural), an estimated count
// (Approx), a measured duration (Duration) and an estimated one (About),
// a size in bytes (Bytes), a list of missing shards (MissingShards). It
// is internal: wording, not part of the library's API.
package phrase

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Quote quotes a value for an error message, as strconv.Quote does, cut
// to its first 40 bytes (and the length said) if it is longer, so that a
// message stays one short line however long the value: Quote("33") is
// "\"33\"", a 10 MB argument comes out as 40 bytes, "..." and its length.
// Every package of nqueens quotes values in messages with it.
func Quote(s string) string {
	const max = 40
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut-- // not in the middle of a character
		}
		return strconv.Quote(s[:cut]) + fmt.Sprintf("... (%d bytes)", len(s))
	}
	return strconv.Quote(s)
}

// Plural writes k, as Count does, and the noun for a message, the noun in
// the plural unless k is 1: "1 class", "12 classes", "0 solutions",
// "2,279,184 solutions" (a noun ending in s takes "es").
func Plural[T ~int | ~int64 | ~uint64](k T, noun string) string {
	if k == 1 {
		return "1 " + noun
	}
	return Count(k) + " " + plural(noun)
}

// plural returns noun in the plural: "solutions", "classes".
func plural(noun string) string {
	if strings.HasSuffix(noun, "s") {
		return noun + "es"
	}
	return noun + "s"
}

// MissingShards returns, for a message, the shards of K that present says
// are missing: "1, 4" (shard numbers from 0), cut after the first ten
// ("0, 1, 2, 3, 4, 5, 6, 7, 8, 9 and 990 more"), or "" if none is.
func MissingShards(k int, present func(i int) bool) string {
	var list []string
	more := 0
	for i := range k {
		switch {
		case present(i):
		case len(list) < 10:
			list = append(list, strconv.Itoa(i))
		default:
			more++
		}
	}
	s := strings.Join(list, ", ")
	if more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}

// Bytes writes a size in bytes with a binary unit: "2.4 GiB", "512 B".
func Bytes(b uint64) string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%d B", b)
	}
	div, exp := uint64(unit), 0
	for n := b / unit; n >= unit; n /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(b)/float64(div), "KMGTPE"[exp])
}
