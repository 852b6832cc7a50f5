#!/usr/bin/env bash
# Measures nqueens serve on a catalog of n = 1..17 (MAXN, default 17):
#  1. a class page (/n/{n}/{k}) and an API class object
#     (/api/v1/classes/{n}/{k}) at the server, by the Go benchmarks of
#     package serve (the handler alone, no network; random k of n = 17, and
#     random n and k);
#  2. 32 concurrent clients making 3,200 requests of random class pages and
#     API objects while `nqueens build 18` writes into the same catalog:
#     errors and the latency percentiles the clients saw, then those the
#     server logged for the same requests.
#
#   scripts/bench_serve.sh            # builds n = 1..17 into a temporary catalog first
#   scripts/bench_serve.sh FILE       # a copy of the catalog FILE (it must hold 1..MAXN)
#
# The build of n = 18 runs on BUILD_WORKERS goroutines (default 0: all
# cores) and is interrupted once the clients are done; it writes into the
# temporary catalog only (a given FILE is copied, never written).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
maxn=${MAXN:-17}
work=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill -INT "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

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
NQUEENS_BENCH_DB="$db" go test ./serve -run '^$' -bench 'ClassPage|APIClass' -benchtime 2000x | grep '^Benchmark'

echo "== 32 clients, 3,200 requests, beside nqueens build 18"
"$work/nqueens" serve --db "$db" --addr 127.0.0.1:0 2>"$work/serve.log" &
pids+=($!)
until grep -q '^serving ' "$work/serve.log" 2>/dev/null; do sleep 0.1; done
url=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/serve.log" | head -1)
"$work/nqueens" build 18 --max-n 18 --db "$db" --workers "${BUILD_WORKERS:-0}" -q >/dev/null 2>"$work/build.log" &
build=$!
pids+=($build)
# Wait until the build has committed work into the catalog.
until curl -s "$url/api/v1/counts" | grep -q '"n": 18'; do sleep 0.2; done
sleep 1
lines_before=$(wc -l <"$work/serve.log")
"$work/loadserve" -url "$url" -clients 32 -requests 3200
echo "load average during: $(cut -d' ' -f1-3 /proc/loadavg)"
if kill -0 "$build" 2>/dev/null; then
	echo "the build of n = 18 was still running at the end: $(curl -s "$url/api/v1/counts" | tr -d ' \n' | grep -o '"n":18[^}]*units_total":[0-9]*')"
else
	echo "WARNING: the build of n = 18 had ended before the clients did:" >&2
	cat "$work/build.log" >&2
fi
tail -n +"$((lines_before + 1))" "$work/serve.log" >"$work/load.log"
"$work/loadserve" -log "$work/load.log"
