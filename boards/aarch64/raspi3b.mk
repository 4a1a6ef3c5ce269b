# raspi3b.mk - QEMU's model of the Raspberry Pi 3 Model B (BCM2837: four
# Cortex-A53, 1 GiB of RAM at physical 0), booted with the board's own
# device tree from Debian's arm64 kernel package
# (tests/fixtures/boards/broadcom-bcm2837-rpi-3-b.dtb), unchanged.
#
# QEMU loads the raw Image by the arm64 boot protocol, as the Pi's
# firmware does (which puts it at 0x80000 unless told otherwise): at
# 0x200000 (RAM base 0 + text_offset), x0 = the DTB, entered at EL2 (the
# stub drops to EL1). CPUs 1-3 wait in QEMU's copy of the firmware's spin
# loop, MMU off, for an entry point at 0xd8, 0xe0, 0xe8 and 0xf0: the
# DTB's cpu-release-addr, which arch/aarch64/smp.c writes. Like the
# firmware, QEMU writes the memory node: 960 MiB at 0 (the VideoCore keeps
# the top 64 MiB). The DTB's /memreserve/ keeps page 0 (the spin table),
# and there is no /psci: no firmware call is made.
# Console: the DTB's stdout-path is serial1, the mini-UART
# (brcm,bcm2835-aux-uart at bus address 0x7e215040, 0x3f215040 through
# /soc's ranges); QEMU connects its second -serial there, so the first,
# the PL011's, goes to null. Exit: semihosting (a CPU feature).
# QEMU's raspi3b accepts only -m 1G, and always has four CPUs.

BOARD_DTB	:= tests/fixtures/boards/broadcom-bcm2837-rpi-3-b.dtb
# Where QEMU puts the Image: RAM base 0 + text_offset.
BOARD_LINK_ADDRESS := 0x200000
BOARD_QEMU_ARGS	:= -M raspi3b -serial null -dtb $(BOARD_DTB)
BOARD_KERNEL_ARGS = -kernel $(BUILD_DIR)/Image
BOARD_CPU	:= cortex-a53
BOARD_EARLYCON	:= bcm2835aux,0x3f215040
MEM		?= 1G
SMP		?= 4
# QEMU's raspi3b is this machine alone: no U-Boot, UEFI or virtio disk of
# the virt machine's (BOOT=direct only); the Cortex-A53 has 4K and 64K
# granules, not 16K; the device tree lists four CPUs.
BOARD_PAGE_SIZES := 4K 64K
BOARD_SMP	:= 4
