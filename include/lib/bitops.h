/*
 * bitops.h - bit counts without a call: hweight_long(), Linux's name.
 *
 * GCC turns __builtin_popcountl() into a call to libgcc's (or
 * lib/compiler_rt.c's) __popcountdi2 wherever the CPU has no bit-count
 * instruction on general registers: x86_64's baseline, riscv64 without
 * Zbb, and aarch64 built with -mgeneral-regs-only (its CNT is a SIMD
 * instruction; CSSC's is on general registers). The slab allocator
 * counts its bitmaps on its slow paths, where that call costs more than
 * the count: those builds get the SWAR sum inline, and __popcountdi2 is
 * this same function, so the sum is written once.
 */
#ifndef LIB_BITOPS_H
#define LIB_BITOPS_H

#include <lib/types.h>

/* The number of bits set in @x. */
static inline unsigned int hweight_long(unsigned long x)
{
#if defined(__POPCNT__) || defined(__riscv_zbb) || defined(__ARM_FEATURE_CSSC)
	return (unsigned int)__builtin_popcountl(x);
#else
	x = x - ((x >> 1) & 0x5555555555555555UL);
	x = (x & 0x3333333333333333UL) + ((x >> 2) & 0x3333333333333333UL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fUL;
	return (unsigned int)((x * 0x0101010101010101UL) >> 56);
#endif
}

#endif /* LIB_BITOPS_H */
