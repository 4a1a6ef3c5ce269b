#!/bin/sh
# check-images.sh - every target's EFI image is a PE32+ EFI application
# whose headers agree with themselves (scripts/efi/pecheck.py) and that
# binutils reads where it has the format (objdump -p); and the checker
# refuses a copy with a broken header, so that it can fail. KTAP.
#
#   scripts/efi/check-images.sh     (from the top of the tree)
set -u

# The test images' own trees, which make test's matrix lines build in
# parallel: each build runs under the runner's lock on the tree
# (tests/runner/build-lock), and finds it built already when a line was
# first. $mk and $objdump are command lines, split into words on purpose.
# shellcheck disable=SC2086
mk="make -s --no-print-directory"
arches=$($mk print-arches)
# shellcheck source=tests/lib/ktap.sh
. tests/lib/ktap.sh
result() {	# result STATUS NAME
	if [ "$1" = 0 ]; then ktap_result ok "$2"; else ktap_result fail "$2"; fi
}
for arch in $arches; do
	img=$($mk ARCH="$arch" PAGE_SIZE=4K print-efi-image)
	[ -n "$img" ] || continue
	objdir=$($mk ARCH="$arch" PAGE_SIZE=4K print-obj-dir)
	# shellcheck disable=SC2086
	out=$(tests/runner/build-lock "$objdir" \
	      $mk ARCH="$arch" PAGE_SIZE=4K "$img" 2>&1 &&
	      python3 scripts/efi/pecheck.py --machine "$arch" "$img")
	rc=$?
	ktap_diag "$out"
	result $rc "pe_headers_$arch"

	objdump=$($mk ARCH="$arch" PAGE_SIZE=4K print-objdump)
	if $objdump -p "$img" >/dev/null 2>&1; then
		ktap_diag "$($objdump -p "$img" |
			grep -E '^(Magic|Subsystem|SectionAlignment|FileAlignment)' |
			sed 's/^/objdump: /')"
		result 0 "objdump_reads_$arch"
	elif $objdump --help | grep -q 'supported targets:.*pei-'; then
		ktap_diag "$($objdump -p "$img" 2>&1)"
		result 1 "objdump_reads_$arch"
	else
		ktap_skip "objdump_reads_$arch" "$objdump has no PE format for $arch"
	fi

	bad=$(mktemp)
	# Subsystem 3 (a Windows console program) at offset e_lfanew + 24 + 68.
	python3 - "$img" "$bad" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], 'rb').read())
pe = struct.unpack_from('<I', data, 0x3c)[0]
struct.pack_into('<H', data, pe + 24 + 68, 3)
open(sys.argv[2], 'wb').write(data)
PY
	out=$(python3 scripts/efi/pecheck.py --machine "$arch" "$bad")
	rc=$?
	ktap_diag "broken copy: $out"
	rm -f "$bad"
	[ $rc -ne 0 ] && echo "$out" | grep -q 'subsystem 3'
	result $? "pecheck_refuses_broken_$arch"
done
ktap_finish
