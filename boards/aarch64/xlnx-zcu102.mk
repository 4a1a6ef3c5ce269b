# xlnx-zcu102.mk - QEMU's model of Xilinx's ZCU102 (ZynqMP: four
# Cortex-A53; DDR at physical 0 up to 2 GiB and from 32 GiB,
# 0x800000000, above that; Cadence UARTs), booted with the board's own
# device tree from Debian's arm64 kernel package
# (tests/fixtures/boards/xilinx-zynqmp-zcu102-rev1.0.dtb).
#
# Entered at EL2 (virtualization=on: what the ZynqMP's ATF does for its
# payload); QEMU answers PSCI over smc, the conduit the DTB's /psci names,
# and starts CPUs 1-3 with CPU_ON. Console: the DTB's stdout-path,
# serial0, the Cadence UART at 0xff000000. Exit: semihosting.
#
# What the build changes in the DTB, with fdtput, as the firmware would:
# the memory node. The board's DTB lists 2 GiB at 0 and 2 GiB at 32 GiB
# (a 4 GiB ZCU102). QEMU gives the first 2 GiB of -m at 0 and the rest at
# 32 GiB; the build lists at most 128 MiB of each bank that -m makes
# (the default -m 2176M: 128 MiB at 0 and 128 MiB at 32 GiB), so that
# the boot, which writes every free page, stays small, and never a bank
# QEMU does not have (with -m 1G the DTB's second bank would be memory
# that is not there).
#
# How it is loaded: QEMU's -dtb would replace the memory node with one
# bank from 0 of the -m size (QEMU 7.2 knows nothing of the ZynqMP's
# second bank), so the DTB goes in with QEMU's loader device instead,
# 2 MiB below the Image, where the kernel looks for it when x0 is 0
# (arch/aarch64/cpu.c); the Image goes in with a loader that starts the
# CPU there, as a boot loader jumps to it. At 0x4200000, not 0x200000:
# page 0 stays free RAM, so the page-0 policy is what keeps it out.

ZCU102_DTB_SRC	:= tests/fixtures/boards/xilinx-zynqmp-zcu102-rev1.0.dtb
BOARD_DTB	= $(BUILD_ROOT)/boards/aarch64-xlnx-zcu102-$(MEM).dtb
BOARD_IMAGES	= $(BOARD_DTB)
# -audiodev: the model's DisplayPort has audio, which QEMU would open.
# Where the loader device below puts the Image.
BOARD_LINK_ADDRESS := 0x4200000
BOARD_QEMU_ARGS	:= -M xlnx-zcu102,virtualization=on -audiodev none,id=snd0
BOARD_KERNEL_ARGS = -device loader,file=$(BUILD_DIR)/Image,addr=$(BOARD_LINK_ADDRESS),cpu-num=0 \
		    -device loader,file=$(BOARD_DTB),addr=0x4000000,force-raw=on
BOARD_CPU	:= cortex-a53
BOARD_EARLYCON	:= cdns,0xff000000
MEM		?= 2176M
SMP		?= 4
# BOOT=direct only (no virt firmware here); the Cortex-A53 has 4K and 64K
# granules, not 16K; the device tree lists the four APU cores (QEMU's
# -smp 5 and 6 add the Cortex-R5F cores, which buddyboot does not run).
BOARD_PAGE_SIZES := 4K 64K
BOARD_SMP	:= 4

# RAM is at 0 (the image's load address must be inside -m: qemu.mk).
BOARD_RAM_BASE	:= 0x0
# MiB listed at 0 and at 32 GiB: at most 128 of what -m puts in each.
ZCU102_LOW_MIB	= $(shell m=$(mem_mib); echo $$((m < 128 ? m : 128)))
ZCU102_HIGH_MIB	= $(shell h=$$(($(mem_mib) - 2048)); \
		    echo $$((h <= 0 ? 0 : h < 128 ? h : 128)))

$(BUILD_ROOT)/boards/aarch64-xlnx-zcu102-$(MEM).dtb: $(ZCU102_DTB_SRC) boards/aarch64/xlnx-zcu102.mk
	@mkdir -p $(dir $@)
	$(Q)echo "  DTB     $@ (fdtput: /memory@0 reg, $(ZCU102_LOW_MIB) MiB at 0 and $(ZCU102_HIGH_MIB) MiB at 32 GiB)"
	$(Q)cp $< $@.tmp
	$(Q)fdtput -t x $@.tmp /memory@0 reg 0 0 0 $$(printf %x $$(($(ZCU102_LOW_MIB) << 20))) \
		$(if $(filter-out 0,$(ZCU102_HIGH_MIB)),8 0 0 $$(printf %x $$(($(ZCU102_HIGH_MIB) << 20))))
	$(Q)mv $@.tmp $@
