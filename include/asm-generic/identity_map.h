/*
 * asm-generic/identity_map.h - address conversions for a target whose RAM
 * is identity-mapped, or used with the MMU off: physical == virtual.
 *
 * An arch's <asm/memory.h> includes this when that is how it runs (every
 * target today); a port with an offset or a higher-half map writes its own
 * two functions instead, and nothing else changes.
 */
#ifndef ASM_GENERIC_IDENTITY_MAP_H
#define ASM_GENERIC_IDENTITY_MAP_H

#include <lib/types.h>

static inline void *phys_to_virt(phys_addr_t pa)
{
	return (void *)(uintptr_t)pa;
}

static inline phys_addr_t virt_to_phys(const void *va)
{
	return (phys_addr_t)(uintptr_t)va;
}

#endif /* ASM_GENERIC_IDENTITY_MAP_H */
