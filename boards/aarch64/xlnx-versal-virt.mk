# xlnx-versal-virt.mk - QEMU's Xilinx Versal virtual board: two
# Cortex-A72, GICv3, DDR at physical 0 up to 2 GiB and from 32 GiB,
# 0x800000000, above that; PL011 UARTs at 0xff000000 and 0xff010000.
#
# The device tree is QEMU's own: the model is QEMU's, so its tree, which
# names the memory -m makes, is the board's. The raw Image is loaded with
# -kernel at 0x200000 and entered as Linux is, x0 = the DTB (QEMU puts it
# at 128 MiB); entered at EL2, QEMU answers PSCI over smc and starts CPU 1
# with CPU_ON. Console: stdout-path, the PL011 at 0xff000000. Exit:
# semihosting. The board's RAM starts at physical 0: the page-0 policy
# keeps that page out (it would be NULL).

BOARD_LINK_ADDRESS := 0x200000
BOARD_QEMU_ARGS	:= -M xlnx-versal-virt
BOARD_KERNEL_ARGS = -kernel $(BUILD_DIR)/Image
BOARD_CPU	:= cortex-a72
BOARD_EARLYCON	:= pl011,0xff000000
# QEMU's -smp counts the model's two Cortex-R5F real-time cores too,
# which its tree does not list: 4, of which the two A72s come online.
# The A72 has the 4K and 64K granules (no 16K).
SMP		?= 4
BOARD_SMP	:= 4
BOARD_USABLE_CPUS := 2
BOARD_PAGE_SIZES := 4K 64K
