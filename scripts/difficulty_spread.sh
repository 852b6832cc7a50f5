#!/usr/bin/env bash
# Measures the share of each puzzle difficulty (easy, medium, hard) among
# the minimal puzzles of each n, as nqueens puzzle draws them, and prints a
# Markdown table: COUNT puzzles a row (default 10,000), seed SEED (default
# 1), from the class search's uniform draws (n <= 16) or the catalog.
#
#   scripts/difficulty_spread.sh              # n = 8..16
#   COUNT=1000 scripts/difficulty_spread.sh 4 5 6 7
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

ns=("$@")
[ ${#ns[@]} -gt 0 ] || ns=(8 9 10 11 12 13 14 15 16)
count=${COUNT:-10000}
seed=${SEED:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/nqueens" ./cmd/nqueens

echo "| n | easy | medium | hard | median nodes | puzzles |"
echo "|---:|---:|---:|---:|---:|---:|"
for n in "${ns[@]}"; do
	# The csv columns: n,givens,difficulty,nodes,...
	"$work/nqueens" puzzle "$n" --count "$count" --seed "$seed" --format csv -q --db "$work/none.db" |
		tail -n +2 | cut -d, -f3,4 | sort -t, -k2,2n |
		awk -F, -v n="$n" '{ k[$1]++; nodes[NR] = $2 }
			END { printf "| %d | %.3f | %.3f | %.3f | %d | %d |\n", n, k["easy"]/NR, k["medium"]/NR, k["hard"]/NR, nodes[int((NR+1)/2)], NR }'
done
