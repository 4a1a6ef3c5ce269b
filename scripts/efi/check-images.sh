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

	# Nothing the image runs or reads sits in the headers' region past
	# the header structures: a UEFI loader copies the sections, and of
	# the headers' region only the structures (U-Boot's loader copies
	# the DOS, NT and section headers, no more). For the images that are
	# the kernel itself (linker/image.lds.S); x86_64's is a stub that
	# ld writes as PE32+, with no code of ours among its headers.
	elf=$($mk ARCH="$arch" PAGE_SIZE=4K print-qemu | sed -n 's/^KERNEL_ELF=//p')
	if [ "$arch" = x86_64 ]; then
		ktap_skip "nothing_in_header_gap_$arch" "ld's own PE32+ stub"
	else
	# shellcheck disable=SC2086
	out=$($objdump -t "$elf" | python3 -c '
import sys
syms = {}
for line in sys.stdin:
    f = line.split()
    if len(f) >= 5 and f[-2] != "*ABS*" and len(f[0]) == 16:
        try:
            syms.setdefault(f[-1], int(f[0], 16))
        except ValueError:
            pass
base, text = syms["_start"], syms["__pe_text_start"]
pe, pe_end = syms["pe_header"], syms["pe_header_end"]
# The Image header (64 bytes, the DOS header), then the PE headers, which
# a loader that copies sizeof(DOS header) + the NT and section headers
# from the start finds whole only if they follow it at once.
gap = sorted((a, n) for n, a in syms.items()
             if base + 64 <= a < text and not pe <= a < pe_end and
             n not in ("pe_header_end", "__pe_text_start"))
print("Image header +0..+0x40, PE headers +%#x..+%#x, sections from +%#x" %
      (pe - base, pe_end - base, text - base))
for a, n in gap:
    print("in the headers region, not a header: %s at +%#x" % (n, a - base))
sys.exit(1 if gap or pe != base + 64 else 0)')
	rc=$?
	ktap_diag "$out"
	result $rc "nothing_in_header_gap_$arch"
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
