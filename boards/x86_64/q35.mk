# q35.mk - QEMU's `q35` PC (ICH9, PCIe), the default x86_64 board.
#
# A PC has no device tree: its console is COM1, the 16550 at I/O port
# 0x3f8 every PC has, as the early console that stays; the exit device is
# QEMU's isa-debug-exit at port 0xf4 (arch/x86_64/arch.mk adds it).

BOARD_QEMU_ARGS	:= -M q35
BOARD_EARLYCON	:= ns16550a,io,0x3f8,115200
