# arch.mk - aarch64: how to build it, what it needs, how QEMU boots it.
#
# The kernel runs at EL1 on QEMU's `virt` machine, entered at EL1 or EL2.
# See arch/aarch64/entry.S for the boot contract.

CROSS_COMPILE	?= aarch64-linux-gnu-

# general-regs-only: FP/SIMD traps at entry (CPACR_EL1 = 0), and gcc would
# otherwise use it for copies. no-outline-atomics: gcc 12 calls libgcc
# helpers that need __getauxval. strict-align: with the MMU off, memory is
# Device memory, where an unaligned access faults.
ARCH_CFLAGS	:= -mgeneral-regs-only -mno-outline-atomics -mstrict-align \
		   -fno-asynchronous-unwind-tables -fno-unwind-tables
ARCH_ASFLAGS	:=
ARCH_LDFLAGS	:=
ARCH_SRCS	:= $(sort $(wildcard arch/aarch64/*.S arch/aarch64/*.c))
ARCH_IMAGES	:=

# Debian packages to build and boot this target.
ARCH_PACKAGES	:= gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu \
		   qemu-system-arm

# The CPU model: cortex-a57, a real core, for 4K and 64K pages; it has no
# 16K translation granule (ID_AA64MMFR0_EL1.TGran16 = 0), so 16K pages run
# on `max`, which has all three.
# Semihosting carries the exit status (arch/aarch64/poweroff.S);
# target=native keeps it in QEMU even with gdb attached (make debug).
qemu_cpu_4K	:= cortex-a57
qemu_cpu_16K	:= max
qemu_cpu_64K	:= cortex-a57
QEMU		:= qemu-system-aarch64
QEMU_MACHINE_ARGS := -M virt -cpu $(qemu_cpu_$(PAGE_SIZE)) \
		     -semihosting-config enable=on,target=native
QEMU_KERNEL_ARGS = -kernel $(KERNEL_ELF)

# Enough RAM for the selftests to find a free block of the largest order:
# four blocks of that size (the image, the DTB wherever the loader put it,
# the allocator's metadata, and one free), at least 128 MiB. The largest
# order is the build's or <asm/geometry.h>'s default: 512 MiB blocks with
# 64K pages make that 2G.
top_order = $(or $(MAX_PAGE_ORDER),$(shell printf '\043include <asm/geometry.h>\nARCH_DEFAULT_MAX_PAGE_ORDER\n' | \
	$(CC) -E -P -x c -Iarch/$(ARCH)/include -DCONFIG_PAGE_SHIFT=$(PAGE_SHIFT) - | tail -n 1))
QEMU_DEFAULT_MEM = $(shell m=$$((4 << ($(PAGE_SHIFT) + $(top_order) - 20))); echo $$((m > 128 ? m : 128))M)

# TCG boots in a second or two; the budget covers whole-memory tests on a
# loaded machine.
QEMU_TIMEOUT	:= 120
GDB_ARCH	:= aarch64
