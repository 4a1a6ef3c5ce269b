/*
 * asm/memory.h - host address conversions (see include/arch/memory.h).
 *
 * On the host a "physical" address is a host virtual address, as in
 * Linux's tools/testing/memblock: tests map a buffer and memblock_add() it.
 * A test may shift that map by host_phys_offset (0 unless set), so that a
 * buffer stands for low physical memory, PFN 0 included, which no host
 * process can map at its own address 0.
 */
#ifndef ASM_MEMORY_H
#define ASM_MEMORY_H

#include <lib/types.h>

extern uintptr_t host_phys_offset;

static inline void *phys_to_virt(phys_addr_t pa)
{
	return (void *)(uintptr_t)(pa + host_phys_offset);
}

static inline phys_addr_t virt_to_phys(const void *va)
{
	return (phys_addr_t)((uintptr_t)va - host_phys_offset);
}

#endif /* ASM_MEMORY_H */
