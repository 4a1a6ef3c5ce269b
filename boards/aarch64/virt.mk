# virt.mk - QEMU's aarch64 `virt` machine, the default aarch64 board.
#
# The console is the PL011 /chosen/stdout-path names in QEMU's device tree;
# the exit is semihosting (a CPU feature, arch/aarch64/poweroff.S). This
# file only says how QEMU builds the machine and where the early console is.

BOARD_QEMU_ARGS	:= -M virt
BOARD_EARLYCON	:= pl011,0x09000000
