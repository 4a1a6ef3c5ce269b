/*
 * secondary.S - where a secondary CPU enters buddyboot, and how it gets
 * from there to secondary_start() on the boot CPU's mappings.
 *
 * Two ways in (smp.c starts the CPU with one of them):
 *
 *   aarch64_secondary_entry  PSCI CPU_ON: x0 = the context id, the CPU's
 *                            struct secondary_boot (physical = virtual,
 *                            RAM is identity-mapped).
 *   aarch64_spin_table_entry a spin table: the firmware branches here with
 *                            no argument (Linux's arm64 boot protocol:
 *                            x0-x3 = 0), so the CPU looks its MPIDR up in
 *                            aarch64_spin_slots (smp.c), where the boot CPU
 *                            published its struct secondary_boot. A CPU
 *                            that lost entry.S's boot lottery waits here
 *                            too, from the start, at EL3.
 *
 * Either way the CPU arrives with the MMU off, at EL3, EL2 or EL1: at EL3
 * it goes through aarch64_el3_to_el1 and at EL2 through
 * aarch64_el2_to_el1 (entry.S), the boot CPU's own code.
 * At EL1, in this order, so that anything that traps is reported:
 * VBAR_EL1 and the exception stack (SP_EL1, identity-mapped, so usable
 * before and after the MMU is on), TPIDR_EL1 = the per-CPU offset, then
 * MAIR, TCR, TTBR0 and TTBR1 exactly as the boot CPU has them, and SCTLR
 * (MMU and caches on); then the kernel stack (SP_EL0, in the guarded
 * upper-half alias, see mmu.c) and secondary_start(boot) (the entry
 * function struct aarch64_secondary names: a selftest puts a probe of its
 * own there).
 *
 * Until its MMU is on the CPU reads memory as Device memory, straight
 * from RAM: it reads only what the boot CPU cleaned to the point of
 * coherency for it (secondary.h), and writes nothing.
 */
#include "secondary.h"
#include "sysreg.h"

	.text

	.globl	aarch64_spin_table_entry
aarch64_spin_table_entry:
	msr	daifset, #0xf
	mrs	x1, mpidr_el1
	ldr	x2, =MPIDR_AFFINITY_MASK
	and	x1, x1, x2
	/*
	 * Several CPUs may share one release address, so a CPU can be
	 * released before its own slot is published: it then waits for the
	 * next event (the boot CPU's sev after each release) and looks again.
	 */
1:	adr_l	x2, aarch64_spin_slots
	adr_l	x3, aarch64_spin_slots_nr
	ldr	x3, [x3]
	add	x3, x2, x3, lsl #4		/* SPIN_SLOT_SIZE = 16 */
2:	cmp	x2, x3
	b.hs	3f
	ldp	x4, x0, [x2], #SPIN_SLOT_SIZE	/* hwid, boot */
	cmp	x4, x1
	b.ne	2b
	/* An empty slot matches MPIDR 0: a CPU 0 must look on. */
	cbz	x0, 2b
	b	aarch64_secondary_entry
3:	wfe
	b	1b

	.globl	aarch64_secondary_entry
aarch64_secondary_entry:
	.cfi_startproc
	.cfi_undefined x30		/* the outermost frame: no caller */
	msr	daifset, #0xf
	mov	x19, x0			/* struct secondary_boot * */
	mrs	x1, CurrentEL
	ubfx	x1, x1, #2, #2
	cmp	x1, #2
	adr	x30, secondary_el1
	b.hi	aarch64_el3_to_el1
	b.eq	aarch64_el2_to_el1

secondary_el1:
	ldr	x0, =SCTLR_EL1_MMU_OFF
	msr	sctlr_el1, x0
	/* The MMU is off (it should be already) before the loads below. */
	isb
	ldr	x20, [x19, #SECONDARY_BOOT_ARCH]	/* struct aarch64_secondary */
	ldr	x0, [x20, #SEC_EXC_SP]
	mov	sp, x0			/* SP_EL1 */
	adr_l	x0, aarch64_vectors
	msr	vbar_el1, x0
	ldr	x0, [x20, #SEC_PERCPU]
	msr	tpidr_el1, x0
	/* The vectors are in effect before anything below can trap. */
	isb

	ldp	x0, x1, [x20, #SEC_MAIR]	/* MAIR, TCR */
	msr	mair_el1, x0
	msr	tcr_el1, x1
	ldp	x0, x1, [x20, #SEC_TTBR0]	/* TTBR0, TTBR1 */
	msr	ttbr0_el1, x0
	msr	ttbr1_el1, x1
	ldr	x21, [x20, #SEC_SCTLR]
	ldr	x22, [x20, #SEC_SP]
	ldr	x23, [x20, #SEC_ENTRY]
	/* MAIR, TCR and the TTBRs are in effect before the TLB maintenance. */
	isb
	/* Nothing a previous owner of this CPU cached may shadow our tables. */
	tlbi	vmalle1
	ic	iallu
	/* The invalidations are complete (this CPU's own, hence nsh)... */
	dsb	nsh
	/* ...before the MMU goes on, */
	isb
	msr	sctlr_el1, x21
	/* and the next instruction is fetched with it on (VA = PA here). */
	isb

	msr	spsel, #0
	mov	sp, x22			/* SP_EL0, from here on */
	/* A zero frame pointer and link register end every backtrace. */
	mov	x29, xzr
	mov	x30, xzr
	mov	x0, x19
	blr	x23			/* secondary_start(boot): no return */
	b	arch_halt
	.cfi_endproc

