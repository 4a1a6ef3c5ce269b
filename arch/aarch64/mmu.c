/*
 * mmu.c - aarch64 memory mapping (include/arch/mmu.h).
 *
 * The MMU is off: every access is to a physical address, RAM and devices
 * alike, so all RAM memblock knows is reachable without page tables.
 */
#include <arch/mmu.h>

void arch_mmu_init(void)
{
}
