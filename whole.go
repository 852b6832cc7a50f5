package nqueens

import (
	"errors"
	"strconv"
)

// Errors of ParseWhole. Callers say in their own words what they allow,
// naming the source and the value, and end the message with WholeHint's
// words for leading zeros: --class "010": want a whole number: leading
// zeros are refused.
var (
	// ErrEmpty is the error of ParseWhole for an empty string.
	ErrEmpty = errors.New("no digits")
	// ErrNotDecimal is the error of ParseWhole for anything but decimal
	// ASCII digits: a sign, a space, a point, hex, octal or binary
	// prefixes, underscores, non-ASCII digits.
	ErrNotDecimal = errors.New("write decimal digits 0-9 only")
	// ErrLeadingZero is the error of ParseWhole for a number that starts
	// with 0 and is not 0 itself.
	ErrLeadingZero = errors.New("leading zeros are refused")
	// ErrTooLarge is the error of ParseWhole for a number above
	// math.MaxUint64.
	ErrTooLarge = errors.New("too large")
)

// ParseWhole reads s as a whole number written the one way every number of
// the program is written, on the command line (n, K, K-L, flags, shards,
// columns), in the environment, in the config file and in URLs: one or
// more decimal ASCII digits, the first not 0 unless the number is 0 itself.
//
// Leading zeros are refused, not read: "010" is 8 to Go's base-0 parsers,
// C's strtol and YAML 1.1, and 10 to others, so a number that starts with
// 0 would mean two things; the program asks for the one it means instead.
// Signs ("+5", "-0"), spaces, "0x10", "0o10", "0b10", "1_000", "1e3" and
// non-ASCII digits are refused as well.
//
// The error is ErrEmpty, ErrNotDecimal, ErrLeadingZero or ErrTooLarge (for
// more than math.MaxUint64), without s: the caller names the source, quotes
// s and says what range it allows.
func ParseWhole(s string) (uint64, error) {
	if s == "" {
		return 0, ErrEmpty
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, ErrNotDecimal
		}
	}
	if len(s) > 1 && s[0] == '0' {
		return 0, ErrLeadingZero
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, ErrTooLarge
	}
	return n, nil
}

// WholeHint returns ": leading zeros are refused" if s is refused by
// ParseWhole for its leading zeros alone, and "" otherwise. It ends a
// message that has said what is allowed, for the one refusal that a reader
// used to Go or C literals, where "010" is 8, would not expect:
// --class "010": want a whole number: leading zeros are refused.
func WholeHint(s string) string {
	if _, err := ParseWhole(s); errors.Is(err, ErrLeadingZero) {
		return ": " + ErrLeadingZero.Error()
	}
	return ""
}
