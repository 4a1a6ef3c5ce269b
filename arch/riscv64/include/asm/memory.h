/*
 * asm/memory.h - riscv64 address conversions (see include/arch/memory.h).
 *
 * riscv64 runs in Bare mode (satp = 0): no translation at all, so a physical
 * address is its own virtual address.
 */
#ifndef ASM_MEMORY_H
#define ASM_MEMORY_H

#include <asm-generic/identity_map.h>

#endif /* ASM_MEMORY_H */
