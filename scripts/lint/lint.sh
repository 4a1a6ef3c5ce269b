#!/bin/sh
# lint.sh - shellcheck on every shell script and pyflakes on every Python
# program the tree tracks, one KTAP case per file (`make check`).
#
# Shell scripts: *.sh and files whose first line is a sh or bash shebang;
# Python: *.py and files with a python3 shebang (tests/runner/bbtest).
# Sourced files are followed (shellcheck -x); paths resolve from the top.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib/ktap.sh
. tests/lib/ktap.sh
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# kind FILE: "sh", "py" or nothing
kind() {
	case $1 in
	*.sh) echo sh; return ;;
	*.py) echo py; return ;;
	esac
	case $(head -n 1 "$1" 2>/dev/null | tr -d '\0') in
	'#!/bin/sh'* | '#!/bin/bash'* | '#!/usr/bin/env bash'*) echo sh ;;
	'#!/usr/bin/env python3'* | '#!/usr/bin/python3'*) echo py ;;
	esac
}

git ls-files >"$tmp.list"
while read -r f; do
	[ -f "$f" ] || continue
	case $(kind "$f") in
	sh) shellcheck -x -f gcc "$f" >"$tmp" 2>&1; status=$?; what=shellcheck ;;
	py) pyflakes3 "$f" >"$tmp" 2>&1; status=$?; what=pyflakes ;;
	*) continue ;;
	esac
	if [ "$status" -eq 0 ]; then
		ktap_result ok "${what}_$f"
	else
		ktap_diag "$(head -n 20 "$tmp")"
		ktap_result fail "${what}_$f"
	fi
done <"$tmp.list"
rm -f "$tmp.list"
ktap_finish
