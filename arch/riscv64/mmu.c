/*
 * mmu.c - riscv64 memory mapping (include/arch/mmu.h).
 *
 * buddyboot runs in S-mode with satp = 0 (Bare mode): there is no
 * translation, every physical address is directly addressable, and all RAM
 * that memblock knows is reachable at phys_to_virt() without page tables.
 * OpenSBI's PMP still guards its own region, which boot/ reserves from the
 * device tree, so nothing ever touches it.
 */
#include <arch/mmu.h>

void arch_mmu_init(void)
{
}
