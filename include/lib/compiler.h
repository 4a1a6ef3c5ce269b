/*
 * compiler.h - attributes and small helpers shared by every file.
 *
 * Freestanding: no libc header is assumed beyond what GCC and Clang provide
 * for -ffreestanding builds.
 */
#ifndef LIB_COMPILER_H
#define LIB_COMPILER_H

#define __noreturn	__attribute__((noreturn))
#define __packed	__attribute__((packed))
#define __aligned(x)	__attribute__((aligned(x)))
/*
 * The cache line every target's CPUs share data in (64 bytes on the
 * cores buddyboot runs on): what data written by different CPUs is kept
 * apart by.
 */
#define SMP_CACHE_BYTES	64
#define __section(s)	__attribute__((section(s)))
#define __used		__attribute__((used))
#define __unused	__attribute__((unused))
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#define __weak		__attribute__((weak))

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - __builtin_offsetof(type, member)))

#define ALIGN_UP(x, a)		(((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a)	((x) & ~((__typeof__(x))(a) - 1))
#define IS_ALIGNED(x, a)	(((x) & ((__typeof__(x))(a) - 1)) == 0)

#define MIN(a, b)	((a) < (b) ? (a) : (b))
#define MAX(a, b)	((a) > (b) ? (a) : (b))

#endif /* LIB_COMPILER_H */
