#!/usr/bin/env bash
# Times `nqueens count --engine cpu N` (by constellations; scripts/bench_peer.sh
# times the default engine, the join, against the fastest published counter),
# `nqueens count --class-search N` (the class search that build runs) and
# `nqueens build N` (into a fresh catalog) side by side with the C reference
# counter scripts/ref/ref_total.c (the plain bitmask search with first-row
# mirror halving, one thread), in one sitting, and prints a Markdown table
# with the ratios R(n)/t and the load average before and after. nqueens uses
# every core (--workers 0), the reference one: the ratios compare the two
# programs as a user runs them on this machine.
#
#   scripts/bench.sh            # n = 14..18
#   scripts/bench.sh 14 15 16   # chosen n
#
# Without a C compiler (cc) it says so and times nqueens alone. Each figure is the best of REPS runs (default 3) of wall time.
# build is timed up to BUILD_MAX (default 17: the catalog of 18 takes
# gigabytes); above it the build columns read "-".
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

ns=("$@")
[ ${#ns[@]} -gt 0 ] || ns=(14 15 16 17 18)
reps=${REPS:-3}
build_max=${BUILD_MAX:-17}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -o "$work/nqueens" ./cmd/nqueens
ref=""
if command -v cc >/dev/null 2>&1; then
	cc -O3 -march=native -o "$work/ref_total" scripts/ref/ref_total.c
	ref="$work/ref_total"
else
	echo "note: no C compiler (cc) to build scripts/ref/ref_total.c: timing nqueens alone, no ratios" >&2
fi

# best CMD...: the smallest wall time in seconds of REPS runs.
best() {
	local b="" t
	for _ in $(seq "$reps"); do
		/usr/bin/time -o "$work/t" -f %e "$@" >/dev/null 2>&1
		t=$(tail -1 "$work/t")
		if [ -z "$b" ] || awk "BEGIN{exit !($t < $b)}"; then b=$t; fi
	done
	echo "$b"
}

# build_time N: wall time of building N into a fresh catalog, best of REPS.
build_time() {
	local b="" t
	for _ in $(seq "$reps"); do
		rm -f "$work"/b.db*
		/usr/bin/time -o "$work/t" -f %e "$work/nqueens" build "$1" --db "$work/b.db" -q --max-rows-n 32 >/dev/null
		t=$(tail -1 "$work/t")
		if [ -z "$b" ] || awk "BEGIN{exit !($t < $b)}"; then b=$t; fi
	done
	echo "$b"
}

ratio() { awk "BEGIN{ if ($2 > 0) printf \"%.2f\", $1 / $2; else print \"-\" }"; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), best of $reps runs, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| n | ref_total R(n) s | count --engine cpu s | R/count | count --class-search s | R/classes | build s | R/build | catalog MiB |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in "${ns[@]}"; do
	r="-"
	[ -n "$ref" ] && r=$(best "$ref" "$n")
	c=$(best "$work/nqueens" count --engine cpu "$n")
	k=$(best "$work/nqueens" count --class-search "$n")
	b="-" size="-"
	if [ "$n" -le "$build_max" ]; then
		b=$(build_time "$n")
		size=$(awk "BEGIN{printf \"%.1f\", $(stat -c %s "$work/b.db") / 1048576}")
	fi
	if [ -n "$ref" ]; then
		rb="-"
		[ "$b" = "-" ] || rb=$(ratio "$r" "$b")
		echo "| $n | $r | $c | $(ratio "$r" "$c") | $k | $(ratio "$r" "$k") | $b | $rb | $size |"
	else
		echo "| $n | - | $c | - | $k | - | $b | - | $size |"
	fi
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
