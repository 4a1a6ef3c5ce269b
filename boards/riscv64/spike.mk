# spike.mk - QEMU's spike, the RISC-V ISA simulator's machine: RAM at
# 0x80000000, a CLINT, and no UART: the console is the HTIF
# ("ucb,htif0", /chosen/stdout-path), a channel of the M-mode firmware.
# OpenSBI (QEMU's -bios default) drives it, and the kernel writes through
# OpenSBI's console calls (arch/riscv64/sbi_console.c, EARLYCON=sbi).
#
# The device tree is QEMU's own, handed over by OpenSBI.
#
# The exit: no sifive_test finisher, and OpenSBI's shutdown through the
# HTIF exits QEMU with status 0 whatever the verdict, so QEMU's
# semihosting carries it (poweroff.S's SYS_EXIT_EXTENDED, as on sifive_u).

BOARD_EARLYCON	:= sbi
# OpenSBI's S-mode payload address: 2 MiB into RAM (0x80000000).
BOARD_LINK_ADDRESS := 0x80200000
BOARD_QEMU_ARGS	:= -M spike -semihosting-config enable=on,target=native
