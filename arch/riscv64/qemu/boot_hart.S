/*
 * boot_hart.S - a reset stub for QEMU's riscv64 virt machine that makes
 * OpenSBI's fw_dynamic boot on hart BOOT_HART, every time.
 *
 * Not part of the kernel: with BOOT_HART=n (arch/riscv64/arch.mk) QEMU
 * loads this at BOOT_HART_STUB_ADDR and points every hart's PC at it
 * (-device loader,addr=...,cpu-num=i). It does what QEMU's own reset ROM
 * at 0x1000 does, a0 = mhartid, a1 = the DTB address that ROM holds (at
 * 0x1020), then jumps to OpenSBI at 0x80000000 (the ROM's own word at
 * 0x1018), but with a2 = its own struct fw_dynamic_info, whose boot_hart
 * is BOOT_HART instead of the 0 QEMU writes.
 *
 * That alone is not enough: OpenSBI 1.1 lets its preferred hart set up
 * (fw_base.S), but then every hart races to the cold-boot lottery in
 * sbi_init(), and any may win. So every other hart waits here first,
 * until the kernel's own boot lottery word (KERNEL_LOTTERY, entry.S's
 * boot_lottery, read from the ELF) is set: hart BOOT_HART has won
 * OpenSBI's lottery and entered the kernel. The others then enter
 * OpenSBI, lose its lottery, and wait in its HSM, STOPPED, for the
 * kernel's hart_start, as they would have anyway: the boot hart is
 * BOOT_HART on every run, and nothing else changes.
 */
#define QEMU_RESET_ROM		0x1000
#define ROM_START_ADDR		24	/* .dword: where the firmware is */
#define ROM_FDT_ADDR		32	/* .dword: where QEMU put the DTB */

#define FW_DYNAMIC_INFO_MAGIC	0x4942534f	/* "OSBI" */
#define FW_DYNAMIC_INFO_VERSION	2		/* boot_hart is version 2 */
#define FW_DYNAMIC_NEXT_MODE_S	1
/* KERNEL_ENTRY: the board's BOARD_LINK_ADDRESS, from arch.mk. */

	.option	norvc
	.text
	.globl	_start
_start:
	csrr	a0, mhartid
	li	t0, BOOT_HART
	beq	a0, t0, 2f
	li	t1, KERNEL_LOTTERY
1:	lw	t2, 0(t1)
	beqz	t2, 1b
2:	li	t0, QEMU_RESET_ROM
	ld	a1, ROM_FDT_ADDR(t0)
	ld	t0, ROM_START_ADDR(t0)
	lla	a2, fw_dynamic_info
	jr	t0

	.balign	8
fw_dynamic_info:
	.dword	FW_DYNAMIC_INFO_MAGIC
	.dword	FW_DYNAMIC_INFO_VERSION
	.dword	KERNEL_ENTRY		/* next_addr */
	.dword	FW_DYNAMIC_NEXT_MODE_S	/* next_mode */
	.dword	0			/* options */
	.dword	BOOT_HART		/* boot_hart */
