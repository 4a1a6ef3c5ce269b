/*
 * asm/memory.h - aarch64 address conversions (see include/arch/memory.h).
 *
 * aarch64 identity-maps all RAM (arch/aarch64/mmu.c), so a physical
 * address is its own virtual address.
 */
#ifndef ASM_MEMORY_H
#define ASM_MEMORY_H

#include <asm-generic/identity_map.h>

#endif /* ASM_MEMORY_H */
