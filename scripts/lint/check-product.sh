#!/bin/sh
# check-product.sh - the product links without its tests (`make check`).
#
# For every target, builds the image without tests (SELFTESTS=0: the
# product sources and boot/variant/product.c, mk/kernel.mk) and reads its
# symbol table: no symbol of the test harness, of a case, of the bench or
# of the arch test services may be in it. check-paths proves the product
# includes no test header; this proves it also calls no test code through
# a declaration of its own, and that the build leaves the tests out.
#
# Not counted: __selftests_start and __selftests_end, which every linker
# script defines around the (here empty) case registry, and the hook
# boot_selftests() itself, which the product variant defines.
# The ELF is linked afresh each time: make relinks when an object changes,
# not when one leaves the list. The product compiles into its test image's
# object tree (OBJ_DIR, mk/config.mk), which matrix lines may be building
# at the same time: the make runs under the runner's lock on that tree.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib/ktap.sh
. tests/lib/ktap.sh
JOBS=${JOBS:-1}
TEST_SYMBOLS='selftest|arch_counter|arch_firmware_version|boot_state|bench_|buddy_check|integrity_|seed_'

for arch in $(make -s print-arches); do
	log=$(mktemp)
	dir=$(make -s ARCH="$arch" SELFTESTS=0 print-build-dir)
	objdir=$(make -s ARCH="$arch" SELFTESTS=0 print-obj-dir)
	rm -f "$dir/buddyboot.elf"
	if ! tests/runner/build-lock "$objdir" \
	     make -s -j"$JOBS" ARCH="$arch" SELFTESTS=0 >"$log" 2>&1; then
		ktap_diag "$(tail -n 20 "$log")"
		ktap_result fail "product_builds_$arch"
		rm -f "$log"
		continue
	fi
	rm -f "$log"
	found=$(readelf -sW "$dir/buddyboot.elf" | awk '{ print $8 }' |
		grep -E "$TEST_SYMBOLS" |
		grep -vxE '__selftests_(start|end)|boot_selftests' | sort -u)
	if [ -n "$found" ]; then
		ktap_diag "test symbols in $dir/buddyboot.elf:" "$found"
		ktap_result fail "product_has_no_tests_$arch"
	else
		ktap_result ok "product_has_no_tests_$arch"
	fi
done
ktap_finish
