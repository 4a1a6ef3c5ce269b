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
# A position-independent executable that relocates itself (entry.S), so
# that the raw Image runs wherever a loader puts it. -z notext: the
# pointers in .rodata, .selftests and the fixup table are relocated at
# boot, though those sections are read-only to the linker.
ARCH_CFLAGS	+= -fpie
ARCH_LDFLAGS	:= -Wl,-pie -Wl,--no-dynamic-linker -Wl,-z,notext
ARCH_SRCS	:= $(sort $(wildcard arch/riscv64/*.S arch/riscv64/*.c))
# The raw Image with a Linux boot header (entry.S), for booti and -kernel.
ARCH_IMAGES	:= $(BUILD_DIR)/Image

# Debian packages to build and boot this target: packages.mk.
ARCH_PACKAGES	= $(PACKAGES_riscv64)

# `-bios default` is QEMU's bundled OpenSBI (fw_dynamic); it starts the
# kernel in S-mode at its ELF entry with a0 = boot hart, a1 = DTB. The
# sifive_test exit device is part of `virt`: nothing to add for it.
QEMU		:= qemu-system-riscv64
QEMU_MACHINE_ARGS := -M virt -bios default
QEMU_KERNEL_ARGS = -kernel $(KERNEL_ELF)
# BOOT=uboot (mk/uboot.mk): OpenSBI, as above, starts Debian's S-mode
# U-Boot for QEMU as its payload (at 0x80200000, a0/a1 as for a kernel),
# and U-Boot boots the Image from a disk with booti. Its environment
# loads to fixed addresses up to 0x8c300000 (scriptaddr 0x8c100000), so
# RAM must reach past them: 256 MiB at least.
UBOOT_ARCH	:= riscv
UBOOT_MIN_MEM_MIB := 256
QEMU_UBOOT_ARGS	:= -kernel /usr/lib/u-boot/qemu-riscv64_smode/u-boot.bin


$(BUILD_DIR)/Image: $(KERNEL_ELF)
	$(Q)echo "  IMAGE   $@"
	$(Q)$(OBJCOPY) -O binary $< $@

# TCG boots in well under a second; the budget covers whole-memory tests on
# a loaded machine.
# The default guest memory in MiB, per page size (make run, the matrix):
# room for four blocks of the default MAX_PAGE_ORDER (<asm/geometry.h>)
# and at least 128 MiB. tests/host/mm/build-checks.sh checks the figures
# against the header.
QEMU_DEFAULT_MEM_MIB_4K := 128
QEMU_TIMEOUT	:= 120
GDB_ARCH	:= riscv:rv64
