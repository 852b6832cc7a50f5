#!/usr/bin/env bash
# Measures nqueens serve on a catalog of n = 1..16 (MAXN, default 16):
#  1. a class page (/n/{n}/{k}) and an API class object
#     (/api/v1/classes/{n}/{k}) at the server, by the Go benchmarks of
#     package serve (the handler alone, no network);
#  2. the load goal of issue 24: 50 concurrent clients making 20,000
#     requests (class pages, pages of classes, API objects, lookups) while
#     `nqueens build MAXN+1` writes into the same catalog, then a burst of
#     8,000 connections at once: errors, the latency percentiles the clients
#     saw, the server's peak RSS and descriptors, and its descriptors after
#     the burst (scripts/loadserve); then the durations the server logged.
#
#   scripts/bench_serve.sh            # builds n = 1..MAXN into a temporary catalog first
#   scripts/bench_serve.sh FILE       # a copy of the catalog FILE (it must hold 1..MAXN)
#
# The build beside runs on BUILD_WORKERS goroutines (default 1) and is
# interrupted once the clients are done, before the burst; it writes into the temporary
# catalog only (a given FILE is copied, never written). CLIENTS, REQUESTS
# and BURST change the load.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
maxn=${MAXN:-16}
work=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill -INT "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
ulimit -n 20000 2>/dev/null || true

go build -o "$work/nqueens" ./cmd/nqueens
go build -o "$work/loadserve" ./scripts/loadserve
db="$work/c.db"
if [ $# -ge 1 ]; then
	cp "$1" "$db"
	[ -f "$1-wal" ] && cp "$1-wal" "$db-wal"
else
	echo "building n = 1..$maxn into $db ..."
	start=$(date +%s.%N)
	"$work/nqueens" build "1-$maxn" --db "$db" -q >/dev/null
	echo "built in $(echo "$(date +%s.%N) - $start" | bc) s"
fi
echo "machine: $(nproc) cores; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

echo "== at the server (go test -bench, handler alone, 2000 requests each)"
NQUEENS_BENCH_DB="$db" go test ./serve -run '^$' -bench 'ClassPage|APIClass|ClassesPage' -benchtime 2000x | grep '^Benchmark'

next=$((maxn + 1))
echo "== ${CLIENTS:-50} clients, ${REQUESTS:-20000} requests, then ${BURST:-8000} connections at once, beside nqueens build $next"
"$work/nqueens" serve --db "$db" --addr 127.0.0.1:0 2>"$work/serve.log" &
server=$!
pids+=($server)
until grep -q '^serving ' "$work/serve.log" 2>/dev/null; do sleep 0.1; done
url=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/serve.log" | head -1)
"$work/nqueens" build "$next" --max-rows-n "$next" --db "$db" --workers "${BUILD_WORKERS:-1}" -q >/dev/null 2>"$work/build.log" &
build=$!
pids+=($build)
# Wait until the build has committed work into the catalog.
until curl -s "$url/api/v1/counts" | grep -q "\"n\": $next"; do sleep 0.2; done
sleep 1
lines_before=$(wc -l <"$work/serve.log")
"$work/loadserve" -url "$url" -clients "${CLIENTS:-50}" -requests "${REQUESTS:-20000}" -pid "$server"
echo "load average during: $(cut -d' ' -f1-3 /proc/loadavg)"
if kill -0 "$build" 2>/dev/null; then
	echo "the build of n = $next was still running at the end: $(curl -s "$url/api/v1/counts" | tr -d ' \n' | grep -o "\"n\":$next[^}]*units_total\":[0-9]*")"
else
	echo "WARNING: the build of n = $next had ended before the clients did:" >&2
	cat "$work/build.log" >&2
fi
tail -n +"$((lines_before + 1))" "$work/serve.log" >"$work/load.log"
"$work/loadserve" -log "$work/load.log"
kill -INT "$build" 2>/dev/null || true
"$work/loadserve" -url "$url" -requests 0 -burst "${BURST:-8000}" -pid "$server"
