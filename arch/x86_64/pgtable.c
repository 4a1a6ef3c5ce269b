/*
 * pgtable.c - finding entries in the 4-level page tables (see pgtable.h).
 *
 * Only what buddyboot maps exists here: 4 KiB tables under PD entries
 * (entry.S, the first 2 MiB; x86_unmap_page() for secondary CPUs' stack
 * guards) and 2 MiB pages; never 1 GiB pages.
 */
#include <asm/geometry.h>
#include <asm/memory.h>
#include <asm/processor-flags.h>
#include <asm/x86.h>
#include <lib/errno.h>
#include "pgtable.h"

#define PAGE_OFFSET_4K	       0xfffULL
#define PAGE_OFFSET_2M	       (PMD_SIZE - 1)
#define TABLE_INDEX(va, shift) (((va) >> (shift)) & (PTRS_PER_TABLE - 1))

static pte_t *table_at(pte_t entry)
{
	return phys_to_virt(entry & PTE_ADDR_MASK);
}

/* The table @entry points to, allocating it if missing and allowed. */
static pte_t *next_table(pte_t *entry, pte_t *(*alloc_table)(void))
{
	if (!(*entry & PTE_PRESENT)) {
		if (!alloc_table)
			return NULL;
		*entry = virt_to_phys(alloc_table()) | PTE_TABLE;
	}
	return table_at(*entry);
}

pte_t *x86_pd_entry(uint64_t va, pte_t *(*alloc_table)(void))
{
	pte_t *table = phys_to_virt(read_cr3() & PTE_ADDR_MASK);

	table = next_table(&table[TABLE_INDEX(va, PGDIR_SHIFT)], alloc_table);
	if (!table)
		return NULL;
	table = next_table(&table[TABLE_INDEX(va, PUD_SHIFT)], alloc_table);
	if (!table)
		return NULL;
	return &table[TABLE_INDEX(va, PMD_SHIFT)];
}

bool x86_translate(uint64_t va, phys_addr_t *pa)
{
	pte_t *pde = x86_pd_entry(va, NULL);
	pte_t pte;

	if (!pde || !(*pde & PTE_PRESENT))
		return false;
	if (*pde & PTE_PSE) {
		*pa = (*pde & PTE_ADDR_MASK & ~PAGE_OFFSET_2M) |
		      (va & PAGE_OFFSET_2M);
		return true;
	}
	pte = table_at(*pde)[TABLE_INDEX(va, PAGE_SHIFT)];
	if (!(pte & PTE_PRESENT))
		return false;
	*pa = (pte & PTE_ADDR_MASK) | (va & PAGE_OFFSET_4K);
	return true;
}

bool x86_identity_mapped(uint64_t va)
{
	phys_addr_t pa;

	return x86_translate(va, &pa) && pa == va;
}

int x86_unmap_page(uint64_t va, pte_t *(*alloc_table)(void))
{
	pte_t *pde = x86_pd_entry(va, NULL);
	pte_t *pt;

	if (!pde || !(*pde & PTE_PRESENT))
		return -EINVAL;
	if (*pde & PTE_PSE) {
		/*
		 * Split the 2 MiB page into 512 4 KiB pages of the same
		 * addresses and permissions, then swap the entry: CPUs that
		 * still hold the large translation in their TLBs see the
		 * same memory through it.
		 */
		uint64_t base = *pde & PTE_ADDR_MASK & ~PAGE_OFFSET_2M;
		uint64_t flags = *pde & ~PTE_ADDR_MASK & ~PTE_PSE;

		pt = alloc_table();
		if (!pt)
			return -ENOMEM;
		for (unsigned int i = 0; i < PTRS_PER_TABLE; i++)
			pt[i] = (base + ((uint64_t)i << PAGE_SHIFT)) | flags;
		*pde = virt_to_phys(pt) | PTE_TABLE;
	}
	pt = table_at(*pde);
	pt[TABLE_INDEX(va, PAGE_SHIFT)] = 0;
	flush_tlb_all();
	return 0;
}
