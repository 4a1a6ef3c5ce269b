#!/bin/sh
# fuzz-ktap.sh NAME BINARY SECONDS [CORPUS_DIR]
#
# Run a libFuzzer binary for SECONDS and report the verdict as KTAP
# version 1 (one case, NAME), for the test runner. The fuzzer's own output
# is kept in a log beside the corpus (or in a temporary file); on failure
# its tail is printed as diagnostics, with the crash input's path.
# Exit status: 0 when the fuzzer found nothing, 1 otherwise.
set -u

if [ $# -lt 3 ]; then
	echo "usage: $0 NAME BINARY SECONDS [CORPUS_DIR]" >&2
	exit 2
fi
name=$1 binary=$2 seconds=$3 corpus=${4:-}
# shellcheck source=tests/lib/ktap.sh
. "$(dirname "$0")/../lib/ktap.sh"

if [ ! -x "$binary" ]; then
	ktap_diag "$binary is missing; build it first"
	ktap_result fail "$name"
	ktap_finish
	exit 1
fi
if [ -n "$corpus" ]; then
	mkdir -p "$corpus"
	log="$corpus.log"
	artifacts="$corpus.crashes/"
	mkdir -p "$artifacts"
else
	log=$(mktemp)
	artifacts="./"
fi

"$binary" -max_total_time="$seconds" -print_final_stats=1 \
	-artifact_prefix="$artifacts" ${corpus:+"$corpus"} >"$log" 2>&1
status=$?

runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
ktap_diag "$name: ${runs:-0} inputs in ${seconds}s, exit status $status"
if [ "$status" -eq 0 ]; then
	ktap_result ok "$name"
	[ -z "$corpus" ] && rm -f "$log"
	ktap_finish
	exit
fi
ktap_diag "$(tail -n 30 "$log")"
ktap_diag "full log: $log"
ktap_result fail "$name"
ktap_finish
exit 1
