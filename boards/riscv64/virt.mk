# virt.mk - QEMU's riscv64 `virt` machine, the default riscv64 board.
#
# Everything the kernel needs from the board comes from the device tree
# QEMU generates (console: /chosen/stdout-path -> the ns16550a; exit: the
# sifive_test "finisher"); this file only says how QEMU builds the machine
# and where the early console is before the device tree is read.

BOARD_QEMU_ARGS	:= -M virt
# OpenSBI's S-mode payload address: 2 MiB into RAM (0x80000000).
BOARD_LINK_ADDRESS := 0x80200000
BOARD_EARLYCON	:= ns16550a,0x10000000
