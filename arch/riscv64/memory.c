/*
 * memory.c - what riscv64 reserves beyond what boot/ reserves.
 */
#include <arch/memory.h>

/*
 * Nothing beyond what boot/ reserves for every arch: the image, the boot
 * stack, the DTB and the DTB's reservations, which on riscv64 include
 * OpenSBI's own memory (/reserved-memory/mmode_resv*).
 */
void arch_reserve_memory(void)
{
}
