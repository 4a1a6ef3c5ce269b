# shellcheck shell=sh
# ktap.sh - the one KTAP emitter of buddyboot's shell scripts (the C one is
# lib/ktap.c, the Python one KtapWriter in tests/runner/ktap.py).
#
# Source it, report each case, finish:
#   . tests/lib/ktap.sh
#   ktap_diag "what happened"         # a "# " line before the next result
#   ktap_result ok|fail NAME          # one case
#   ktap_skip NAME REASON             # one case that could not run here
#   ktap_finish                       # prints everything; status 0 iff all ok
#
# The plan is counted, never written by hand: results are kept until
# ktap_finish, which prints the header, "1..N" and then the lines in order.
# A script that reports no case prints "1..0", which the runner fails.

ktap_lines=$(mktemp)
ktap_n=0
ktap_failed=0

# ktap_diag TEXT...: each line of TEXT as a diagnostic
ktap_diag() {
	printf '%s\n' "$*" | sed 's/^/# /' >>"$ktap_lines"
}

# ktap_result ok|fail NAME
ktap_result() {
	ktap_n=$((ktap_n + 1))
	if [ "$1" = ok ]; then
		echo "ok $ktap_n $2" >>"$ktap_lines"
	else
		ktap_failed=$((ktap_failed + 1))
		echo "not ok $ktap_n $2" >>"$ktap_lines"
	fi
}

# ktap_skip NAME REASON: a case that could not run here ("ok N NAME # SKIP")
ktap_skip() {
	ktap_n=$((ktap_n + 1))
	echo "ok $ktap_n $1 # SKIP $2" >>"$ktap_lines"
}

# ktap_finish: print the report; return 0 iff every case passed
ktap_finish() {
	echo "KTAP version 1"
	echo "1..$ktap_n"
	cat "$ktap_lines"
	rm -f "$ktap_lines"
	echo "# $((ktap_n - ktap_failed)) passed, $ktap_failed failed"
	[ "$ktap_failed" -eq 0 ] && [ "$ktap_n" -gt 0 ]
}
