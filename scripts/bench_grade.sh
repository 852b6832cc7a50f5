#!/usr/bin/env bash
# Times `nqueens grade` on COUNT answers (default 100,000) of n = 8..20, a
# thirteenth of them each: the puzzles and their answer key made by the
# program itself (puzzle --format dataset, then --answers only with the same
# seed), with one answer in ten replaced by the columns of another
# solution (a wrong answer) and one in four written as columns, so that
# each form is read. Prints the wall and CPU time of grade, with and
# without --json, the best of REPS runs (default 3), and the load average.
#
#   scripts/bench_grade.sh
#   COUNT=10000 REPS=1 scripts/bench_grade.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

count=${COUNT:-100000}
reps=${REPS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/nqueens" ./cmd/nqueens
nq="$work/nqueens"

each=$(( (count + 12) / 13 ))
for n in $(seq 8 20); do
	"$nq" puzzle "$n" --count "$each" --seed 1 --format dataset -q --db "$work/none.db" >> "$work/puzzles.jsonl"
	"$nq" puzzle "$n" --count "$each" --seed 1 --format dataset -q --db "$work/none.db" --answers only >> "$work/key.jsonl"
done
head -n "$count" "$work/puzzles.jsonl" > "$work/p.jsonl"
# Every tenth answer: the columns of a solution of another puzzle of the
# same n (usually wrong); every fourth of the rest: the key's columns.
head -n "$count" "$work/key.jsonl" | awk '
	function cols(s,   rows, k, i, c, out) {
		k = split(s, rows, "\\\\n")
		out = ""
		for (i = 1; i <= k; i++) {
			c = index(rows[i], "Q")
			out = out (i > 1 ? "," : "") (c - 1) / 2
		}
		return "[" out "]"
	}
	{
		match($0, /"answer":"[^"]*"/)
		grid = substr($0, RSTART + 10, RLENGTH - 11)
		if (NR % 10 == 0 && prev != "") print "{\"answer\":" cols(prev) "}"
		else if (NR % 4 == 0) print "{\"answer\":" cols(grid) "}"
		else print "{\"answer\":\"" grid "\"}"
		prev = grid
	}' > "$work/a.jsonl"
echo "machine: $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "files: $(wc -l < "$work/p.jsonl") puzzles ($(du -h "$work/p.jsonl" | cut -f1)), $(wc -l < "$work/a.jsonl") answers ($(du -h "$work/a.jsonl" | cut -f1))"
"$nq" grade "$work/p.jsonl" "$work/a.jsonl" | tail -n 1
for args in "" "--json"; do
	best=""
	for _ in $(seq "$reps"); do
		t=$( { /usr/bin/time -f "%e %U %S" "$nq" grade "$work/p.jsonl" "$work/a.jsonl" $args > /dev/null; } 2>&1 | tail -n 1)
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { split(a, x, " "); split(b, y, " "); exit !(x[1] < y[1]) }'; then
			best=$t
		fi
	done
	read -r wall user sys <<< "$best"
	echo "grade ${args:-(text)}: ${wall} s wall, ${user} s user, ${sys} s system (best of $reps)"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
