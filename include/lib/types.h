/*
 * types.h - the fixed-width and address types used across buddyboot.
 *
 * stdint.h, stddef.h and stdbool.h are compiler-provided headers, available
 * to -ffreestanding code; nothing here needs a libc.
 */
#ifndef LIB_TYPES_H
#define LIB_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A physical address. 64 bits on every target, as in Linux's PHYS_ADDR_T_64BIT. */
typedef uint64_t phys_addr_t;

#define PHYS_ADDR_MAX	((phys_addr_t)~0ULL)

#endif /* LIB_TYPES_H */
