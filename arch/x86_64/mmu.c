/*
 * mmu.c - arch_mmu_init(): extend entry.S's identity map of [0, 4 GiB) to
 * every byte of RAM that memblock knows, with 2 MiB pages.
 *
 * Policy:
 *  - A region is mapped in whole 2 MiB pages, rounded outwards: a page may
 *    reach past the end of RAM into a hole, as the boot map's pages reach
 *    into the PCI hole. The MTRRs the firmware set keep such holes
 *    uncached whatever the page tables say, as for the boot map.
 *  - What is mapped already stays as it is: the first 2 MiB keep their
 *    4 KiB pages and the stack guard page, the boot map its entries.
 *  - Page-table pages come from memblock, below 4 GiB and above the first
 *    2 MiB: memory the boot map reaches already, so a new table can be
 *    written before anything maps it.
 *  - RAM the CPU cannot address (beyond MAXPHYADDR, CPUID 0x80000008) or
 *    that does not fit the identity map of 4-level paging (the lower half
 *    of a 48-bit address space) is reported and removed from memblock,
 *    so it is never handed out.
 */
#include <arch/mmu.h>
#include <asm/memory.h>
#include <asm/processor-flags.h>
#include <asm/x86.h>
#include <lib/compiler.h>
#include <lib/printk.h>
#include <lib/string.h>
#include <mm/memblock.h>
#include <mm/page_order.h>
#include "pgtable.h"

#define IDENTITY_MAP_LIMIT   (1ULL << 47) /* lower half, 4-level paging */
#define TABLE_ALLOC_LOW_LIMIT PMD_SIZE

static unsigned long tables_added;

static pte_t *alloc_table(void)
{
	phys_addr_t pa = memblock_phys_alloc_range(
		PAGE_SIZE, PAGE_SIZE, TABLE_ALLOC_LOW_LIMIT, BOOT_MAP_SIZE);

	if (!pa)
		panic("arch_mmu_init: no free memory below 4 GiB for a page "
		      "table");
	memset(phys_to_virt(pa), 0, PAGE_SIZE);
	tables_added++;
	return phys_to_virt(pa);
}

/* The first address the identity map cannot reach on this CPU. */
static phys_addr_t mappable_limit(void)
{
	unsigned int phys_bits = 36; /* the architectural minimum */

	if (cpuid(0x80000000, 0).eax >= 0x80000008)
		phys_bits = cpuid(0x80000008, 0).eax & 0xff;
	return MIN(1ULL << phys_bits, IDENTITY_MAP_LIMIT);
}

static void map_range(phys_addr_t start, phys_addr_t end)
{
	for (phys_addr_t pa = ALIGN_DOWN(start, PMD_SIZE); pa < end;
	     pa += PMD_SIZE) {
		pte_t *pde = x86_pd_entry(pa, alloc_table);

		if (!(*pde & PTE_PRESENT))
			*pde = pa | PTE_LARGE_PAGE;
	}
}

void arch_mmu_init(void)
{
	phys_addr_t limit = mappable_limit();
	phys_addr_t start, end;
	uint64_t i;

	if (memblock_end_of_DRAM() > limit) {
		pr_warn("RAM at and above %#llx is beyond what this CPU can "
			"identity-map; ignoring %#llx-%#llx\n",
			(unsigned long long)limit, (unsigned long long)limit,
			(unsigned long long)memblock_end_of_DRAM() - 1);
		/* Cannot fail before the hand-off; never leaves RAM above. */
		memblock_cap_memory(limit);
	}

	for_each_mem_range (i, &start, &end)
		map_range(start, end);
	flush_tlb_all();
	pr_info("x86_64: RAM identity-mapped up to %#llx, %lu page-table "
		"pages added\n",
		(unsigned long long)memblock_end_of_DRAM(), tables_added);
}
