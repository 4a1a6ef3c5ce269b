/*
 * memory.c - what aarch64 reserves beyond what boot/ reserves.
 */
#include <arch/memory.h>

/*
 * Nothing beyond what boot/ reserves for every arch: the image, the boot
 * stack, the DTB (QEMU lists it nowhere) and the DTB's reservations.
 */
void arch_reserve_memory(void)
{
}
