#!/bin/sh
# smoke.sh - a seconds-long check that the benchmark still works: every
# program starts and finds its allocator, a tiny run of every scenario gives
# well-formed samples, and the report and both plots are made from them.
# Prints KTAP; exits 0 only if every case passed. The numbers of such a
# short run mean nothing and are not checked, only their form.
#
#   bench/smoke.sh [BINDIR]    (default: build/bench/bin next to bench/)
#
# Each case is one command, then "result $?": the status of the line before.
# shellcheck disable=SC2181

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
BIN=${1:-$ROOT/build/bench/bin}
OUT=${BENCH_SMOKE_DIR:-$ROOT/build/bench/smoke}
PROGS="buddy buddy-o15 glibc jemalloc mimalloc"
# shellcheck source=tests/lib/ktap.sh
. "$ROOT/tests/lib/ktap.sh"

result() {	# result <status> <name> [diagnostic]
	if [ "$1" -eq 0 ]; then
		ktap_result ok "$2"
	else
		[ -n "${3:-}" ] && ktap_diag "$3"
		ktap_result fail "$2"
	fi
}

# Every sample line: 7 tab-separated fields, a known allocator, an integer
# order and rep, a finite number (info lines: any text) for a value.
well_formed() {
	awk -F'\t' -v progs=" $PROGS " '
		NF != 7 { print "line " NR ": " NF " fields"; bad = 1; next }
		index(progs, " " $1 " ") == 0 { print "line " NR ": allocator " $1; bad = 1 }
		$4 !~ /^-?[0-9]+$/ || $6 !~ /^[0-9]+$/ { print "line " NR ": order/rep"; bad = 1 }
		$2 != "info" && $7 !~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/ { print "line " NR ": value " $7; bad = 1 }
		END { if (NR == 0) { print "no samples"; bad = 1 } exit bad }' "$1"
}

# One case for the five identity checks.
msg=""
for p in $PROGS; do
	err=$("$BIN/bench-$p" info 2>&1 >/dev/null) || msg="$msg$p: $err "
done
[ -z "$msg" ]; result $? "every program finds the allocator it is named for" "$msg"

"$BIN/bench-glibc" handoff gib=1 >/dev/null 2>&1
[ $? -ne 0 ]; result $? "a peer refuses the buddy-only hand-off scenario"

"$BIN/bench-buddy" pair order=11 >/dev/null 2>&1
[ $? -ne 0 ]; result $? "the default build refuses an order above MAX_PAGE_ORDER"

"$BIN/bench-buddy" sweep reps=0 >/dev/null 2>&1
[ $? -ne 0 ]; result $? "a zero repetition count is refused"

# The threads scenario's control loop: wall and CPU time, no allocator.
out=$("$BIN/bench-buddy" threads threads=2 control=1 order=0 reps=1 \
	iters=1000 2>/dev/null)
[ $? -eq 0 ] && printf '%s\n' "$out" | grep -q "	control2	0	pair_ns	1	" &&
	printf '%s\n' "$out" | grep -q "	control2	0	cpu_ns	1	"
result $? "threads control=1 prints wall and CPU time per pair" "$out"

# With cross frees, the ring alone: tokens through it, no allocator, on
# two CPUs as make bench runs it.
out=$("$BIN/bench-buddy" threads threads=2 control=1 cross=1 order=0 reps=1 \
	iters=20000 pin=apart 2>&1)
[ $? -eq 0 ] && printf '%s\n' "$out" | grep -q "	crossctl2-apart	0	pair_ns	1	"
result $? "threads control=1 cross=1 runs the ring alone" "$out"
"$BIN/bench-buddy" threads threads=1 control=1 cross=1 order=0 >/dev/null 2>&1
[ $? -ne 0 ]; result $? "threads refuses cross frees with one thread"

# A workload is timed without the memory sampler, and measured for memory
# in a run of its own, which gives no time.
out=$("$BIN/bench-buddy" workload work=glibc-simple threads=2 iters=3000 2>&1)
[ $? -eq 0 ] && printf '%s\n' "$out" | grep -q "	time_ms	1	" &&
	! printf '%s\n' "$out" | grep -q "_kib	"
t=$?
out2=$("$BIN/bench-buddy" workload work=glibc-simple threads=2 iters=3000 \
	memory=1 2>&1)
[ $t -eq 0 ] && printf '%s\n' "$out2" | grep -q "	peak_pages_kib	1	" &&
	printf '%s\n' "$out2" | grep -q "	peak_rss_kib	1	" &&
	! printf '%s\n' "$out2" | grep -q "	time_ms	"
result $? "workload: time alone, or with memory=1 memory alone" "$out $out2"

log=$(python3 "$HERE/run.py" "$BIN" "$OUT" --smoke 2>&1)
result $? "a tiny run of every scenario and allocator completes" "$log"

msg=$(well_formed "$OUT/raw.tsv" 2>&1)
result $? "every sample line is well formed" "$msg"

# The probe that makes RAM present must leave the timed hand-off with
# (almost) none of the page faults the sparse one takes.
msg=$(awk -F'\t' '$5 == "minor_faults" { f[$1 " " $2] = $7 }
	END {
		for (k in f) if (k ~ / handoff$/) {
			split(k, a, " "); p = f[a[1] " handoff-present"]
			if (p == "" || p * 10 > f[k]) {
				print a[1] ": " f[k] " faults sparse, " p " present"; bad = 1
			}
		}
		exit bad
	}' "$OUT/raw.tsv" 2>&1)
result $? "the hand-off with RAM present takes almost no page faults" "$msg"

log=$(python3 "$HERE/report.py" "$OUT" 2>&1)
[ $? -eq 0 ] && [ -s "$OUT/performance-orders.png" ] &&
	[ -s "$OUT/performance-handoff.png" ]
result $? "the report and both plots are made" "$log"

# Each table row the report must carry: all orders of the order-15 build,
# the hand-off row and a verdict for every target.
msg=""
for want in "| 15 (128 MiB) |" "hand-off of 64 GiB" "metadata ≤ 1 byte" \
	"order-0 alloc+free pair ≤ 10 ns" "fragmented heap within 3×" \
	"faster than glibc, jemalloc and mimalloc at every order" \
	"kmalloc+kfree ≤ 3 ns up to 256 bytes" "| larson |" \
	"hand-off of 64 GiB in 4 nodes ≤ 20 ms" "on a 2-node heap no slower" \
	"| allocator | 1 node, ns per pair | 2 nodes, ns per pair |" \
	"alloc_contig_pages(1 GiB), fragmented heap, µs" \
	"order-0 pairs: throughput per thread at 2 threads" \
	"order-3 cross frees, on two CPUs: throughput per thread"; do
	grep -qF "$want" "$OUT/performance.md" 2>/dev/null || msg="$msg missing: $want;"
done
# Figures the report reads from runs of their own variant, which a
# mismatch between run.py and report.py would leave as a dash: the ring
# alone and the machine's speed.
for want in "cross frees less the ring alone \([0-9.]+ ns\)" \
	"^\| speed: .*\| [0-9.]+ \([0-9.]+–[0-9.]+\) ns per iteration \|"; do
	grep -qE "$want" "$OUT/performance.md" 2>/dev/null || msg="$msg missing: $want;"
done
[ -z "$msg" ]; result $? "the report has every order and every target" "$msg"

ktap_finish
