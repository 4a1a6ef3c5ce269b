/*
 * asm/memory.h - x86_64 address conversions (see include/arch/memory.h).
 *
 * x86_64 identity-maps all RAM (arch/x86_64/mmu.c), so a physical
 * address is its own virtual address.
 */
#ifndef ASM_MEMORY_H
#define ASM_MEMORY_H

#include <asm-generic/identity_map.h>

#endif /* ASM_MEMORY_H */
