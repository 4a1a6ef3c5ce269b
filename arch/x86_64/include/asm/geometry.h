/*
 * asm/geometry.h - x86_64 memory geometry (see include/arch/geometry.h).
 */
#ifndef ASM_GEOMETRY_H
#define ASM_GEOMETRY_H

/* x86-64 base pages are 4 KiB. */
#define PAGE_SHIFT			12

/*
 * 128 MiB sections, as Linux x86_64 (asm/sparsemem.h): the granule of
 * memory hotplug there, and the granule of per-page metadata here.
 */
#define SECTION_SIZE_BITS		27

/* 2^10 pages = 4 MiB blocks, as Linux on 4K pages. Largest allowed: 15. */
#define ARCH_DEFAULT_MAX_PAGE_ORDER	10

#endif /* ASM_GEOMETRY_H */
