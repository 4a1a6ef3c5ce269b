/*
 * secondary.h - what a secondary CPU reads before its MMU is on, shared
 * by secondary.S (offsets) and smp.c (the structs, checked against them).
 *
 * Everything here is read with the MMU off, so as Device memory straight
 * from RAM: the boot CPU cleans it to the point of coherency before it
 * starts the CPU (smp.c), and never writes it again while that CPU may
 * still read it that way.
 */
#ifndef AARCH64_SECONDARY_H
#define AARCH64_SECONDARY_H

/* struct aarch64_secondary: the boot CPU's MMU set-up and this CPU's stacks. */
#define SEC_MAIR		0
#define SEC_TCR			8
#define SEC_TTBR0		16
#define SEC_TTBR1		24
#define SEC_SCTLR		32
#define SEC_SP			40	/* kernel stack top, guarded alias: SP_EL0 */
#define SEC_EXC_SP		48	/* exception stack top, identity: SP_EL1 */
#define SEC_PERCPU		56	/* per-CPU offset: TPIDR_EL1 */
#define SEC_ENTRY		64	/* the C function: secondary_start */
#define SEC_SIZE		128	/* two cache lines */

/* struct secondary_boot (<arch/smp.h>): the one field the entry reads. */
#define SECONDARY_BOOT_ARCH	40

/* struct spin_slot: a spin-table CPU finds its boot data by MPIDR. */
#define SPIN_SLOT_HWID		0
#define SPIN_SLOT_BOOT		8
#define SPIN_SLOT_SIZE		16

#ifndef __ASSEMBLY__

#include <lib/types.h>

struct aarch64_secondary {
	uint64_t mair, tcr, ttbr0, ttbr1, sctlr;
	uint64_t sp;
	uint64_t exc_sp;
	uint64_t percpu_offset;
	uint64_t entry;		/* void (*)(struct secondary_boot *) */
	uint64_t unused[7];
};

struct spin_slot {
	uint64_t hwid;
	uint64_t boot;		/* struct secondary_boot *, 0 = not yet */
};

void aarch64_secondary_entry(void);
void aarch64_spin_table_entry(void);

#endif /* !__ASSEMBLY__ */
#endif /* AARCH64_SECONDARY_H */
