//go:build !amd64

package join

// hasWide is false: the wide sieve is written for AVX-512 alone.
var hasWide = false

// matchWide is matchWideGo where there is no AVX-512.
func matchWide(tab *wideTable, items []uint64, nt int) uint64 {
	return matchWideGo(tab, items, nt)
}
