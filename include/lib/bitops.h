/*
 * bitops.h - bit counts without a call: hweight_long(), Linux's name.
 *
 * GCC turns __builtin_popcountl() into a call to libgcc's (or
 * lib/compiler_rt.c's) __popcountdi2 on CPUs without a bit-count
 * instruction: x86_64's baseline and riscv64 without Zbb. The slab
 * allocator counts its bitmaps on its slow paths, where that call costs
 * more than the count; so those CPUs get the same SWAR sum inline.
 */
#ifndef LIB_BITOPS_H
#define LIB_BITOPS_H

#include <lib/types.h>

/* The number of bits set in @x. */
static inline unsigned int hweight_long(unsigned long x)
{
#if defined(__POPCNT__) || defined(__riscv_zbb) || defined(__aarch64__)
	return (unsigned int)__builtin_popcountl(x);
#else
	x = x - ((x >> 1) & 0x5555555555555555UL);
	x = (x & 0x3333333333333333UL) + ((x >> 2) & 0x3333333333333333UL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fUL;
	return (unsigned int)((x * 0x0101010101010101UL) >> 56);
#endif
}

#endif /* LIB_BITOPS_H */
