#!/bin/sh
# build-checks.sh - compile-time promises of the memory core, as KTAP:
#   - mm/ compiles freestanding (-nostdinc, no libc, the arch contract
#     only) with each cross compiler and page size, at the default
#     MAX_PAGE_ORDER and at the largest (the front end: see build_mm),
#     and tests/matrix.txt boots each of those geometries, which compiles
#     mm/ at -O2 there;
#   - an impossible geometry fails with a sentence saying why;
#   - the old name (MAX_ + ORDER) does not compile;
#   - make refuses a MAX_PAGE_ORDER that is not a decimal number, with a
#     sentence (010 would otherwise be read as octal by the compiler);
#   - make's defaults: the guest memory, and the CPUs a boot must bring
#     online (never more than NR_CPUS);
#   - make refuses what a board's QEMU model cannot run (a boot path, a
#     page size, a CPU count), with a sentence.
# Run from anywhere; exit status 0 iff every case passed.
set -u
cd "$(dirname "$0")/../../.." || exit 1

WARN="-std=gnu11 -O2 -Wall -Wextra -Werror -Wshadow -Wundef -Wstrict-prototypes \
 -Wmissing-prototypes -Wno-unused-parameter -ffreestanding -fno-builtin"
# shellcheck source=tests/lib/ktap.sh
. tests/lib/ktap.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

result() {	# result ok|fail NAME: on a failure, the log as diagnostics
	[ "$1" = ok ] || ktap_diag "$(head -n 20 "$tmp/log")"
	ktap_result "$1" "$2"
}

# Every port, from arch/*/arch.mk (make print-arches, print-port): its
# compiler, its flags and its page sizes, so that a new target is checked
# without an edit here.
ARCHES=$(make -s --no-print-directory print-arches)
for arch in $ARCHES; do
	make -s --no-print-directory ARCH="$arch" print-port >"$tmp/port-$arch"
done
port() {	# port ARCH CC|ARCH_CFLAGS|PAGE_SIZES
	sed -n "s/^$2=//p" "$tmp/port-$1"
}
page_shift() {	# page_shift 4K|16K|64K
	case $1 in 4K) echo 12 ;; 16K) echo 14 ;; 64K) echo 16 ;; esac
}

# kcc ARCH PAGE_SHIFT [extra flags...]: the kernel's freestanding compile
kcc() {
	arch=$1 shift_=$2
	shift 2
	cc=$(port "$arch" CC)
	af=$(port "$arch" ARCH_CFLAGS)
	# shellcheck disable=SC2086
	$cc -nostdinc -isystem "$($cc -print-file-name=include)" -Iinclude \
		-Iarch/$arch/include -U__linux__ -Ulinux -D__buddyboot__ \
		-DCONFIG_PAGE_SHIFT="$shift_" $WARN $af "$@"
}

# geometry ARCH PAGE_SHIFT MACRO: a number <asm/geometry.h> states
geometry() {
	printf '#include <asm/geometry.h>\n%s\n' "$3" |
		cc -E -P -x c -Iinclude -I"arch/$1/include" \
			-DCONFIG_PAGE_SHIFT="$2" - 2>>"$tmp/log" | tail -n 1
}

# build_mm NAME syntax|object ARCH PAGE_SHIFT [flags]: every mm/*.c must
# compile. What this adds to the kernel's own builds is the front end's
# verdict without -Iarch/<arch> (mm/ sees the arch contract only) and at
# each geometry: headers, prototypes, types, static assertions. The
# optimizer's warnings come from the QEMU matrix, which compiles mm/ at -O2
# with these warnings for every port and page size at the default and the
# largest order (tests/matrix.txt); so those geometries are checked with
# -fsyntax-only (seconds, not a minute), and one the matrix does not build
# is compiled to objects.
build_mm() {
	name=$1 mode=$2
	shift 2
	: >"$tmp/log"
	ok=ok
	for src in mm/*.c; do
		if [ "$mode" = syntax ]; then
			kcc "$@" -fsyntax-only "$src" >>"$tmp/log" 2>&1 || ok=fail
		else
			kcc "$@" -c "$src" -o "$tmp/out.o" >>"$tmp/log" 2>&1 ||
				ok=fail
		fi
	done
	result $ok "$name"
}

# refused NAME "expected words" ARCH PAGE_SHIFT [flags]: compile must fail
refused() {
	name=$1 words=$2
	shift 2
	printf '#include <mm/page_order.h>\nint x[NR_PAGE_ORDERS];\n' >"$tmp/g.c"
	if kcc "$@" -c "$tmp/g.c" -o "$tmp/out.o" >"$tmp/log" 2>&1; then
		echo "compiled, but should have been refused" >>"$tmp/log"
		result fail "$name"
	elif grep -qF "$words" "$tmp/log"; then
		result ok "$name"
	else
		echo "refused without saying: $words" >>"$tmp/log"
		result fail "$name"
	fi
}

# in_matrix ARCH PAGE_SIZE [ORDER]: a line of tests/matrix.txt boots that
# geometry (at the default order without ORDER), so compiles mm/ at -O2
# with the kernel's warnings, which build_mm's syntax mode leaves to it.
in_matrix() {
	awk -v a="ARCH=$1" -v p="PAGE_SIZE=$2" -v o="${3:+MAX_PAGE_ORDER=$3}" '
		/^#/ || NF < 2 { next }
		{
			ha = hp = ho = any = 0
			for (i = 2; i <= NF; i++) {
				if ($i == a) ha = 1
				if ($i == p) hp = 1
				if ($i ~ /^MAX_PAGE_ORDER=/) { any = 1; if ($i == o) ho = 1 }
			}
			if (ha && hp && (o == "" ? !any : ho)) found = 1
		}
		END { exit !found }' tests/matrix.txt
}

# Each port at each page size, at its default order and at the largest
# its sections allow (SECTION_SIZE_BITS - PAGE_SHIFT).
for arch in $ARCHES; do
	for ps in $(port "$arch" PAGE_SIZES); do
		s=$(page_shift "$ps")
		top=$(( $(geometry "$arch" "$s" SECTION_SIZE_BITS) - s ))
		build_mm "mm_freestanding_${arch}_$ps" syntax "$arch" "$s"
		build_mm "mm_freestanding_${arch}_${ps}_order$top" syntax \
			"$arch" "$s" -DCONFIG_MAX_PAGE_ORDER="$top"
		echo "tests/matrix.txt boots no $arch $ps line at the default" \
			"order and at $top: mm/ is not compiled at -O2 there" >"$tmp/log"
		if in_matrix "$arch" "$ps" && in_matrix "$arch" "$ps" "$top"; then
			result ok "mm_O2_in_matrix_${arch}_$ps"
		else
			result fail "mm_O2_in_matrix_${arch}_$ps"
		fi
	done
done
refused geometry_riscv64_order16_refused "must not exceed SECTION_SIZE_BITS" \
	riscv64 12 -DCONFIG_MAX_PAGE_ORDER=16
refused geometry_aarch64_16k_order14_refused "must not exceed SECTION_SIZE_BITS" \
	aarch64 14 -DCONFIG_MAX_PAGE_ORDER=14
refused geometry_aarch64_64k_order14_refused "must not exceed SECTION_SIZE_BITS" \
	aarch64 16 -DCONFIG_MAX_PAGE_ORDER=14
refused geometry_negative_order_refused "must be 0 or more" \
	x86_64 12 -DCONFIG_MAX_PAGE_ORDER=-1
# The name is spelt in two halves so that this file never contains it.
printf '#include <mm/page_order.h>\nint x = MAX_%s;\n' ORDER >"$tmp/p.c"
if kcc x86_64 12 -c "$tmp/p.c" -o "$tmp/out.o" >"$tmp/log" 2>&1; then
	result fail max_order_is_poisoned
elif grep -q "poisoned" "$tmp/log"; then
	result ok max_order_is_poisoned
else
	result fail max_order_is_poisoned
fi
printf '#include <mm/mm.h>\nint y(void) { return get_order(1) + MAX_PAGE_ORDER; }\n' >"$tmp/u.c"
if kcc riscv64 12 -Wno-missing-prototypes -c "$tmp/u.c" -o "$tmp/out.o" \
	>"$tmp/log" 2>&1; then
	result ok umbrella_header_freestanding
else
	result fail umbrella_header_freestanding
fi
build_mm mm_freestanding_aarch64_64k_order0 object aarch64 16 \
	-DCONFIG_MAX_PAGE_ORDER=0

# make_refuses NAME VALUE [VARIABLE [WORDS]]: make VARIABLE=VALUE (default
# MAX_PAGE_ORDER) stops with a sentence that says WORDS (default "is
# not a decimal number")
make_refuses() {
	if make -s --no-print-directory "${3:-MAX_PAGE_ORDER}=$2" print-qemu \
		>"$tmp/log" 2>&1; then
		echo "make took ${3:-MAX_PAGE_ORDER}=$2" >>"$tmp/log"
		result fail "$1"
	elif grep -q "${4:-is not a decimal number}" "$tmp/log"; then
		result ok "$1"
	else
		result fail "$1"
	fi
}
make_refuses make_order_octal_refused 010
make_refuses make_order_09_refused 09
make_refuses make_order_hex_refused 0x8
make_refuses make_order_sign_refused +8
make_refuses make_order_word_refused ten
make_refuses make_nr_cpus_octal_refused 010 NR_CPUS
# QEMU would take -smp 0 and -m 0 for its defaults, and say nothing.
make_refuses make_smp_0_refused 0 SMP "SMP=0 is not a number of CPUs"
make_refuses make_smp_word_refused two SMP "SMP=two is not a number of CPUs"
make_refuses make_mem_0_refused 0 MEM "MEM=0 is not a memory size"
make_refuses make_mem_unit_refused 12Q MEM "MEM=12Q is not a memory size"
# Switches: 0 is off, not a build of its own; a word is refused.
make_refuses make_switch_word_refused yes SLAB_DEBUG "SLAB_DEBUG=yes is not a switch"
if make -s --no-print-directory SLAB_DEBUG=0 LOTTERY=0 print-qemu >"$tmp/log" 2>&1 &&
	grep -qx "BUILD_DIR=build/riscv64-4K" "$tmp/log"; then
	result ok make_switch_0_is_off
else
	result fail make_switch_0_is_off
fi
# OpenSBI would wait for a hart the machine lacks.
if ! make -s --no-print-directory ARCH=riscv64 SMP=2 BOOT_HART=5 print-qemu \
	>"$tmp/log" 2>&1 &&
	grep -q "BOOT_HART=5 is not a hart of a machine of SMP=2" "$tmp/log"; then
	result ok make_boot_hart_beyond_smp_refused
else
	result fail make_boot_hart_beyond_smp_refused
fi
if make -s --no-print-directory MAX_PAGE_ORDER=0 print-qemu >"$tmp/log" 2>&1
then
	result ok make_order_0_accepted
else
	result fail make_order_0_accepted
fi
# default_mem ARCH PAGE_SIZE PAGE_SHIFT: the default guest memory its
# arch.mk states is four blocks of <asm/geometry.h>'s default order, and at
# least 128 MiB (mk/qemu.mk)
default_mem() {
	order=$(geometry "$1" "$3" ARCH_DEFAULT_MAX_PAGE_ORDER)
	want=$(( (4 << ($3 + order)) >> 20 ))
	[ "$want" -lt 128 ] && want=128
	got=$(make -s --no-print-directory ARCH="$1" PAGE_SIZE="$2" print-qemu \
		2>>"$tmp/log" | sed -n 's/.* -m \([0-9]*\)M .*/\1/p')
	echo "order $order: want ${want}M, make print-qemu gives ${got}M" >>"$tmp/log"
	if [ "$got" = "$want" ]; then
		result ok "default_mem_$1_$2"
	else
		result fail "default_mem_$1_$2"
	fi
}
for arch in $ARCHES; do
	for ps in $(port "$arch" PAGE_SIZES); do
		default_mem "$arch" "$ps" "$(page_shift "$ps")"
	done
done
# expect_cpus NAME WANT VARIABLES...: the CPUs `make run` expects online
# (mk/qemu.mk): the machine's usable ones, at most NR_CPUS, for the
# kernel keeps the CPUs beyond NR_CPUS parked
expect_cpus() {
	name=$1 want=$2
	shift 2
	got=$(make -s --no-print-directory "$@" print-qemu 2>>"$tmp/log" |
		sed -n 's/^EXPECT_CPUS=//p')
	echo "$*: want EXPECT_CPUS=$want, make print-qemu gives $got" >"$tmp/log"
	if [ "$got" = "$want" ]; then
		result ok "$name"
	else
		result fail "$name"
	fi
}
expect_cpus expect_cpus_smp 4 SMP=4
expect_cpus expect_cpus_beyond_nr_cpus 2 SMP=4 NR_CPUS=2
expect_cpus expect_cpus_board_beyond_nr_cpus 2 ARCH=riscv64 BOARD=sifive_u NR_CPUS=2
expect_cpus expect_cpus_given 3 SMP=4 NR_CPUS=2 EXPECT_CPUS=3
# A MEM that ends before the board's link address is refused by make
# (the image would be loaded outside RAM and the guest hang silently);
# one MiB more is taken.
if ! make -s --no-print-directory ARCH=aarch64 MEM=2M print-qemu \
	>"$tmp/log" 2>&1 && grep -q "MEM=2M ends before the image" "$tmp/log" &&
	make -s --no-print-directory ARCH=aarch64 MEM=3M print-qemu \
	>"$tmp/log" 2>&1; then
	result ok mem_below_the_image_refused
else
	result fail mem_below_the_image_refused
fi
# What a board's QEMU model fixes (mk/qemu.mk): make refuses a boot path
# whose firmware is made for the default board's machine, a page size the
# board's core has no granule for, and a CPU count its device tree does not
# list, saying so; and takes what the board has.
board_refuses() {	# board_refuses NAME MESSAGE VARIABLES...
	name=$1 message=$2
	shift 2
	if ! make -s --no-print-directory "$@" print-qemu >"$tmp/log" 2>&1 &&
		grep -q "$message" "$tmp/log"; then
		result ok "$name"
	else
		echo "make $* print-qemu: want a refusal saying: $message" >>"$tmp/log"
		result fail "$name"
	fi
}
board_accepts() {	# board_accepts NAME VARIABLES...
	name=$1
	shift
	if make -s --no-print-directory "$@" print-qemu >"$tmp/log" 2>&1; then
		result ok "$name"
	else
		result fail "$name"
	fi
}
board_refuses board_boot_efi_refused "BOOT=efi is not a boot path of aarch64 raspi3b; choose one of: direct" \
	ARCH=aarch64 BOARD=raspi3b BOOT=efi
board_refuses board_boot_uboot_refused "BOOT=uboot is not a boot path of riscv64 sifive_u" \
	ARCH=riscv64 BOARD=sifive_u BOOT=uboot
board_accepts board_boot_listed ARCH=x86_64 BOARD=pc BOOT=grub-efi-mb2
board_refuses board_page_size_refused "PAGE_SIZE=16K cannot run on raspi3b: its cortex-a53 has no 16K" \
	ARCH=aarch64 BOARD=raspi3b PAGE_SIZE=16K
board_accepts board_page_size_listed ARCH=aarch64 BOARD=xlnx-zcu102 PAGE_SIZE=64K
board_refuses board_smp_refused "SMP=2 does not match xlnx-zcu102: its device tree lists 4 CPUs" \
	ARCH=aarch64 BOARD=xlnx-zcu102 SMP=2
# Every variable a makefile lets the user set (NAME ?= ...) is in make help.
make -s --no-print-directory help >"$tmp/help" 2>&1
: >"$tmp/log"
sed -n 's/^\([A-Z_][A-Z0-9_]*\)[[:space:]]*?=.*/\1/p' Makefile mk/*.mk \
	arch/*/arch.mk | sort -u | while read -r v; do
	grep -q "^  $v=" "$tmp/help" || echo "make help does not list $v" >>"$tmp/log"
done
if [ -s "$tmp/log" ]; then
	result fail make_help_lists_every_variable
else
	result ok make_help_lists_every_variable
fi
ktap_finish
