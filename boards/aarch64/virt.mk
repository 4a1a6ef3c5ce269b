# virt.mk - QEMU's aarch64 `virt` machine, the default aarch64 board.
#
# The console is the PL011 /chosen/stdout-path names in QEMU's device tree;
# the exit is semihosting (a CPU feature, arch/aarch64/poweroff.S). This
# file only says how QEMU builds the machine and where the early console is.

BOARD_QEMU_ARGS	:= -M virt
# 2 MiB into RAM (0x40000000): where QEMU and U-Boot's booti put an arm64
# Image, and, for an ELF -kernel, high enough that QEMU puts the DTB below
# the image at the start of RAM (at +0x80000 there would be no DTB).
BOARD_LINK_ADDRESS := 0x40200000
# Where RAM starts: make refuses a MEM that ends before the image would.
BOARD_RAM_BASE	:= 0x40000000
BOARD_EARLYCON	:= pl011,0x09000000
