# microvm.mk - QEMU's microvm: a virtual machine with no PC chipset and
# no PCI, the kind unikernels run on under Firecracker or QEMU. The
# firmware (qboot, QEMU's default for it) enters the kernel through its
# PVH note as SeaBIOS does on a PC; the memory map is the PVH start
# info's, the CPUs are ACPI's MADT (acpi=off leaves the boot CPU alone,
# and says so).
#
# What it lacks that a PC has: the speaker's port 0x61, without which
# the PIT cannot measure the TSC (arch/x86_64/smp.c then says the clock
# assumes 1 GHz: intervals keep their order, not their length).
#
# Console and exit as on q35: COM1 at I/O port 0x3f8, isa-debug-exit.

BOARD_QEMU_ARGS	:= -M microvm
BOARD_EARLYCON	:= ns16550a,io,0x3f8,115200
