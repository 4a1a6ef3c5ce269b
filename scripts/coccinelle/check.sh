#!/bin/sh
# check.sh - run every semantic patch in scripts/coccinelle/ and print KTAP.
#
# For each rule R.cocci, two cases:
#   R_tree_clean     no hit anywhere in the tree (build/ and the known-bad
#                    samples excluded);
#   R_flags_sample   on tests/coccinelle-samples/<R>.c the hits are exactly
#                    the lines marked "BAD", so the rule is proven able to
#                    fail and not to over-reach.
# Run from the top of the tree. Exit status 0 iff every case passed.
set -u
cd "$(dirname "$0")/../.." || exit 1

# shellcheck source=tests/lib/ktap.sh
. tests/lib/ktap.sh
rules=$(ls scripts/coccinelle/*.cocci)
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)

result() {	# result OK NAME [diagnostics file]
	if [ "$1" != ok ] && [ -n "${3:-}" ]; then
		ktap_diag "$(cat "$3")"
	fi
	ktap_result "$1" "$2"
}

if ! command -v spatch >/dev/null; then
	ktap_diag "spatch is missing: apt-get install coccinelle"
	ktap_result fail spatch_present
	ktap_finish
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for rule in $rules; do
	name=$(basename "$rule" .cocci)
	spatch --very-quiet --sp-file "$rule" --dir . -j "$jobs" >"$tmp/all" 2>"$tmp/err"
	grep -v -e '^\./build/' -e 'coccinelle-samples/' "$tmp/all" >"$tmp/tree"
	if [ -s "$tmp/tree" ]; then
		result fail "${name}_tree_clean" "$tmp/tree"
	else
		result ok "${name}_tree_clean"
	fi

	sample=tests/coccinelle-samples/$name.c
	if [ ! -f "$sample" ]; then
		echo "no sample $sample" >"$tmp/why"
		result fail "${name}_flags_sample" "$tmp/why"
		continue
	fi
	grep -nF '/* BAD */' "$sample" | cut -d: -f1 | sort -n >"$tmp/want"
	spatch --very-quiet --sp-file "$rule" "$sample" 2>"$tmp/err" |
		cut -d: -f2 | sort -n | uniq >"$tmp/got"
	if [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got"; then
		result ok "${name}_flags_sample"
	else
		{ echo "$sample: BAD lines:"; cat "$tmp/want";
		  echo "flagged lines:"; cat "$tmp/got"; cat "$tmp/err"; } >"$tmp/why"
		result fail "${name}_flags_sample" "$tmp/why"
	fi
done
ktap_finish
