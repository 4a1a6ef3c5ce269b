#!/bin/sh
# scan-dtbs.sh - run memmap over every DTB under a folder (for example the
# ~570 of Debian's arm64 linux-image package), classify the exit statuses,
# and check each against dtc's reading with dtb_expect.py. Not part of
# `make test`: it needs the package, which is large.
#
# usage: scan-dtbs.sh MEMMAP DIR
#   Getting the DTBs (as root, on Debian 12):
#     dpkg --add-architecture arm64 && apt-get update
#     apt-get download linux-image-6.1.0-50-arm64:arm64   # see apt-cache search
#     dpkg-deb -x linux-image-*.deb /tmp/dtbs
#     tests/host/boot/scan-dtbs.sh build/host/asan/memmap /tmp/dtbs
set -u
memmap=${1:?usage: scan-dtbs.sh MEMMAP DIR}
dir=${2:?usage: scan-dtbs.sh MEMMAP DIR}
list=$(mktemp)
trap 'rm -f "$list"' EXIT
find "$dir" -name '*.dtb' | sort > "$list"

ok=0 malformed=0 nomem=0 other=0
while read -r f; do
	"$memmap" --regions "$f" >/dev/null 2>&1
	rc=$?
	case $rc in
	0) ok=$((ok + 1)) ;;
	1) malformed=$((malformed + 1)); echo "exit 1: $f" ;;
	2) nomem=$((nomem + 1)) ;;
	*) other=$((other + 1)); echo "CRASH (exit $rc): $f" ;;
	esac
done < "$list"
echo "# $(wc -l < "$list") DTBs: $ok read (exit 0), $nomem with no usable" \
     "memory (exit 2), $malformed malformed (exit 1), $other crashed"

# Then every one against dtc's independent reading.
xargs python3 "$(dirname "$0")/dtb_expect.py" "$memmap" < "$list" |
	grep -v '^ok ' || true
[ "$other" -eq 0 ]
