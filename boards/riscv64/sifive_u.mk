# sifive_u.mk - QEMU's model of SiFive's HiFive Unleashed (FU540-C000):
# five harts, hart 0 an E51 monitor core without S-mode (the CPU reader
# leaves it out), four U54 harts; RAM at 0x80000000; SiFive UARTs
# ("sifive,uart0") at 0x10010000 and 0x10011000.
#
# Under OpenSBI (QEMU's -bios default, fw_dynamic), with the machine's own
# device tree: Debian 12 ships no riscv64 kernel package, so there is no
# board DTB from Debian to boot with. The tree is QEMU's, dumped with the
# same -m and -smp (QEMU writes the memory node for -m, and the board's
# firmware would too), and it names the same UART in /chosen/stdout-path
# as the board's own hifive-unleashed-a00.dts. Nothing is added to it.
#
# The exit: the model has no sifive_test finisher (`info mtree` shows
# none) and OpenSBI finds no way to power it off (only gpio-restart), so
# QEMU's semihosting carries the verdict: poweroff.S's SYS_EXIT_EXTENDED,
# as on aarch64. A real Unleashed has neither; there the console is the
# verdict (docs/boards.md).

BOARD_EARLYCON	:= sifive,0x10010000
# OpenSBI's S-mode payload address: 2 MiB into RAM (0x80000000).
BOARD_LINK_ADDRESS := 0x80200000
# The FU540's 5 harts; hart 0 never comes online (no S-mode).
SMP		?= 5
BOARD_USABLE_CPUS = $(shell echo $$(($(SMP) - 1)))
BOARD_DTB	= $(BUILD_ROOT)/boards/riscv64-sifive_u-$(MEM)-smp$(SMP).dtb
BOARD_QEMU_ARGS	= -M sifive_u -dtb $(BOARD_DTB) \
		  -semihosting-config enable=on,target=native
BOARD_IMAGES	= $(BOARD_DTB)

# Packed with dtc: QEMU's dump is padded to 1 MiB.
$(BUILD_ROOT)/boards/riscv64-sifive_u-%.dtb: boards/riscv64/sifive_u.mk
	@mkdir -p $(dir $@)
	$(Q)echo "  DTB     $@"
	$(Q)qemu-system-riscv64 -M sifive_u,dumpdtb=$@.tmp -m $(MEM) -smp $(SMP) \
		-nic none -nographic >/dev/null 2>&1 || test -s $@.tmp
	$(Q)dtc -q -I dtb -O dtb -o $@.tmp2 $@.tmp && rm -f $@.tmp
	$(Q)mv $@.tmp2 $@
