/*
 * memory.h - physical and virtual addresses, and what the arch reserves.
 *
 * Every target runs with RAM identity-mapped (or the MMU off), and the host
 * build treats host virtual addresses as physical ones, so <asm/memory.h>
 * usually makes both conversions casts. They are still named, so that a port
 * with an offset map changes one header.
 */
#ifndef ARCH_MEMORY_H
#define ARCH_MEMORY_H

#include <lib/types.h>
#include <asm/memory.h>	/* phys_to_virt(), virt_to_phys() */

/*
 * arch_reserve_memory - reserve in memblock what only the arch knows about,
 * beyond the kernel image, the boot stack and the boot info (which boot/
 * reserves for every arch): on x86_64 the real-mode area below 1 MiB.
 * Called after the memory map is known, before any memblock allocation.
 */
void arch_reserve_memory(void);

/* Linker-script symbols: the loaded image and the boot stack. */
extern char _start[], _etext[], _end[];
extern char __boot_stack_bottom[], __boot_stack_top[];

#endif /* ARCH_MEMORY_H */
