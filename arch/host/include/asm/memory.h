/*
 * asm/memory.h - host address conversions (see include/arch/memory.h).
 *
 * On the host a "physical" address is a host virtual address, as in
 * Linux's tools/testing/memblock: tests map a buffer and memblock_add() it.
 */
#ifndef ASM_MEMORY_H
#define ASM_MEMORY_H

#include <lib/types.h>

static inline void *phys_to_virt(phys_addr_t pa)
{
	return (void *)(uintptr_t)pa;
}

static inline phys_addr_t virt_to_phys(const void *va)
{
	return (phys_addr_t)(uintptr_t)va;
}

#endif /* ASM_MEMORY_H */
