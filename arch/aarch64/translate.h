/*
 * translate.h - ask the MMU itself what an address maps to (AT S1E1R),
 * for the selftests.
 */
#ifndef AARCH64_TRANSLATE_H
#define AARCH64_TRANSLATE_H

#include <lib/types.h>
#include "sysreg.h"

/* PAR_EL1 after a stage-1 EL1 read translation of @va. */
static inline unsigned long translate(uintptr_t va)
{
	__asm__ volatile("at s1e1r, %0\n"
			 "isb" ::"r"(va)
			 : "memory");
	return read_sysreg(par_el1);
}

/*
 * What arch_mmu_init() (mmu.c) made, for the selftests: the end of the
 * identity map, and how many next-level tables split a block that RAM
 * covers in part.
 */
extern phys_addr_t aarch64_mmu_limit;
extern unsigned int aarch64_mmu_split_tables;

#define PAR_FAULT		1UL
#define PAR_PA(par)		((par) & 0xfffffffff000UL)
#define PAR_ATTR(par)		((par) >> 56)

#endif /* AARCH64_TRANSLATE_H */
