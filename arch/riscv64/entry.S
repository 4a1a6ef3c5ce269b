/*
 * entry.S - the riscv64 boot stub: from the firmware to boot_main().
 *
 * OpenSBI (fw_dynamic, QEMU's `-bios default`) enters _start in S-mode with
 *   a0 = hart id of the boot hart, a1 = physical address of the DTB,
 * interrupts off and satp = 0. buddyboot keeps satp at 0 (Bare mode) for
 * good: with no translation every physical address, all of RAM and every
 * device, is addressable as it is, and phys_to_virt() is a cast
 * (asm/memory.h). Nothing limits RAM to a mapped window.
 *
 * One hart boots, whichever it is: OpenSBI starts only the hart that won
 * its own cold-boot lottery (not always hart 0 under -smp N) and keeps
 * the others stopped in its HSM until smp_init() starts them at
 * riscv_secondary_entry (secondary.S). Should a loader release several
 * harts here anyway, as some do for Linux, the first to swap the lottery
 * word boots, and the others wait in riscv_lottery_wait, touching only
 * .data, until smp_init() releases them into the same secondary entry
 * (arch/riscv64/smp.c).
 *
 * Where it runs: the image starts with a Linux RISC-V Image header, so
 * that `booti` and QEMU's -kernel take the raw Image as well as the ELF;
 * the header also opens a PE32+ EFI application (efi_header.S), which
 * U-Boot's bootefi starts at efi_entry.S's pe_entry.
 * U-Boot moves an Image to RAM base + text_offset, which is the link
 * address on QEMU's virt (BOARD_LINK_ADDRESS) but not on every board. So the
 * kernel is a position-independent executable (-fpie -pie) that relocates
 * itself: before anything reads a stored address, the stub applies its
 * R_RISCV_RELATIVE relocations (.rela.dyn) with the offset between where
 * it runs and where it was linked, and then runs in place, wherever that
 * is. (Copying itself to the link address instead would need that address
 * to be free RAM, which only the board knows.) See relocate.S. Until
 * then, every address is taken PC-relative (lla).
 *
 * The stub then clears BSS, takes the boot stack (__boot_stack_bottom ..
 * __boot_stack_top, outside BSS), points sscratch at the exception stack
 * and stvec at riscv_trap_entry, and calls riscv_boot() in C, which calls
 * boot_main().
 */
#include <arch/poweroff.h>
#include "csr.h"

	.section .text.head, "ax"
	.globl	_start
_start:
	/* The Linux RISC-V Image header (Documentation/riscv/boot-image-header). */
	/*
	 * code0 and code1: "MZ", the PE signature (efi_header.S), as the
	 * compressed c.li s4, -13, which changes only s4; then the jump.
	 */
	.option	push
	.option	norelax
	c.li	s4, -13
	.option	norvc
	j	primary_entry
	.2byte	0			/* to text_offset at 8: no .balign, */
	.option	pop			/* which would leave relaxation nops */
	.dword	0x200000		/* text_offset: 2 MiB into RAM */
	/* image_size (_end - _start, BSS too): linker/image.lds.S writes it. */

	.section .text.head.tail, "ax"
	.dword	0			/* flags: little endian */
	.word	2			/* header version 0.2 */
	.word	0
	.dword	0
	.ascii	"RISCV\0\0\0"		/* magic, deprecated but still read */
	.ascii	"RSC\x05"		/* magic2 */
	.word	pe_header - _start	/* res3: the PE header (efi_header.S) */

	/*
	 * The code: in the PE's .text section (linker/image.lds.S), which
	 * every UEFI loader copies, not in the headers' region.
	 */
	.section .text.entry, "ax"
	.globl	primary_entry
primary_entry:
	csrw	sie, zero
	csrci	sstatus, SSTATUS_SIE
	/* Per-CPU offset 0: the boot hart's copy is the section itself. */
	li	tp, 0

	lla	t0, boot_lottery
	li	t1, 1
	amoswap.w t1, t1, (t0)
	bnez	t1, riscv_lottery_wait	/* a0: this hart's id */

	mv	s2, a0			/* hart id */
	mv	s3, a1			/* DTB */

	/* Relocate for where we run (relocate.S). */
	call	riscv_self_relocate
	bnez	a0, bad_relocation

	/* The linker script aligns both ends of BSS to 8 bytes. */
	lla	t0, __bss_start
	lla	t1, __bss_end
1:	bgeu	t0, t1, 2f
	sd	zero, 0(t0)
	addi	t0, t0, 8
	j	1b
2:
	lla	sp, __boot_stack_top
	lla	t0, __exception_stack_top
	csrw	sscratch, t0
	lla	t0, riscv_trap_entry
	csrw	stvec, t0

	/* A zero frame pointer and return address end every backtrace. */
	li	s0, 0
	li	ra, 0
	mv	a0, s2
	mv	a1, s3
	call	riscv_boot
	/* riscv_boot() does not return; park if it ever did. */
	j	arch_halt

/* The linker produced a relocation this stub cannot apply: refuse. */
bad_relocation:
	lla	a0, bad_relocation_msg
	call	riscv_emergency_puts
	li	a0, QEMU_EXIT_FAIL
	li	a1, SBI_SRST_REASON_SYSFAIL
	j	riscv_poweroff

/*
 * arch_halt - park this hart for good: interrupts off, wait forever.
 * Also where losing harts and the end of arch_poweroff() go.
 */
	.text
	.globl	arch_halt
arch_halt:
	csrw	sie, zero
	csrci	sstatus, SSTATUS_SIE
1:	wfi
	j	1b

	.section .rodata
bad_relocation_msg:
	.asciz	"\r\nbuddyboot: unexpected relocation type in .rela.dyn, cannot run\r\n"

	/* In .data, not BSS: the winner clears BSS while others may arrive. */
	.data
	.balign	4
boot_lottery:
	.word	0
