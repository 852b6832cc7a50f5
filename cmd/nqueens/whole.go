package main

import (
	"math"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/nqueens/nqueens"
)

// whole is a flag's whole number, read by nqueens.ParseWhole (decimal
// digits, no leading zeros, no sign) where pflag's own int flags read Go
// literals ("010" is 8, "0x10" 16, "+5" 5). The command checks the range it
// allows; whole refuses only what does not fit in T.
type whole[T int | int64 | uint64] struct{ p *T }

// wholeVar defines the flag name on fs, a whole number stored in p,
// starting at value.
func wholeVar[T int | int64 | uint64](fs *pflag.FlagSet, p *T, name string, value T, usage string) {
	*p = value
	fs.Var(whole[T]{p}, name, usage)
}

// wholeFlag defines the flag name on fs, a whole number, and returns where
// it is stored.
func wholeFlag[T int | int64 | uint64](fs *pflag.FlagSet, name string, value T, usage string) *T {
	p := new(T)
	wholeVar(fs, p, name, value, usage)
	return p
}

// Set reads s with nqueens.ParseWhole; the error is ParseWhole's, or
// nqueens.ErrTooLarge for a number T does not hold.
func (v whole[T]) Set(s string) error {
	n, err := nqueens.ParseWhole(s)
	if err != nil {
		return err
	}
	if n > v.max() {
		return nqueens.ErrTooLarge
	}
	*v.p = T(n)
	return nil
}

// max is the largest whole number T holds.
func (v whole[T]) max() uint64 {
	var zero T
	switch any(zero).(type) {
	case int:
		return math.MaxInt
	case int64:
		return math.MaxInt64
	}
	return math.MaxUint64
}

// String writes the number in decimal, as Set reads it.
func (v whole[T]) String() string {
	if v.p == nil {
		return "0"
	}
	return strconv.FormatUint(uint64(*v.p), 10)
}

// Type names the flag's type as pflag names its own ("int", "int64",
// "uint64"), so that --help writes "int" or "uint" after the flag.
func (v whole[T]) Type() string {
	var zero T
	switch any(zero).(type) {
	case int:
		return "int"
	case int64:
		return "int64"
	}
	return "uint64"
}
