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
 * One hart runs buddyboot, whichever it is: OpenSBI starts only the hart
 * that won its own cold-boot lottery (not always hart 0 under -smp N) and
 * keeps the others stopped in its HSM. Should a loader release several
 * harts here anyway, as some do for Linux, the first to swap the lottery
 * word wins and the others park with interrupts off, touching nothing.
 *
 * The stub clears BSS, takes the boot stack (__boot_stack_bottom ..
 * __boot_stack_top, outside BSS), points sscratch at the exception stack
 * and stvec at riscv_trap_entry, then calls riscv_boot() in C, which calls
 * boot_main(). Every address is taken PC-relative (lla): the code does not
 * assume it runs at its link address.
 */
#include "csr.h"

	.section .text.head, "ax"
	.globl	_start
_start:
	csrw	sie, zero
	csrci	sstatus, SSTATUS_SIE

	lla	t0, boot_lottery
	li	t1, 1
	amoswap.w t1, t1, (t0)
	bnez	t1, arch_halt

	mv	s2, a0			/* hart id */
	mv	s3, a1			/* DTB */

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

	/* In .data, not BSS: the winner clears BSS while others may arrive. */
	.data
	.balign	4
boot_lottery:
	.word	0
