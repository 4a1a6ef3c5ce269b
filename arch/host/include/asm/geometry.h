/*
 * asm/geometry.h - host memory geometry (see include/arch/geometry.h).
 */
#ifndef ASM_GEOMETRY_H
#define ASM_GEOMETRY_H

/*
 * The host build models a 4K-page machine with the same geometry as
 * riscv64 and x86_64, so that host tests exercise the common case.
 * CONFIG_MAX_PAGE_ORDER may still be set to test other orders.
 */
#define PAGE_SHIFT			12
#define SECTION_SIZE_BITS		27
#define ARCH_DEFAULT_MAX_PAGE_ORDER	10

#endif /* ASM_GEOMETRY_H */
