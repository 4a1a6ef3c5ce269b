/*
 * bitops.h - bit operations without a call: hweight_long() and __ffs()
 * (Linux's names), ror64().
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

/* @x rotated right by @s bits, @s < 64: one instruction where CPUs have it. */
static inline __attribute__((always_inline)) unsigned long
ror64(unsigned long x, unsigned int s)
{
	return x >> s | x << (-s & 63);
}

/*
 * lib/compiler_rt.c's de Bruijn table: for m, the mask of bits 0 to i,
 * entry (m * DEBRUIJN64) >> 58 is i.
 */
extern const uint8_t debruijn_index[64];
#define DEBRUIJN64	0x03f79d71b4cb0a89UL

/*
 * The index of the lowest set bit of @x; undefined for 0. Without a call
 * on every target, and as a whole word: on x86_64 the bit scan (tzcnt
 * where the CPU has BMI1, which gives the same index for any @x but 0)
 * writes the full register, where __builtin_ctzl()'s int result costs a
 * sign extension before it scales an address; on riscv64 without Zbb,
 * the de Bruijn lookup of __ctzdi2() inline.
 */
static inline __attribute__((always_inline)) unsigned long
__ffs(unsigned long x)
{
#if defined(__x86_64__)
	unsigned long index;

	__asm__("rep; bsf %1, %0" : "=r"(index) : "rm"(x) : "cc");
	return index;
#elif defined(__riscv) && !defined(__riscv_zbb)
	/* x ^ (x - 1): the lowest set bit and every bit below it. */
	return debruijn_index[((x ^ (x - 1)) * DEBRUIJN64) >> 58];
#else
	return (unsigned long)__builtin_ctzl(x);
#endif
}

#endif /* LIB_BITOPS_H */
