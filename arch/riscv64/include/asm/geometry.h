/*
 * asm/geometry.h - riscv64 memory geometry (see include/arch/geometry.h).
 */
#ifndef ASM_GEOMETRY_H
#define ASM_GEOMETRY_H

/* Sv39/Sv48 base pages are 4 KiB; there is no other base page size. */
#define PAGE_SHIFT			12

/*
 * 128 MiB sections, as Linux riscv (asm/sparsemem.h): small enough that a
 * board with a few hundred MiB wastes little metadata on a partly populated
 * section, large enough for a 2^15-page (128 MiB) block at most.
 */
#define SECTION_SIZE_BITS		27

/* 2^10 pages = 4 MiB blocks, as Linux on 4K pages. Largest allowed: 15. */
#define ARCH_DEFAULT_MAX_PAGE_ORDER	10

#endif /* ASM_GEOMETRY_H */
