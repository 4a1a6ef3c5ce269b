/*
 * memblock_internal.h - what memblock.c and memblock_range.c share, and
 * nothing else may use.
 */
#ifndef MM_MEMBLOCK_INTERNAL_H
#define MM_MEMBLOCK_INTERNAL_H

#include <mm/memblock.h>

/*
 * memblock_find_in_range - the free range of @size bytes aligned to @align
 * inside [@start, @end) and inside the memory regions' whole pages,
 * highest first unless bottom-up is set; nothing is reserved.
 * Return: its base, or 0 when nothing fits.
 */
phys_addr_t memblock_find_in_range(phys_addr_t size, phys_addr_t align,
				   phys_addr_t start, phys_addr_t end);

/* The index of the region of @type holding @addr, or -1. Binary search. */
long memblock_search(const struct memblock_type *type, phys_addr_t addr);

#endif /* MM_MEMBLOCK_INTERNAL_H */
