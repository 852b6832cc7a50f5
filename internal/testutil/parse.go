package testutil

import (
	"fmt"
	"strings"
	"testing"
)

// ParseCase is a row of a parser's table test: an input, and what parsing
// it must give, the text of the value parsed or a part of the error.
type ParseCase struct {
	In      string
	Want    string // the text of the value, when In parses
	WantErr string // a part of the error's message, when In must not parse
}

// CheckParse runs parse on the input of each case and fails t where it
// does not give what the case wants: an error, or a value whose text (as
// fmt.Sprint writes it, so its String method where it has one) is the
// case's. name names the parser in the messages, which cut inputs to
// their first 40 bytes.
func CheckParse[T any](t testing.TB, name string, parse func(string) (T, error), cases []ParseCase) {
	t.Helper()
	for _, c := range cases {
		in := c.In
		if len(in) > 40 {
			in = in[:40] + "..."
		}
		v, err := parse(c.In)
		got := fmt.Sprint(v)
		switch {
		case c.WantErr == "" && err != nil:
			t.Errorf("%s(%q): %v, want %q", name, in, err, c.Want)
		case c.WantErr == "" && got != c.Want:
			t.Errorf("%s(%q) = %q, want %q", name, in, got, c.Want)
		case c.WantErr != "" && err == nil:
			t.Errorf("%s(%q) = %q, want an error containing %q", name, in, got, c.WantErr)
		case c.WantErr != "" && !strings.Contains(err.Error(), c.WantErr):
			t.Errorf("%s(%q): %v, want an error containing %q", name, in, err, c.WantErr)
		}
	}
}
