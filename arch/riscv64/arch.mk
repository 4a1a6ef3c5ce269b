# arch.mk - riscv64: how to build it, what it needs, how QEMU boots it.
#
# The kernel runs in S-mode under OpenSBI on QEMU's `virt` machine, with the
# MMU off (satp = 0). See arch/riscv64/entry.S for the boot contract.

# The machine booted unless BOARD= says otherwise: boards/riscv64/.
# The page sizes this target builds with (mk/config.mk refuses others).
PAGE_SIZES	:= 4K
DEFAULT_BOARD	:= virt

CROSS_COMPILE	?= riscv64-linux-gnu-

# medany: the image is linked 2 GiB up (BOARD_LINK_ADDRESS), beyond medlow's
# +-2 GiB of 0.
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
ARCH_SRCS	:= $(sort $(wildcard arch/riscv64/*.S arch/riscv64/*.c)) \
		   boot/efi/efi_main.c
ARCH_CFLAGS	+= $(if $(LOTTERY),-DCONFIG_RISCV_START_AT_IMAGE_ENTRY=1)
# The raw Image with a Linux boot header (entry.S), for booti and -kernel.
ARCH_IMAGES	:= $(BUILD_DIR)/Image

# Debian packages to build and boot this target: packages.mk.
ARCH_PACKAGES	= $(PACKAGES_riscv64)

# `-bios default` is QEMU's bundled OpenSBI (fw_dynamic); it starts the
# kernel in S-mode at its ELF entry with a0 = boot hart, a1 = DTB. The
# sifive_test exit device is part of `virt`: nothing to add for it.
QEMU		:= qemu-system-riscv64
# Recursive: a board's arguments may name MEM and SMP (boards/riscv64/).
QEMU_MACHINE_ARGS = $(BOARD_QEMU_ARGS) -bios default
QEMU_KERNEL_ARGS = -kernel $(KERNEL_ELF)
# BOOT=uboot (mk/uboot.mk): OpenSBI, as above, starts Debian's S-mode
# U-Boot for QEMU as its payload (at BOARD_LINK_ADDRESS, a0/a1 as for a kernel),
# and U-Boot boots the Image from a disk with booti. Its environment
# loads to fixed addresses up to 0x8c300000 (scriptaddr 0x8c100000), so
# RAM must reach past them: 256 MiB at least.
UBOOT_ARCH	:= riscv
UBOOT_MIN_MEM_MIB := 256
QEMU_UBOOT_ARGS	:= -kernel /usr/lib/u-boot/qemu-riscv64_smode/u-boot.bin
# BOOT=uboot-efi (mk/efi.mk): the same U-Boot runs EFI/BOOT/BOOTRISCV64.EFI,
# which is the Image itself (its header is a PE header too, efi_header.S),
# with bootefi. Debian 12 has no EDK2 build for riscv64: U-Boot's UEFI is
# riscv64's UEFI firmware, and BOOT=efi boots through it as BOOT=uboot-efi.
EFI_IMAGE_NAME	:= BOOTRISCV64.EFI
EFI_FIRMWARE_UBOOT := 1
EFI_IMAGE_FROM	:= $(BUILD_DIR)/Image


#= BOOT_HART=n    riscv64: boot on hart n every time (n < SMP)
# BOOT_HART=n: boot on hart n every time (n < SMP). OpenSBI's fw_dynamic
# boots the hart its boot information prefers, which QEMU always says is
# hart 0; arch/riscv64/qemu/boot_hart.S is a reset stub that says n, and
# QEMU starts every hart in it. Without BOOT_HART, QEMU's own reset ROM.
BOOT_HART	?=
ifneq ($(BOOT_HART),)
ifneq ($(shell echo '$(BOOT_HART)' | grep -Ex '[0-9]+'),$(BOOT_HART))
$(error BOOT_HART=$(BOOT_HART) is not a hart number)
endif
# A hart the machine lacks would leave OpenSBI waiting for it: a hang.
ifneq ($(shell [ '$(BOOT_HART)' -lt '$(or $(SMP),1)' ] 2>/dev/null && echo y),y)
$(error BOOT_HART=$(BOOT_HART) is not a hart of a machine of SMP=$(or $(SMP),1); choose one below SMP)
endif
BOOT_HART_STUB	:= $(BUILD_DIR)/boot-hart-$(BOOT_HART).bin
# Free RAM between OpenSBI's 512 KiB and the kernel (BOARD_LINK_ADDRESS).
BOOT_HART_STUB_ADDR := 0x801ff000
ARCH_IMAGES	+= $(BOOT_HART_STUB)
QEMU_MACHINE_ARGS += -device loader,file=$(BOOT_HART_STUB),addr=$(BOOT_HART_STUB_ADDR),force-raw=on \
		     $(foreach i,$(shell seq 0 $$(($(SMP) - 1))),-device loader,addr=$(BOOT_HART_STUB_ADDR),cpu-num=$(i))

# It waits for the kernel's boot_lottery word: its address in this image.
$(BOOT_HART_STUB): arch/riscv64/qemu/boot_hart.S $(KERNEL_ELF)
	@mkdir -p $(dir $@)
	$(Q)echo "  AS      $@"
	$(Q)$(CC) -nostdlib -march=rv64imac_zicsr -mabi=lp64 -DBOOT_HART=$(BOOT_HART) \
		-DKERNEL_ENTRY=$(BOARD_LINK_ADDRESS) \
		-DKERNEL_LOTTERY=0x$$($(NM) $(KERNEL_ELF) | awk '$$3 == "boot_lottery" { print $$1 }') \
		-Wl,-Ttext=$(BOOT_HART_STUB_ADDR) -Wl,--build-id=none -o $@.elf $<
	$(Q)$(OBJCOPY) -O binary -j .text $@.elf $@
endif

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
