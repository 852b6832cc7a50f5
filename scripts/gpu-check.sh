#!/usr/bin/env bash
# gpu-check.sh: the checks of the GPU engine that need an NVIDIA GPU, run
# in one go on a machine that has one but no Go and no network. It runs
# prebuilt binaries from a git-ignored folder, GPUBIN (default gpubin/),
# which a maintainer builds beforehand on a machine with Go (static
# binaries: purego reaches the driver without cgo):
#
#   CGO_ENABLED=0 go test -c -o gpubin/gpu.test ./count/gpu
#   CGO_ENABLED=0 go build -o gpubin/nqueens ./cmd/nqueens
#
# and writes what it finds under OUT (default gpu-out/): summary.txt (one
# line a check, PASS, FAIL or SKIP, and the figures), times.tsv (whole-
# process seconds by engine and n), and each command's output. It keeps
# within BUDGET seconds (default 480): a step that would not fit is
# skipped and says so. Its exit status is 1 if a check failed.
#
# The steps, most important first:
#   1. the GPU tests, which fail rather than skip here (NQUEENS_REQUIRE_GPU=1):
#      OEIS n = 1..16 with classes, every item of n = 8..15 against the
#      twin, n = 15 and 16 constellation by constellation against the CPU,
#      a stopped count of n = 20 within a second;
#   2. count 4-21 --engine gpu --json against OEIS (totals, classes, orbits);
#   3. whole-process times of n = 18..22 on the GPU, best of 3 where short;
#   4. a kill (SIGKILL), an interrupt (SIGINT) and a resume of count 22 --engine gpu;
#   5. whole-process times of n = 18..20 on the CPU engine, all cores.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=${GPUBIN:-gpubin}
OUT=${OUT:-gpu-out}
BUDGET=${BUDGET:-480}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
summary="$OUT/summary.txt"
times="$OUT/times.tsv"
: >"$summary"
printf 'engine\tn\tseconds\n' >"$times"
failed=0
start=$SECONDS

say() { echo "$*" | tee -a "$summary"; }
left() { echo $((BUDGET - (SECONDS - start))); }
# fits SECONDS: whether a step that may take that long fits the budget.
fits() { [ "$(left)" -ge "$1" ]; }
# lt A B: whether the number A is less than B; minus A B: A - B.
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }
minus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a - b }'; }
check() { # check NAME STATUS [DETAIL]
	if [ "$2" -eq 0 ]; then say "PASS $1 ${3:-}"; else say "FAIL $1 ${3:-}"; failed=1; fi
}

for f in "$BIN/nqueens" "$BIN/gpu.test"; do
	if [ ! -x "$f" ]; then
		say "FAIL $f is missing: build it first (see the head of this script)"
		exit 1
	fi
done
nvidia-smi >"$OUT/nvidia-smi.txt" 2>&1 || true
say "device: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo unknown)"
say "cores: $(nproc)"

# 1. The GPU tests (the test binary runs in its package's folder, for
# kernel.cu and testdata).
test_bin=$(realpath "$BIN/gpu.test")
(cd count/gpu && NQUEENS_REQUIRE_GPU=1 timeout 200 "$test_bin" -test.v -test.run 'GPU' >"$OUT/gpu-tests.txt" 2>&1)
check "GPU tests" $? "($(grep -c '^--- PASS' "$OUT/gpu-tests.txt") passed, $(grep -c '^--- FAIL' "$OUT/gpu-tests.txt") failed; gpu-tests.txt)"
grep -h 'engine: \|kernel: \|stopped' "$OUT/gpu-tests.txt" | sort -u | head -4 | sed 's/^ */  /' | tee -a "$summary"
if grep -q 'open the GPU engine' "$OUT/gpu-tests.txt"; then
	say "no GPU engine here: $(grep -m1 -o 'open the GPU engine: .*' "$OUT/gpu-tests.txt")"
	exit 1
fi

# run LABEL N ENGINE: one whole-process count, its seconds appended to
# times.tsv and echoed; the counts to OUT/LABEL.json.
run() {
	local label=$1 n=$2 engine=$3 t0 t1
	t0=$(date +%s.%N)
	"$BIN/nqueens" count "$n" --engine "$engine" --state off --json >"$OUT/$label.json" 2>"$OUT/$label.err" || return 1
	t1=$(date +%s.%N)
	local s
	s=$(minus "$t1" "$t0")
	printf '%s\t%s\t%s\n' "$engine" "$n" "$s" >>"$times"
	echo "$s"
}

# checkjson FILE RANGE ENGINE: the counts of FILE against OEIS.
checkjson() {
	NQUEENS_COUNT_JSON=$(realpath "$1") NQUEENS_COUNT_RANGE=$2 NQUEENS_COUNT_ENGINE=$3 \
		"$test_bin" -test.run '^TestCountFile$' -test.v >"$1.check" 2>&1
}

# 2. count 4-21 against OEIS.
if fits 90; then
	timeout 300 "$BIN/nqueens" count 4-21 --engine gpu --state off --json >"$OUT/gpu-4-21.json" 2>"$OUT/gpu-4-21.err"
	rc=$?
	[ $rc -eq 0 ] && { checkjson "$OUT/gpu-4-21.json" 4-21 gpu; rc=$?; }
	check "count 4-21 --engine gpu against OEIS" $rc "(gpu-4-21.json.check)"
else
	say "SKIP count 4-21: $(left) s left"
fi

# 3. Whole-process times on the GPU: best of 3 where a run is under 30 s.
for n in 18 19 20 21 22; do
	need=$((n < 21 ? 20 : n == 21 ? 40 : 150))
	if ! fits "$need"; then
		say "SKIP gpu n=$n time: $(left) s left"
		continue
	fi
	best=""
	for k in 1 2 3; do
		s=$(run "gpu-$n-$k" "$n" gpu) || { check "gpu n=$n run $k" 1 "(gpu-$n-$k.err)"; break; }
		if [ -z "$best" ] || lt "$s" "$best"; then best=$s; fi
		lt 30 "$s" && break
		fits "$need" || break
	done
	if [ -n "$best" ]; then
		checkjson "$OUT/gpu-$n-1.json" "$n-$n" gpu
		check "gpu n=$n" $? "best of the runs: $best s"
	fi
done

# 4. count 22 killed once progress is kept, interrupted, then resumed to
# the end.
if fits 200; then
	state="$OUT/c22.state"
	rm -f "$state"
	# kill_after SIGNAL SECONDS LOG: start count 22, send SIGNAL once its
	# state holds a record beyond its header (or after SECONDS), wait.
	kill_after() {
		"$BIN/nqueens" count 22 --engine gpu --state "$state" --json >"$3.json" 2>"$3" &
		local pid=$! waited=0
		while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt "$2" ]; do
			if [ -f "$state" ] && [ "$(wc -l <"$state")" -ge 2 ] && [ "$waited" -ge 10 ]; then break; fi
			sleep 1
			waited=$((waited + 1))
		done
		kill "-$1" "$pid" 2>/dev/null
		wait "$pid"
	}
	kill_after KILL 40 "$OUT/c22-kill.err"
	kept1=$(wc -l <"$state" 2>/dev/null || echo 0)
	kill_after INT 40 "$OUT/c22-int.err"
	rc_int=$?
	kept2=$(wc -l <"$state" 2>/dev/null || echo 0)
	t0=$SECONDS
	"$BIN/nqueens" count 22 --engine gpu --state "$state" --json >"$OUT/c22-resume.json" 2>"$OUT/c22-resume.err"
	rc=$?
	grep -qi 'resum' "$OUT/c22-int.err" "$OUT/c22-resume.err" || rc=1
	[ $rc -eq 0 ] && { checkjson "$OUT/c22-resume.json" 22-22 gpu; rc=$?; }
	check "count 22 killed, interrupted (status $rc_int), resumed" $rc \
		"(state lines after the kill $kept1, after the interrupt $kept2; the resume took $((SECONDS - t0)) s; c22-*.err)"
	tail -n 2 "$OUT/c22-int.err" | sed 's/^/  interrupt: /' | tee -a "$summary"
else
	say "SKIP count 22 kill and resume: $(left) s left"
fi

# 5. The CPU engine on all cores, for comparison.
for n in 18 19 20; do
	need=$((n == 18 ? 15 : n == 19 ? 40 : 200))
	if ! fits "$need"; then
		say "SKIP cpu n=$n time: $(left) s left"
		continue
	fi
	best=""
	for k in 1 2 3; do
		s=$(run "cpu-$n-$k" "$n" cpu) || { check "cpu n=$n run $k" 1 "(cpu-$n-$k.err)"; break; }
		if [ -z "$best" ] || lt "$s" "$best"; then best=$s; fi
		lt 10 "$s" && break
	done
	[ -n "$best" ] && say "TIME cpu n=$n best of the runs: $best s"
done

say "done in $((SECONDS - start)) s"
exit $failed
