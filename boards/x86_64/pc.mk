# pc.mk - QEMU's `pc` (i440fx, PIIX3) under SeaBIOS: the older PC chipset,
# with another e820 layout from q35's (the PCI hole starts at 3.5 GiB, not
# 2 GiB, so RAM above 4 GiB begins at a different point of -m).
#
# Console and exit as on q35: COM1 at I/O port 0x3f8, isa-debug-exit.

BOARD_QEMU_ARGS	:= -M pc
BOARD_EARLYCON	:= ns16550a,io,0x3f8,115200
# Every loader path of q35's: SeaBIOS, OVMF and GRUB boot either chipset.
BOARD_BOOTS	:= grub efi grub-efi grub-efi-mb2
