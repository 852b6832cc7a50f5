package count

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// Units are the work units of a count, as a Keeper keeps them and a
// shard takes its part of them: constellations (ConstellationUnits), or
// units of the join of half boards (JoinUnits). A count resumes, and
// parts combine, only over the same units, which Digest names.
type Units interface {
	// Len returns the number of units.
	Len() int
	// Digest names the units: which, in which order, counted how.
	Digest() string
	// Orbit returns the factor by which unit i's solutions count in the
	// total: a constellation's orbit size, 1 for a unit of the join
	// (whose solutions are weighted as it counts them).
	Orbit(i int) uint64
}

// ConstellationUnits returns the units of a count of the constellations
// cs, in order: their Digest is Digest(cs).
func ConstellationUnits(cs []Constellation) Units { return constellationUnits(cs) }

type constellationUnits []Constellation

func (cs constellationUnits) Len() int           { return len(cs) }
func (cs constellationUnits) Digest() string     { return Digest(cs) }
func (cs constellationUnits) Orbit(i int) uint64 { return uint64(cs[i].Orbit()) }

// JoinUnits are units of the join of the half boards of a board of n
// (count/join): the units numbered Of, of the Total the board is cut
// into, in that order.
type JoinUnits struct {
	N     int
	Total int
	Of    []int
}

// joinDigestPrefix starts the Digest of join units, which tells them
// from a digest of constellations ("sha256:").
const joinDigestPrefix = "join-sha256:"

// joinVersion names the join's way of cutting a board into units and
// counting each: a count's state or part made another way is not
// resumed or combined.
const joinVersion = "join 1"

// Len returns len(u.Of).
func (u JoinUnits) Len() int { return len(u.Of) }

// Orbit returns 1.
func (u JoinUnits) Orbit(int) uint64 { return 1 }

// Digest returns "join-sha256:" and the hex SHA-256 of the way the join
// counts, n, the number of units of the board and the units' numbers, in
// order.
func (u JoinUnits) Digest() string {
	h := sha256.New()
	fmt.Fprintf(h, "%s n=%d units=%d\n", joinVersion, u.N, u.Total)
	for _, i := range u.Of {
		fmt.Fprintf(h, "%d\n", i)
	}
	return joinDigestPrefix + hex.EncodeToString(h.Sum(nil))
}

// IsJoinDigest reports whether digest names units of the join (a
// JoinUnits' Digest) rather than constellations.
func IsJoinDigest(digest string) bool { return strings.HasPrefix(digest, joinDigestPrefix) }
