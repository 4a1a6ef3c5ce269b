# arch.mk - aarch64: how to build it, what it needs, how QEMU boots it.
#
# The kernel runs at EL1 on QEMU's `virt` machine, entered at EL1 or EL2.
# See arch/aarch64/entry.S for the boot contract.

# The machine booted unless BOARD= says otherwise: boards/aarch64/.
# The page sizes this target builds with (mk/config.mk refuses others).
PAGE_SIZES	:= 4K 16K 64K
DEFAULT_BOARD	:= virt

CROSS_COMPILE	?= aarch64-linux-gnu-

# general-regs-only: FP/SIMD traps at entry (CPACR_EL1 = 0), and gcc would
# otherwise use it for copies. no-outline-atomics: gcc 12 calls libgcc
# helpers that need __getauxval. strict-align: with the MMU off, memory is
# Device memory, where an unaligned access faults.
ARCH_CFLAGS	:= -mgeneral-regs-only -mno-outline-atomics -mstrict-align \
		   -fno-asynchronous-unwind-tables -fno-unwind-tables
ARCH_ASFLAGS	:=
# A position-independent executable that relocates itself (entry.S), so
# that the raw Image runs wherever a loader puts it. -z notext: the
# pointers in .rodata, .selftests and the fixup table are relocated at
# boot, though those sections are read-only to the linker.
ARCH_CFLAGS	+= -fpie
ARCH_LDFLAGS	:= -Wl,-pie -Wl,--no-dynamic-linker -Wl,-z,notext
ARCH_SRCS	:= $(sort $(wildcard arch/aarch64/*.S arch/aarch64/*.c)) \
		   boot/efi/efi_main.c
# The raw Image with a Linux boot header (entry.S), for booti and -kernel.
ARCH_IMAGES	:= $(BUILD_DIR)/Image

# Debian packages to build and boot this target: packages.mk.
ARCH_PACKAGES	= $(PACKAGES_aarch64)

# The CPU model: cortex-a57, a real core, for 4K and 64K pages; it has no
# 16K translation granule (ID_AA64MMFR0_EL1.TGran16 = 0), so 16K pages run
# on `max`, which has all three.
# Semihosting carries the exit status (arch/aarch64/poweroff.S);
# target=native keeps it in QEMU even with gdb attached (make debug).
qemu_cpu_4K	:= cortex-a57
qemu_cpu_16K	:= max
qemu_cpu_64K	:= cortex-a57
QEMU		:= qemu-system-aarch64
# A board whose SoC fixes the core says which (BOARD_CPU: QEMU ignores
# -cpu there), and may load the kernel its own way (BOARD_KERNEL_ARGS).
QEMU_MACHINE_ARGS := $(BOARD_QEMU_ARGS) \
		     -cpu $(or $(BOARD_CPU),$(qemu_cpu_$(PAGE_SIZE))) \
		     -semihosting-config enable=on,target=native
QEMU_KERNEL_ARGS = $(or $(BOARD_KERNEL_ARGS),-kernel $(KERNEL_ELF))
# BOOT=uboot (mk/uboot.mk): Debian's U-Boot for QEMU as the firmware, at
# EL1 (virt without virtualization=on has no EL2 for it), booting the
# Image from a disk with booti; x0 = the device tree.
UBOOT_ARCH	:= arm64
QEMU_UBOOT_ARGS	:= -bios /usr/lib/u-boot/qemu_arm64/u-boot.bin
# BOOT=efi (mk/efi.mk): AAVMF (Debian's qemu-efi-aarch64, EDK2's
# ArmVirtQemu) boots EFI/BOOT/BOOTAA64.EFI, which is the Image itself: its
# header is a PE32+ header too (efi_header.S). acpi=off: with ACPI tables
# AAVMF hands over those instead of the device tree; QEMU_EXTRA="-M
# virt,acpi=on" boots that way (arch/aarch64/acpi.c, the -acpi- lines).
EFI_IMAGE_NAME	:= BOOTAA64.EFI
EFI_IMAGE_FROM	:= $(BUILD_DIR)/Image
EFI_PACKAGES	:= qemu-efi-aarch64
QEMU_EFI_ARGS	:= -M virt,acpi=off \
		   -drive if=pflash,format=raw,unit=0,readonly=on,file=/usr/share/AAVMF/AAVMF_CODE.fd \
		   -drive if=pflash,format=raw,unit=1,snapshot=on,file=/usr/share/AAVMF/AAVMF_VARS.fd


$(BUILD_DIR)/Image: $(KERNEL_ELF)
	$(Q)echo "  IMAGE   $@"
	$(Q)$(OBJCOPY) -O binary $< $@

# TCG boots in a second or two; the budget covers whole-memory tests on a
# loaded machine.
# The default guest memory in MiB, per page size (make run, the matrix):
# room for four blocks of the default MAX_PAGE_ORDER (<asm/geometry.h>)
# and at least 128 MiB: 64K pages have 512 MiB top blocks. tests/host/mm/build-checks.sh checks the figures
# against the header.
QEMU_DEFAULT_MEM_MIB_4K := 128
QEMU_DEFAULT_MEM_MIB_16K := 128
QEMU_DEFAULT_MEM_MIB_64K := 2048
QEMU_TIMEOUT	:= 120
GDB_ARCH	:= aarch64
