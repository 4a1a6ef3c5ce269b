/*
 * asm/memory.h - aarch64 address conversions (see include/arch/memory.h).
 *
 * RAM is identity-mapped (or the MMU is off): physical == virtual.
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
