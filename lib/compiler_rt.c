/*
 * compiler_rt.c - the few compiler runtime helpers the kernel needs.
 *
 * GCC lowers __builtin_clz/ctz/popcount to calls (__clzdi2, __ctzdi2,
 * __popcountdi2, ...) on CPUs without a bit-count instruction, such as
 * rv64imac. libgcc provides them,
 * but Debian's riscv64 libgcc is built for the lp64d ABI, which cannot be
 * linked into buddyboot's soft-float (lp64) kernel. These portable versions
 * are linked first, so libgcc is never searched for them on any target.
 */
#include <lib/types.h>

int __clzdi2(uint64_t x);
int __ctzdi2(uint64_t x);
int __clzsi2(uint32_t x);
int __ctzsi2(uint32_t x);
int __popcountdi2(uint64_t x);
int __popcountsi2(uint32_t x);

/* Undefined for 0, as the builtins are; callers never pass 0. */
int __clzdi2(uint64_t x)
{
	int n = 0;

	for (int shift = 32; shift; shift >>= 1) {
		if (!(x >> (64 - shift))) {
			n += shift;
			x <<= shift;
		}
	}
	return n;
}

int __ctzdi2(uint64_t x)
{
	int n = 0;

	for (int shift = 32; shift; shift >>= 1) {
		if (!(x & ((1ULL << shift) - 1))) {
			n += shift;
			x >>= shift;
		}
	}
	return n;
}

int __clzsi2(uint32_t x)
{
	return __clzdi2((uint64_t)x << 32 | 0xffffffffu);
}

int __ctzsi2(uint32_t x)
{
	return __ctzdi2((uint64_t)x | 1ULL << 32);
}

/* Bits set in @x (the slab allocator counts its bitmaps with these). */
int __popcountdi2(uint64_t x)
{
	x = x - ((x >> 1) & 0x5555555555555555ULL);
	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (int)((x * 0x0101010101010101ULL) >> 56);
}

int __popcountsi2(uint32_t x)
{
	return __popcountdi2(x);
}
