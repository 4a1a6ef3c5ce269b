/*
 * selftest_pgtable.c - the boot page tables (entry.S) map what they must
 * and not what they must not: page 0 (where QEMU's PVH ROM puts the
 * memory map), the image and [2 MiB, 4 GiB) to themselves, apart from
 * the secondary CPUs' stack guard pages (unmapped by smp.c, on purpose);
 * and not the guard page under the boot stack.
 */
#include <arch/memory.h>
#include <asm/processor-flags.h>
#include <selftest/selftest.h>
#include "pgtable.h"
#include "x86_64.h"

extern char __boot_stack_guard[];

SELFTEST(x86_boot_map, STAGE_BOOT)
{
	phys_addr_t pa;

	SELFTEST_EXPECT(x86_identity_mapped(0),
			"page 0 is not identity-mapped");
	SELFTEST_EXPECT(!x86_translate((uintptr_t)__boot_stack_guard, &pa),
			"the boot stack guard page %p is mapped",
			(void *)__boot_stack_guard);
	for (uintptr_t va = (uintptr_t)_start; va < (uintptr_t)_end;
	     va += PAGE_SIZE)
		SELFTEST_EXPECT(va == (uintptr_t)__boot_stack_guard ||
					x86_identity_mapped(va),
				"image page %#lx is not identity-mapped",
				(unsigned long)va);
	/*
	 * A secondary CPU's stack guard page, unmapped since (smp.c), may be
	 * the first or last page of a 2 MiB block: with many CPUs one is.
	 */
	for (uint64_t va = PMD_SIZE; va < BOOT_MAP_SIZE; va += PMD_SIZE)
		SELFTEST_EXPECT((x86_identity_mapped(va) ||
				 x86_is_stack_guard(va)) &&
				(x86_identity_mapped(va + PMD_SIZE - 1) ||
				 x86_is_stack_guard(va + PMD_SIZE - 1)),
				"%#llx is not identity-mapped by the boot map",
				(unsigned long long)va);
	return true;
}
