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
#include <lib/bitops.h>
#include <lib/types.h>

int __clzdi2(uint64_t x);
int __ctzdi2(uint64_t x);
int __clzsi2(uint32_t x);
int __ctzsi2(uint32_t x);
int __popcountdi2(uint64_t x);
int __popcountsi2(uint32_t x);

/*
 * Undefined for 0, as the builtins are; callers never pass 0. A de Bruijn
 * multiply and a table lookup, not a loop. __ffs() (<lib/bitops.h>),
 * which the slab allocator's inline fast path takes on every allocation,
 * does the same lookup itself, without the call: hence not static.
 */
const uint8_t debruijn_index[64] = {
	0, 47,  1, 56, 48, 27,  2, 60, 57, 49, 41, 37, 28, 16,  3, 61,
	54, 58, 35, 52, 50, 42, 21, 44, 38, 32, 29, 23, 17, 11,  4, 62,
	46, 55, 26, 59, 40, 36, 15, 53, 34, 51, 20, 43, 31, 22, 10, 45,
	25, 39, 14, 33, 19, 30,  9, 24, 13, 18,  8, 12,  7,  6,  5, 63,
};

int __clzdi2(uint64_t x)
{
	/* Every bit below the highest set, then the highest's index. */
	x |= x >> 1;
	x |= x >> 2;
	x |= x >> 4;
	x |= x >> 8;
	x |= x >> 16;
	x |= x >> 32;
	return 63 - debruijn_index[(x * DEBRUIJN64) >> 58];
}

int __ctzdi2(uint64_t x)
{
	/* Its lookup where the CPU has no count (never a call back here). */
	return (int)__ffs(x);
}

int __clzsi2(uint32_t x)
{
	return __clzdi2((uint64_t)x << 32 | 0xffffffffu);
}

int __ctzsi2(uint32_t x)
{
	return __ctzdi2((uint64_t)x | 1ULL << 32);
}

/*
 * Bits set in @x: <lib/bitops.h>'s sum, which takes the builtin only
 * where it is an instruction, never this call.
 */
int __popcountdi2(uint64_t x)
{
	return (int)hweight_long(x);
}

int __popcountsi2(uint32_t x)
{
	return __popcountdi2(x);
}
