# arch.mk - how to build and boot the x86_64 target.
#
# The image is one ELF64 that two loaders start: QEMU's -kernel through the
# PVH ELF note, and GRUB's multiboot2 command (see entry.S). The host gcc
# builds it on an x86_64 host; elsewhere Debian's x86_64-linux-gnu-gcc.

# The machine booted unless BOARD= says otherwise: boards/x86_64/.
# The page sizes this target builds with (mk/config.mk refuses others).
PAGE_SIZES	:= 4K
DEFAULT_BOARD	:= q35

CROSS_COMPILE	?= $(if $(filter x86_64,$(shell uname -m)),,x86_64-linux-gnu-)

# Linked at 1 MiB, identity-mapped, so -mcmodel=small (everything below
# 2 GiB) and no PIC. No red zone: an exception pushes its frame onto the
# interrupted stack. General registers only: SSE is not enabled, and gcc
# would otherwise use it for struct copies.
ARCH_CFLAGS	:= -m64 -march=x86-64 -mcmodel=small -fno-pic \
		   -mno-red-zone -mgeneral-regs-only \
		   -mno-mmx -mno-sse -mno-sse2 -mno-avx \
		   -fno-asynchronous-unwind-tables -fcf-protection=none
ARCH_ASFLAGS	:= -Wa,--noexecstack
ARCH_LDFLAGS	:= -Wl,-z,max-page-size=0x1000 -Wl,--fatal-warnings

ARCH_SRCS	:= $(addprefix arch/x86_64/,entry.S efi_entry.S vectors.S desc.c \
		     trap.c cpu.c memory.c pgtable.c mmu.c acpi.c \
		     apic.c smp.c secondary.S)
# test_services.c: test images only (mk/kernel.mk).

# The same ELF on a GRUB (BIOS) rescue ISO, booted through multiboot2.
GRUB_ISO	:= $(BUILD_DIR)/buddyboot.iso
ARCH_IMAGES	:= $(GRUB_ISO)

# Debian packages to build and boot this target: packages.mk.
ARCH_PACKAGES	= $(PACKAGES_x86_64)

# The board (boards/x86_64/): q35, the current PC chipset (PCIe, ICH9
# LPC), by default; BOARD=pc for i440fx.
# No NIC: nothing to do with one, and its iPXE ROM only slows the boot.
# isa-debug-exit gives the guest an exit status: see cpu.c.
QEMU		:= qemu-system-x86_64
QEMU_MACHINE_ARGS := $(BOARD_QEMU_ARGS) -nic none \
		     -device isa-debug-exit,iobase=0xf4,iosize=0x04
QEMU_KERNEL_ARGS := -kernel $(KERNEL_ELF)
# Instead of QEMU_KERNEL_ARGS: SeaBIOS boots GRUB from the ISO, GRUB the ELF.
QEMU_GRUB_ARGS	:= -cdrom $(GRUB_ISO) -boot d
# The default guest memory in MiB, per page size (make run, the matrix):
# room for four blocks of the default MAX_PAGE_ORDER (<asm/geometry.h>)
# and at least 128 MiB. tests/host/mm/build-checks.sh checks the figures
# against the header.
QEMU_DEFAULT_MEM_MIB_4K := 128
QEMU_TIMEOUT	:= 120
GDB_ARCH	:= i386:x86-64

$(GRUB_ISO): $(KERNEL_ELF) arch/x86_64/grub.cfg
	$(Q)echo "  GRUB    $@"
	$(Q)command -v grub-mkrescue >/dev/null && command -v xorriso >/dev/null || \
	  { echo "error: building $@ needs grub-mkrescue and xorriso:" \
		 "apt-get install grub-pc-bin grub-common xorriso mtools" \
		 "(or make deps)" >&2; exit 1; }
	$(Q)rm -rf $@.root && mkdir -p $@.root/boot/grub
	$(Q)cp $(KERNEL_ELF) $@.root/boot/buddyboot.elf
	$(Q)cp arch/x86_64/grub.cfg $@.root/boot/grub/grub.cfg
	$(Q)grub-mkrescue --locales= --fonts= --themes= -o $@ $@.root \
	  >$@.log 2>&1 || { cat $@.log >&2; exit 1; }
	$(Q)rm -rf $@.root

# BOOT=efi (mk/efi.mk): OVMF boots EFI/BOOT/BOOTX64.EFI from a FAT disk.
# The kernel runs at its link address, so BOOTX64.EFI is a small
# position-independent stub carrying the kernel (efi_stub.c), linked
# straight to PE32+ by ld's i386pep emulation: an EFI application
# (subsystem 10), 4 KiB sections, and base relocations for whatever
# absolute addresses the stub has. The firmware's code is read-only and
# its variable store is a throw-away snapshot: nothing is written back.
EFI_IMAGE_NAME	:= BOOTX64.EFI
EFI_STUB_SRCS	:= boot/efi/efi_main.c arch/x86_64/efi_stub.c \
		   arch/x86_64/efi_payload.S
EFI_STUB_CFLAGS	:= -std=gnu11 -O2 -Wall -Wextra -Werror -Wno-unused-parameter \
		   -ffreestanding -fno-stack-protector -fpie -fshort-wchar \
		   -mno-red-zone -mgeneral-regs-only -fno-asynchronous-unwind-tables \
		   -fcf-protection=none -fno-ident
EFI_STUB_LDFLAGS := -m i386pep --subsystem 10 -e efi_main --image-base 0x10000000 \
		   -nostdlib --enable-reloc-section --fatal-warnings \
		   --section-alignment 4096 --file-alignment 512 --strip-debug
OVMF_CODE	:= /usr/share/OVMF/OVMF_CODE_4M.fd
OVMF_VARS	:= /usr/share/OVMF/OVMF_VARS_4M.fd
EFI_PACKAGES	:= ovmf
# BOOT=grub-efi (mk/efi.mk): OVMF starts GRUB for UEFI (grub-efi-amd64-bin,
# a grub-mkstandalone image with grub-efi.cfg) as BOOTX64.EFI, and GRUB
# chainloads buddyboot's BOOTX64.EFI from /EFI/buddyboot/buddyboot.efi.
GRUB_EFI_FORMAT	:= x86_64-efi
GRUB_EFI_CFG	:= arch/x86_64/grub-efi.cfg
# BOOT=grub-efi-mb2: the same GRUB loads buddyboot.elf with multiboot2.
GRUB_EFI_MB2_CFG := arch/x86_64/grub-efi-mb2.cfg
QEMU_EFI_ARGS	:= -drive if=pflash,format=raw,unit=0,readonly=on,file=$(OVMF_CODE) \
		   -drive if=pflash,format=raw,unit=1,snapshot=on,file=$(OVMF_VARS)
