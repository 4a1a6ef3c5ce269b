/*
 * stack_alias.h - the upper half of the address space (TTBR1), where
 * mmu.c maps each secondary CPU's kernel stack a second time, page by
 * page, with unmapped guard pages around it (see mmu.c for why).
 */
#ifndef AARCH64_STACK_ALIAS_H
#define AARCH64_STACK_ALIAS_H

#include <lib/types.h>

/* Both halves translate 39 bits: TTBR0 the identity map, TTBR1 this. */
#define VA_BITS			39
#define STACK_ALIAS_BASE	(~0UL << VA_BITS)
#define STACK_ALIAS_SIZE	(1UL << VA_BITS)
/* One slot per CPU: its stack at the top, nothing mapped below. */
#define STACK_SLOT_SIZE		(4UL << 20)

/*
 * aarch64_map_stack - map @size bytes of RAM at @pa (whole pages) at the
 * top of slot @slot; *@base = where the first byte appears. Everything
 * else in the slot stays unmapped. Called by the boot CPU only; other
 * CPUs may run on the same tables meanwhile.
 * Return: 0, -EINVAL (with a message) for a range that is not whole pages
 * or does not fit, -ENOMEM when no page is left for a table.
 */
int aarch64_map_stack(unsigned int slot, phys_addr_t pa, size_t size,
		      uintptr_t *base);

#endif /* AARCH64_STACK_ALIAS_H */
