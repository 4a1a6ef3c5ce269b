# uboot.mk - BOOT=uboot: boot the Image through U-Boot, as a board would.
#
#   make run ARCH=aarch64 BOOT=uboot
#
# The guest's firmware starts Debian's U-Boot build for QEMU (u-boot-qemu),
# which finds a virtio disk, runs the boot.scr on its first partition and
# boots the raw Image from there with booti, the Linux boot protocol: the
# way an SD card boots a board. Nothing is typed at U-Boot's prompt. What a
# target needs, in its arch.mk:
#   QEMU_UBOOT_ARGS   the QEMU options that start U-Boot (a target without
#                     them has no BOOT=uboot)
#   UBOOT_ARCH        mkimage's -A for the script (riscv, arm64)
#   UBOOT_MIN_MEM_MIB the least guest memory that U-Boot build boots in
#                     (optional; raises the default MEM, mk/qemu.mk)
# and a raw Image in ARCH_IMAGES.
#
# The disk is a FAT file system in an MBR partition, made without root
# (dosfstools, mtools): U-Boot's distro boot scans partition 1 of each
# disk, and a bare FAT with no partition table has none. mkfs.vfat --mbr
# writes a table whose one partition spans the disk, file system included.

UBOOT_BOOT_CMD	:= tools/uboot/boot.cmd
UBOOT_SCRIPT	:= $(BUILD_DIR)/boot.scr
UBOOT_DISK	:= $(BUILD_DIR)/uboot-disk.img
UBOOT_DISK_KIB	:= 32768
UBOOT_PACKAGES	:= u-boot-qemu u-boot-tools dosfstools mtools

BOOTS		+= $(if $(QEMU_UBOOT_ARGS),uboot)

ifeq ($(BOOT),uboot)
ARCH_IMAGES	+= $(UBOOT_DISK)
RUN_PACKAGES	+= $(UBOOT_PACKAGES)
BOOT_MIN_MEM_MIB := $(UBOOT_MIN_MEM_MIB)
# virtio-blk on the MMIO transport: the `virt` machines' own, no PCI.
QEMU_KERNEL_ARGS = $(QEMU_UBOOT_ARGS) \
		  -drive file=$(UBOOT_DISK),format=raw,if=none,id=bootdisk \
		  -device virtio-blk-device,drive=bootdisk
endif

uboot_need	= command -v $(1) >/dev/null || { echo "error: building $@ \
		  needs $(1): apt-get install $(UBOOT_PACKAGES) (or make \
		  deps)" >&2; exit 1; }

$(UBOOT_SCRIPT): $(UBOOT_BOOT_CMD)
	@mkdir -p $(dir $@)
	$(Q)echo "  SCRIPT  $@"
	$(Q)$(call uboot_need,mkimage)
	$(Q)mkimage -A $(UBOOT_ARCH) -O linux -T script -C none -n buddyboot \
		-d $< $@ >$@.log || { cat $@.log >&2; exit 1; }

$(UBOOT_DISK): $(BUILD_DIR)/Image $(UBOOT_SCRIPT)
	$(Q)echo "  DISK    $@"
	$(Q)$(call uboot_need,mkfs.vfat)
	$(Q)$(call uboot_need,mcopy)
	$(Q)rm -f $@.tmp
	$(Q)mkfs.vfat --mbr=y -n BUDDYBOOT -C $@.tmp $(UBOOT_DISK_KIB) >/dev/null
	$(Q)mcopy -i $@.tmp $(BUILD_DIR)/Image ::Image
	$(Q)mcopy -i $@.tmp $(UBOOT_SCRIPT) ::boot.scr
	$(Q)mv $@.tmp $@
