/*
 * selftest_mmu.c - arch_mmu_init() mapped every RAM region memblock
 * knows, to itself (but the secondary CPUs' stack guard pages, unmapped
 * on purpose: selftest_smp.c checks those).
 */
#include <asm/processor-flags.h>
#include <mm/memblock.h>
#include <selftest/selftest.h>
#include "pgtable.h"
#include "x86_64.h"

SELFTEST(x86_ram_mapped, STAGE_MEMBLOCK)
{
	phys_addr_t start, end;
	uint64_t i;

	for_each_mem_range (i, &start, &end) {
		/* The first 2 MiB, with the stack guard: selftest_pgtable.c. */
		start = MAX(start, (phys_addr_t)PMD_SIZE);
		for (uint64_t va = start; va < end;
		     va = ALIGN_DOWN(va, PMD_SIZE) + PMD_SIZE)
			SELFTEST_EXPECT(x86_identity_mapped(va) ||
					x86_is_stack_guard(va),
					"RAM at %#llx (region %#llx-%#llx) is "
					"not identity-mapped",
					(unsigned long long)va,
					(unsigned long long)start,
					(unsigned long long)end - 1);
		SELFTEST_EXPECT(start >= end || x86_identity_mapped(end - 1) ||
				x86_is_stack_guard(end - 1),
				"the last byte of RAM region ending %#llx is "
				"not identity-mapped",
				(unsigned long long)end);
	}
	return true;
}
