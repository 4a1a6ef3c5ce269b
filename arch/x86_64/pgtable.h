/*
 * pgtable.h - walking the x86_64 4-level page tables that CR3 points to.
 *
 * Every table is reached through phys_to_virt(): RAM below 4 GiB, where
 * entry.S and arch_mmu_init() take page-table pages, is identity-mapped.
 */
#ifndef ARCH_X86_64_PGTABLE_H
#define ARCH_X86_64_PGTABLE_H

#include <lib/types.h>

typedef uint64_t pte_t;

/*
 * x86_pd_entry - the page-directory entry (2 MiB granule) covering @va.
 * A missing PDPT or PD is taken from @alloc_table, which returns a zeroed
 * page; with @alloc_table NULL, a missing level gives NULL.
 */
pte_t *x86_pd_entry(uint64_t va, pte_t *(*alloc_table)(void));

/*
 * x86_translate - where @va leads, through 2 MiB or 4 KiB pages.
 * Return: true and *@pa set, or false when @va is not mapped.
 */
bool x86_translate(uint64_t va, phys_addr_t *pa);

/* x86_identity_mapped - @va is mapped, to the physical address @va. */
bool x86_identity_mapped(uint64_t va);

/*
 * x86_unmap_page - unmap the 4 KiB page at @va (a stack guard), splitting
 * the 2 MiB page around it into a 4 KiB table from @alloc_table (zeroed
 * or not: every entry is written) if need be; flushes this CPU's TLB.
 * Return: 0, -EINVAL when @va is not mapped, -ENOMEM.
 */
int x86_unmap_page(uint64_t va, pte_t *(*alloc_table)(void));

#endif /* ARCH_X86_64_PGTABLE_H */
