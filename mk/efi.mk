# efi.mk - BOOT=efi: boot as a UEFI application from an EFI system
# partition, as a PC or an arm64 server does.
#
#   make run ARCH=x86_64 BOOT=efi
#   make run ARCH=aarch64 BOOT=uboot-efi
#   make run ARCH=riscv64 BOOT=efi       (U-Boot's UEFI: as BOOT=uboot-efi)
#
# The firmware (OVMF on x86_64) finds the removable-media default,
# EFI/BOOT/BOOT<ARCH>.EFI, on a FAT disk and starts it; the image's
# efi_main (boot/efi/efi_main.c) reads the memory map, ends boot services
# and enters the kernel with the map as its boot information. Nothing is
# typed at the firmware. A target with this path sets, in its arch.mk:
#   EFI_IMAGE_NAME    the default file name (BOOTX64.EFI, ...)
#   QEMU_EFI_ARGS     the QEMU options that start the firmware
#   EFI_PACKAGES      the Debian packages of the firmware
# and either
#   EFI_STUB_SRCS     a position-independent stub that carries the kernel
#                     as a payload (x86_64, whose kernel runs at a fixed
#                     address), with EFI_STUB_CFLAGS and EFI_STUB_LDFLAGS
# or
#   EFI_IMAGE_FROM    an image that is an EFI application already
#                     (aarch64: the Image, with its PE header), copied.
#
# BOOT=uboot-efi: Debian's U-Boot for QEMU (a target's QEMU_UBOOT_ARGS,
# mk/uboot.mk) as the firmware instead: its distro boot finds no boot.scr
# on the same system partition and runs EFI/BOOT/BOOT<arch>.EFI with
# bootefi, handing over its own device tree. Nothing is typed.
# A target whose UEFI firmware is U-Boot's (riscv64: Debian 12 has no EDK2
# for it) sets EFI_FIRMWARE_UBOOT := 1 instead of QEMU_EFI_ARGS: its
# BOOT=efi is then BOOT=uboot-efi, so that `make run BOOT=efi` boots
# every target through its UEFI firmware.
#
# The system partition is a FAT file system made without root (dosfstools,
# mtools), 32 MiB, in one MBR partition (mkfs.vfat --mbr: U-Boot's distro
# boot scans partition 1; EDK2 reads it as well). QEMU opens it read-only,
# so that several configurations may boot the same image at once.

EFI_DIR		:= $(BUILD_DIR)/efi
EFI_IMAGE	:= $(EFI_DIR)/$(EFI_IMAGE_NAME)
EFI_ESP		:= $(BUILD_DIR)/efi-esp.img
EFI_ESP_KIB	:= 32768

BOOTS		+= $(if $(or $(QEMU_EFI_ARGS),$(EFI_FIRMWARE_UBOOT)),efi) \
		   $(if $(and $(QEMU_UBOOT_ARGS),$(EFI_IMAGE_NAME)),uboot-efi)
# The firmware BOOT=efi and BOOT=uboot-efi boot through: efi or uboot-efi.
EFI_BOOT	:= $(if $(and $(EFI_FIRMWARE_UBOOT),$(filter efi,$(BOOT))),uboot-efi,$(BOOT))

ifneq ($(EFI_IMAGE_NAME),)
ARCH_IMAGES	+= $(EFI_IMAGE)
endif

#= EFI_DUMP=1     the kernel prints the EFI boot information as hex
# EFI_DUMP=1: the kernel prints the EFI boot information as hex
# (tests/fixtures/efi/capture.sh). A flag every object may see: its
# configurations are named -efidump (mk/config.mk), objects and all.
KERNEL_CPPFLAGS	+= $(if $(EFI_DUMP),-DCONFIG_EFI_DUMP=1)

ifeq ($(EFI_BOOT),efi)
ARCH_IMAGES	+= $(EFI_ESP)
RUN_PACKAGES	+= $(EFI_PACKAGES) dosfstools mtools
QEMU_KERNEL_ARGS = $(QEMU_EFI_ARGS) \
		  -drive file=$(EFI_ESP),format=raw,if=none,id=esp,readonly=on \
		  -device virtio-blk-pci,drive=esp
endif

# BOOT=grub-efi: the firmware starts GRUB for UEFI (a target's
# GRUB_EFI_FORMAT and GRUB_EFI_CFG), which chainloads the same EFI image
# from /EFI/buddyboot/buddyboot.efi on the same kind of system partition.
# BOOT=grub-efi-mb2: the same, with a GRUB_EFI_MB2_CFG that loads the
# kernel ELF from /boot/buddyboot.elf with multiboot2.
BOOTS		+= $(if $(and $(QEMU_EFI_ARGS),$(GRUB_EFI_FORMAT)),grub-efi) \
		   $(if $(and $(QEMU_EFI_ARGS),$(GRUB_EFI_MB2_CFG)),grub-efi-mb2)
GRUB_EFI_ESP	:= $(BUILD_DIR)/grub-efi-esp.img
GRUB_EFI_MB2_ESP := $(BUILD_DIR)/grub-efi-mb2-esp.img

$(foreach b,grub-efi grub-efi-mb2,$(if $(filter $(b),$(BOOT)),\
  $(eval ARCH_IMAGES += $(if $(filter grub-efi,$(b)),$(GRUB_EFI_ESP),$(GRUB_EFI_MB2_ESP)))\
  $(eval RUN_PACKAGES += $(EFI_PACKAGES) grub-efi-amd64-bin dosfstools mtools)))
ifeq ($(BOOT),grub-efi)
QEMU_KERNEL_ARGS = $(QEMU_EFI_ARGS) \
		  -drive file=$(GRUB_EFI_ESP),format=raw,if=none,id=esp,readonly=on \
		  -device virtio-blk-pci,drive=esp
endif
ifeq ($(BOOT),grub-efi-mb2)
QEMU_KERNEL_ARGS = $(QEMU_EFI_ARGS) \
		  -drive file=$(GRUB_EFI_MB2_ESP),format=raw,if=none,id=esp,readonly=on \
		  -device virtio-blk-pci,drive=esp
endif

# $(call grub_efi,image,cfg): a standalone GRUB for UEFI with that cfg
define grub_efi
$(1): $(2)
	@mkdir -p $$(dir $$@)
	$(Q)echo "  GRUB    $$@"
	$(Q)$$(call efi_need,grub-mkstandalone)
	$(Q)grub-mkstandalone -O $(GRUB_EFI_FORMAT) --locales= --fonts= \
		--themes= -o $$@ "boot/grub/grub.cfg=$(2)"
endef
$(if $(GRUB_EFI_CFG),$(eval $(call grub_efi,$(EFI_DIR)/grub.efi,$(GRUB_EFI_CFG))))
$(if $(GRUB_EFI_MB2_CFG),$(eval $(call grub_efi,$(EFI_DIR)/grub-mb2.efi,$(GRUB_EFI_MB2_CFG))))

$(GRUB_EFI_ESP): $(EFI_IMAGE) $(EFI_DIR)/grub.efi
	$(Q)echo "  ESP     $@"
	$(Q)$(call efi_need,mkfs.vfat)
	$(Q)$(call efi_need,mcopy)
	$(Q)rm -f $@.tmp
	$(Q)mkfs.vfat --mbr=y -n BUDDYBOOT -C $@.tmp $(EFI_ESP_KIB) >/dev/null
	$(Q)mmd -i $@.tmp ::EFI ::EFI/BOOT ::EFI/buddyboot
	$(Q)mcopy -i $@.tmp $(EFI_DIR)/grub.efi ::EFI/BOOT/$(EFI_IMAGE_NAME)
	$(Q)mcopy -i $@.tmp $(EFI_IMAGE) ::EFI/buddyboot/buddyboot.efi
	$(Q)mv $@.tmp $@

$(GRUB_EFI_MB2_ESP): $(KERNEL_ELF) $(EFI_DIR)/grub-mb2.efi
	$(Q)echo "  ESP     $@"
	$(Q)$(call efi_need,mkfs.vfat)
	$(Q)$(call efi_need,mcopy)
	$(Q)rm -f $@.tmp
	$(Q)mkfs.vfat --mbr=y -n BUDDYBOOT -C $@.tmp $(EFI_ESP_KIB) >/dev/null
	$(Q)mmd -i $@.tmp ::EFI ::EFI/BOOT ::boot
	$(Q)mcopy -i $@.tmp $(EFI_DIR)/grub-mb2.efi ::EFI/BOOT/$(EFI_IMAGE_NAME)
	$(Q)mcopy -i $@.tmp $(KERNEL_ELF) ::boot/buddyboot.elf
	$(Q)mv $@.tmp $@

ifeq ($(EFI_BOOT),uboot-efi)
ARCH_IMAGES	+= $(EFI_ESP)
RUN_PACKAGES	+= u-boot-qemu dosfstools mtools
BOOT_MIN_MEM_MIB := $(UBOOT_MIN_MEM_MIB)
QEMU_KERNEL_ARGS = $(QEMU_UBOOT_ARGS) \
		  -drive file=$(EFI_ESP),format=raw,if=none,id=esp,readonly=on \
		  -device virtio-blk-device,drive=esp
endif

ifneq ($(EFI_STUB_SRCS),)
EFI_STUB_OBJS	:= $(patsubst %,$(EFI_DIR)/%.o,$(basename $(EFI_STUB_SRCS)))
EFI_PAYLOAD	:= $(EFI_DIR)/kernel.bin
# The kernel's link address, end (BSS and stacks included) and EFI entry.
efi_sym		= $$($(NM) $(KERNEL_ELF) | awk '$$3 == "$(1)" { print "0x" $$1 }')
EFI_STUB_DEFS	= -DEFI_KERNEL_START=$(call efi_sym,_start)ULL \
		  -DEFI_KERNEL_END=$(call efi_sym,_end)ULL \
		  -DEFI_KERNEL_ENTRY=$(call efi_sym,efi_entry64)ULL \
		  -DEFI_PAYLOAD='"$(EFI_PAYLOAD)"'

$(EFI_PAYLOAD): $(KERNEL_ELF)
	@mkdir -p $(dir $@)
	$(Q)echo "  PAYLOAD $@"
	$(Q)$(OBJCOPY) -O binary $< $@

# Every stub object depends on the kernel: the addresses are compiled in.
$(EFI_DIR)/%.o: %.c $(KERNEL_ELF)
	@mkdir -p $(dir $@)
	$(Q)echo "  CC      $@"
	$(Q)$(CC) $(KERNEL_CPPFLAGS) $(EFI_STUB_CFLAGS) $(EFI_STUB_DEFS) -MMD -MP -c $< -o $@

$(EFI_DIR)/%.o: %.S $(EFI_PAYLOAD)
	@mkdir -p $(dir $@)
	$(Q)echo "  AS      $@"
	$(Q)$(CC) $(KERNEL_CPPFLAGS) $(EFI_STUB_CFLAGS) $(EFI_STUB_DEFS) -D__ASSEMBLY__ -MMD -MP -c $< -o $@

# One ELF object with one section of each kind (linker/efi-stub.ld), then
# the PE32+ image from it.
$(EFI_DIR)/stub.o: $(EFI_STUB_OBJS) linker/efi-stub.ld
	$(Q)$(CROSS_COMPILE)ld -r -T linker/efi-stub.ld -o $@ $(EFI_STUB_OBJS)

$(EFI_IMAGE): $(EFI_DIR)/stub.o
	$(Q)echo "  EFI     $@"
	$(Q)$(CROSS_COMPILE)ld $(EFI_STUB_LDFLAGS) -o $@ $<

-include $(EFI_STUB_OBJS:.o=.d)
endif

ifneq ($(EFI_IMAGE_FROM),)
$(EFI_IMAGE): $(EFI_IMAGE_FROM)
	@mkdir -p $(dir $@)
	$(Q)echo "  EFI     $@"
	$(Q)cp $< $@
endif

efi_need	= command -v $(1) >/dev/null || { echo "error: building $@ \
		  needs $(1): make deps installs it" >&2; exit 1; }

$(EFI_ESP): $(EFI_IMAGE)
	$(Q)echo "  ESP     $@"
	$(Q)$(call efi_need,mkfs.vfat)
	$(Q)$(call efi_need,mcopy)
	$(Q)rm -f $@.tmp
	$(Q)mkfs.vfat --mbr=y -n BUDDYBOOT -C $@.tmp $(EFI_ESP_KIB) >/dev/null
	$(Q)mmd -i $@.tmp ::EFI ::EFI/BOOT
	$(Q)mcopy -i $@.tmp $< ::EFI/BOOT/$(EFI_IMAGE_NAME)
	$(Q)mv $@.tmp $@

.PHONY: print-efi-image print-objdump check-efi-images

# For scripts/efi/check-images.sh: this target's EFI image, if it has one.
print-efi-image:
	$(info $(if $(EFI_IMAGE_NAME),$(EFI_IMAGE)))
	@:

print-objdump:
	$(info $(OBJDUMP))
	@:

## check-efi-images: each target's EFI image has consistent PE32+ headers
check-efi-images:
	$(Q)scripts/efi/check-images.sh

check: check-efi-images
TEST_SUITES	+= check-efi-images=scripts/efi/check-images.sh
