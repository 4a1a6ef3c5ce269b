# arch.mk - riscv64: how to build it, what it needs, how QEMU boots it.
#
# The kernel runs in S-mode under OpenSBI on QEMU's `virt` machine, with the
# MMU off (satp = 0). See arch/riscv64/entry.S for the boot contract.

CROSS_COMPILE	?= riscv64-linux-gnu-

# medany: the image is linked at 0x80200000, beyond medlow's +-2 GiB of 0.
# rv64imac_zicsr: no F/D (the kernel never touches FP state); zicsr is a
# separate extension for gcc 12, which rejects csrr without it.
ARCH_CFLAGS	:= -mcmodel=medany -march=rv64imac_zicsr -mabi=lp64 \
		   -fno-asynchronous-unwind-tables -fno-unwind-tables
ARCH_ASFLAGS	:=
ARCH_LDFLAGS	:=
ARCH_SRCS	:= $(sort $(wildcard arch/riscv64/*.S arch/riscv64/*.c))
ARCH_IMAGES	:=

# Debian packages to build and boot this target.
ARCH_PACKAGES	:= gcc-riscv64-linux-gnu binutils-riscv64-linux-gnu \
		   qemu-system-misc opensbi

# `-bios default` is QEMU's bundled OpenSBI (fw_dynamic); it starts the
# kernel in S-mode at its ELF entry with a0 = boot hart, a1 = DTB. The
# sifive_test exit device is part of `virt`: nothing to add for it.
QEMU		:= qemu-system-riscv64
QEMU_MACHINE_ARGS := -M virt -bios default
QEMU_KERNEL_ARGS = -kernel $(KERNEL_ELF)

# Enough RAM for the selftests to find a free block of the largest order:
# four blocks of that size (OpenSBI and the image, the DTB at the top of
# RAM, the allocator's metadata, and one free), at least 128 MiB. The
# largest order is the build's or <asm/geometry.h>'s default.
top_order = $(or $(MAX_PAGE_ORDER),$(shell printf '\043include <asm/geometry.h>\nARCH_DEFAULT_MAX_PAGE_ORDER\n' | \
	$(CC) -E -P -x c -Iarch/$(ARCH)/include -DCONFIG_PAGE_SHIFT=$(PAGE_SHIFT) - | tail -n 1))
QEMU_DEFAULT_MEM = $(shell m=$$((4 << ($(PAGE_SHIFT) + $(top_order) - 20))); echo $$((m > 128 ? m : 128))M)

# TCG boots in well under a second; the budget covers whole-memory tests on
# a loaded machine.
QEMU_TIMEOUT	:= 120
GDB_ARCH	:= riscv:rv64
