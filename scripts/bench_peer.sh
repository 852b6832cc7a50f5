#!/usr/bin/env bash
# Times `nqueens count N` side by side with a peer counter, the quadrant
# counter of EvgenyKluev/N-Queens-Count-Sol (C++20, MIT), in alternating
# runs, and prints a Markdown table of medians and ratios: nqueens on every
# core (--workers 0), the peer on 1 and on 2 threads, and the ratio of
# nqueens to the faster of the two. With REF=1 it also times the C
# reference scripts/ref/ref_total.c (one thread) for n <= 18.
#
#   PEER=~/src/N-Queens-Count-Sol scripts/bench_peer.sh 17 18 19
#
# PEER is a checkout of the peer's repository. For each n the script
# copies its sources, sets the board size in solcounter.h and the
# parameters its README's table gives for that size (prefetch on, BMI2
# from n = 19, sieveCuts 3 and matchMinSize 60 for n = 20 and 21), and
# builds it with g++ -std=c++20 -O3 -march=native, as its README says.
# Each figure is the median of REPS alternating runs (default 5) of wall
# time, the whole process, as /usr/bin/time -f %e reports it; every run's
# count is checked against the published one.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

[ -n "${PEER:-}" ] || { echo "bench_peer.sh: set PEER to a checkout of N-Queens-Count-Sol" >&2; exit 2; }
[ -f "$PEER/solcounter.h" ] || { echo "bench_peer.sh: $PEER/solcounter.h: not the peer's sources" >&2; exit 2; }
command -v g++ >/dev/null || { echo "bench_peer.sh: no g++ to build the peer" >&2; exit 2; }
ns=("$@")
[ ${#ns[@]} -gt 0 ] || ns=(17 18)
reps=${REPS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -o "$work/nqueens" ./cmd/nqueens
if [ "${REF:-0}" = 1 ]; then
	cc -O3 -march=native -o "$work/ref_total" scripts/ref/ref_total.c
fi

# peer_build N: the peer built for boards of n, with its README's parameters.
peer_build() {
	local n=$1 d="$work/peer-$1"
	mkdir -p "$d"
	cp "$PEER"/*.h "$PEER"/*.cpp "$d"/
	sed -i "s/inline constexpr int size = [0-9]*;/inline constexpr int size = $n;/" "$d/solcounter.h"
	sed -i 's|^//#include "prefetchx86.h"|#include "prefetchx86.h"|' "$d/prefetch.h"
	sed -i 's/\.prefetch = false/.prefetch = true/' "$d/solcounter.h"
	if [ "$n" -ge 19 ]; then
		sed -i 's|^//#include "bmi2.h"|#include "bmi2.h"|' "$d/bmintrin.h"
		sed -i 's/\.bmiIntrin = false/.bmiIntrin = true/' "$d/solcounter.h"
	fi
	if [ "$n" -ge 20 ]; then
		sed -i 's/\.sieveCuts = 0/.sieveCuts = 3/; s/\.matchMinSize = 40/.matchMinSize = 60/' "$d/solcounter.h"
	fi
	(cd "$d" && g++ -std=c++20 -O3 -march=native -o peer main.cpp -lpthread)
	echo "$d/peer"
}

# published[N]: the number of solutions of n, OEIS A000170.
declare -A published=([14]=365596 [15]=2279184 [16]=14772512 [17]=95815104 [18]=666090624
	[19]=4968057848 [20]=39029188884 [21]=314666222712 [22]=2691008701644)

# timed FILE CMD...: runs CMD, appends its wall time to FILE and prints its output.
timed() {
	local f=$1
	shift
	/usr/bin/time -o "$work/t" -f %e "$@" 2>/dev/null
	tail -1 "$work/t" >>"$f"
}

# median FILE: the median of the numbers in FILE, one a line.
median() { sort -g "$1" | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

ratio() { awk "BEGIN{ if ($2 > 0) printf \"%.2f\", $1 / $2; else print \"-\" }"; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), median of $reps alternating runs, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| n | nqueens count s | peer 1 thread s | peer 2 threads s | nqueens / best peer | ref_total s |"
echo "|---|---:|---:|---:|---:|---:|"
for n in "${ns[@]}"; do
	peer=$(peer_build "$n")
	want=${published[$n]:?"bench_peer.sh: n must be from 14 to 22"}
	rm -f "$work"/{q,p1,p2,r}
	for _ in $(seq "$reps"); do
		got=$(timed "$work/q" "$work/nqueens" count "$n" --total -q)
		[ "$got" = "$want" ] || { echo "bench_peer.sh: nqueens count $n printed $got, want $want" >&2; exit 1; }
		got=$(timed "$work/p1" "$peer" 1 | awk '/^Result:/ { print $2 }')
		[ "$got" = "$want" ] || { echo "bench_peer.sh: the peer (1 thread) counted $got for n=$n, want $want" >&2; exit 1; }
		got=$(timed "$work/p2" "$peer" 2 | awk '/^Result:/ { print $2 }')
		[ "$got" = "$want" ] || { echo "bench_peer.sh: the peer (2 threads) counted $got for n=$n, want $want" >&2; exit 1; }
	done
	r="-"
	if [ "${REF:-0}" = 1 ] && [ "$n" -le 18 ]; then
		timed "$work/r" "$work/ref_total" "$n" >/dev/null
		r=$(median "$work/r")
	fi
	q=$(median "$work/q") p1=$(median "$work/p1") p2=$(median "$work/p2")
	best=$(awk "BEGIN{ print ($p1 < $p2) ? $p1 : $p2 }")
	echo "| $n | $q | $p1 | $p2 | $(ratio "$q" "$best") | $r |"
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
