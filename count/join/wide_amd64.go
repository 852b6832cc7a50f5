package join

import "golang.org/x/sys/cpu"

// hasWide reports whether count uses the wide sieve: the processor has
// AVX-512 with its population count of words, and the system saves its
// registers.
var hasWide = cpu.X86.HasAVX512F && cpu.X86.HasAVX512VPOPCNTDQ

// matchWide is matchWideGo in AVX-512 (wide_amd64.s): nt is 6, 7 or 8.
//
//go:noescape
func matchWide(tab *wideTable, items []uint64, nt int) uint64
