#!/usr/bin/env bash
# Times the index form of the catalog, in one sitting:
#   build    `nqueens build N --index` into a fresh catalog beside
#            `nqueens count --class-search N` (the same search, counting
#            only), run alternately, REPS times each, best of each, and
#            their ratio, of wall time and of CPU time;
#   size     the index's catalog file and its blocks' bytes;
#   show     `nqueens show N --class K` for RUNS random K, whole process:
#            median and 99th percentile;
#   lookup   `nqueens lookup BOARD` for RUNS random boards (an image of a
#            random class), whole process: median and 99th percentile;
#   export   `nqueens export N --classes K-(K+99999) --format csv`: classes
#            a second.
#
#   scripts/bench_index.sh 16           # builds the index of 16, then times it
#   INDEX_DB=idx20.db scripts/bench_index.sh 20   # times a catalog built before
#
# REPS (default 3) build runs, RUNS (default 200) reads.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

n=${1:?usage: scripts/bench_index.sh N}
reps=${REPS:-3}
runs=${RUNS:-200}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/nqueens" ./cmd/nqueens
nq="$work/nqueens"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# wall CMD...: the wall time of CMD in seconds.
wall() {
	local start=$EPOCHREALTIME
	"$@" >/dev/null 2>&1
	awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN{ printf "%.4f\n", b - a }'
}
min() { awk -v a="$1" -v b="$2" 'BEGIN{ print (a == "" || b + 0 < a + 0) ? b : a }'; }

# cpu CMD...: the CPU time (user and system) of CMD in seconds, which a
# busy machine disturbs less than the wall time.
cpu() {
	/usr/bin/time -o "$work/t" -f "%U %S" "$@" >/dev/null 2>&1
	tail -1 "$work/t" | awk '{ print $1 + $2 }'
}

db=${INDEX_DB:-}
if [ -z "$db" ]; then
	db="$work/index.db"
	bb="" cb="" bc="" cc=""
	for _ in $(seq "$reps"); do
		rm -f "$work"/b.db*
		bb=$(min "$bb" "$(wall "$nq" build "$n" --index --db "$work/b.db" -q)")
		cb=$(min "$cb" "$(wall "$nq" count --class-search "$n")")
		rm -f "$work"/b.db*
		bc=$(min "$bc" "$(cpu "$nq" build "$n" --index --db "$work/b.db" -q)")
		cc=$(min "$cc" "$(cpu "$nq" count --class-search "$n")")
	done
	mv "$work/b.db" "$db"
	echo "build --index $n: ${bb}s wall, ${bc}s CPU; count --class-search $n: ${cb}s wall, ${cc}s CPU; ratio $(awk "BEGIN{printf \"%.2f\", $bb / $cb}") wall, $(awk "BEGIN{printf \"%.2f\", $bc / $cc}") CPU"
fi
bytes=$(sqlite3 "$db" "SELECT sum(length(data)) FROM index_blocks WHERE n = $n" 2>/dev/null || echo "?")
echo "catalog file: $(stat -c %s "$db") bytes; index blocks' data: $bytes bytes"

unique=$("$nq" stats "$n" --json --db "$db" | awk -F'"unique": ' '/"unique"/{print $2+0; exit}')
[ "$unique" -gt 0 ] || { echo "n=$n has no classes in $db" >&2; exit 1; }

# quantiles FILE: the median and 99th percentile of the times in FILE, in ms.
quantiles() {
	sort -n "$1" | awk '{t[NR]=$1*1000} END{printf "median %.0f ms, p99 %.0f ms (%d runs)\n", t[int((NR+1)/2)], t[int(NR*0.99+0.5)], NR}'
}
: >"$work/show" ; : >"$work/lookup"
for _ in $(seq "$runs"); do
	k=$(awk -v u="$unique" -v s="$RANDOM$RANDOM" 'BEGIN{srand(s); printf "%d", 1 + int(rand() * u)}')
	wall "$nq" show "$n" --class "$k" --db "$db" >>"$work/show"
	board=$("$nq" export "$n" --classes "$k" --all --format csv --db "$db" | awk -F, -v s="$RANDOM" 'NR>1{b[NR]=$NF} END{srand(s); print b[2 + int(rand() * (NR-1))]}')
	wall "$nq" lookup "$board" --db "$db" >>"$work/lookup"
done
echo "show $n --class K: $(quantiles "$work/show")"
echo "lookup (n=$n): $(quantiles "$work/lookup")"

k=$((unique > 100000 ? unique / 2 - 50000 : 1))
l=$((k + 99999 < unique ? k + 99999 : unique))
t=$(wall "$nq" export "$n" --classes "$k-$l" --format csv --db "$db" -o "$work/e.csv")
echo "export $n --classes $k-$l --format csv: $((l - k + 1)) classes in ${t}s: $(awk "BEGIN{printf \"%.0f\", ($l - $k + 1) / $t}") classes/s"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
