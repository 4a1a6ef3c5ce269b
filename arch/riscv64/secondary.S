/*
 * secondary.S - where a secondary hart enters buddyboot.
 *
 * riscv_secondary_entry is the start address smp.c gives SBI HSM
 * hart_start: the hart arrives in S-mode, satp = 0, interrupts off,
 *   a0 = its hart id, a1 = the opaque word = its struct secondary_boot.
 * A hart that entered _start and lost the boot lottery (entry.S) comes
 * here too, from riscv_lottery_wait, with the same two registers.
 *
 * Its stack is [stack_bottom, stack_top) of the secondary_boot; the top
 * RISCV_EXCEPTION_STACK bytes of it are its exception stack (sscratch,
 * see vectors.S), above the kernel stack, so that a kernel stack
 * overflow runs away from it. Then tp = its per-CPU offset, stvec = the
 * trap entry, sie = the software and timer interrupts (never taken, as
 * sstatus.SIE stays 0: they only end arch_cpu_idle()'s wfi), and
 * secondary_start(boot), which never returns.
 */
#include "csr.h"
#include "smp.h"

	.text
	.globl	riscv_secondary_entry
riscv_secondary_entry:
	csrci	sstatus, SSTATUS_SIE
	/* Software and timer interrupts, never taken: they end idle wfi. */
	li	t0, SIE_SSIE | SIE_STIE
	csrw	sie, t0
	ld	tp, SB_PERCPU_OFFSET(a1)
	ld	t0, SB_STACK_TOP(a1)
	csrw	sscratch, t0
	li	t1, RISCV_EXCEPTION_STACK
	sub	sp, t0, t1
	lla	t0, riscv_trap_entry
	csrw	stvec, t0
	/* A zero frame pointer and return address end every backtrace. */
	li	s0, 0
	li	ra, 0
	mv	a0, a1
	call	secondary_start
	j	arch_halt

/*
 * riscv_lottery_wait - a hart that entered _start after another won
 * (a0 = its hart id). It touches nothing but .data, which the winner
 * neither clears nor relocates, and waits in the release table
 * (riscv_release, smp.c) for an entry with its hart id, which the boot
 * hart writes when smp_init() starts it. Only PC-relative addresses
 * here: the image may not be relocated yet.
 */
	.globl	riscv_lottery_wait
riscv_lottery_wait:
	csrw	sie, zero
	csrci	sstatus, SSTATUS_SIE
1:	lla	t0, riscv_release
	li	t1, CONFIG_NR_CPUS * RELEASE_SIZE
	add	t1, t1, t0
2:	bgeu	t0, t1, 4f
	ld	t2, RELEASE_BOOT(t0)
	beqz	t2, 3f
	/* Acquire: the entry, and the boot data, after its boot pointer. */
	fence	r, rw
	ld	t3, RELEASE_HARTID(t0)
	bne	t3, a0, 3f
	mv	a1, t2
	j	riscv_secondary_entry
3:	addi	t0, t0, RELEASE_SIZE
	j	2b
4:	.insn	i 0x0f, 0, x0, x0, 0x010	/* pause */
	j	1b
