/*
 * asm/geometry.h - aarch64 memory geometry (see include/arch/geometry.h).
 */
#ifndef ASM_GEOMETRY_H
#define ASM_GEOMETRY_H

/*
 * The translation granule is chosen at build time: PAGE_SIZE=4K, 16K or 64K
 * sets CONFIG_PAGE_SHIFT to 12, 14 or 16. With the MMU on, PAGE_SIZE is the
 * hardware page size.
 */
#ifndef CONFIG_PAGE_SHIFT
#define CONFIG_PAGE_SHIFT		12
#endif
#define PAGE_SHIFT			CONFIG_PAGE_SHIFT

/*
 * Section sizes and default orders are Linux arm64's (asm/sparsemem.h and
 * the ARCH_FORCE_MAX_ORDER defaults): 128 MiB sections for 4K and 16K
 * pages, 512 MiB for 64K pages. With 16K and 64K pages the default top
 * block is one level-2 block mapping (32 MiB and 512 MiB), so it can back a
 * huge page; with 4K pages it is the common 4 MiB (order 10).
 * Largest allowed: SECTION_SIZE_BITS - PAGE_SHIFT = 15, 13 and 13.
 */
#if PAGE_SHIFT == 12
#define SECTION_SIZE_BITS		27
#define ARCH_DEFAULT_MAX_PAGE_ORDER	10
#elif PAGE_SHIFT == 14
#define SECTION_SIZE_BITS		27
#define ARCH_DEFAULT_MAX_PAGE_ORDER	11
#elif PAGE_SHIFT == 16
#define SECTION_SIZE_BITS		29
#define ARCH_DEFAULT_MAX_PAGE_ORDER	13
#else
#error "aarch64 supports PAGE_SIZE=4K, 16K or 64K only."
#endif

#endif /* ASM_GEOMETRY_H */
