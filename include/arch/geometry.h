/*
 * geometry.h - the arch's memory geometry, as the generic code sees it.
 *
 * Each arch's <asm/geometry.h> defines:
 *   PAGE_SHIFT                   log2 of the page size the MMU (or, with the
 *                                MMU off, the allocator) uses;
 *   SECTION_SIZE_BITS            log2 of a memory section: the unit in which
 *                                per-page metadata is allocated; no buddy
 *                                block may span two sections;
 *   ARCH_DEFAULT_MAX_PAGE_ORDER  the largest order when the build does not
 *                                choose one.
 * include/mm/page_order.h derives MAX_PAGE_ORDER and checks the geometry.
 */
#ifndef ARCH_GEOMETRY_H
#define ARCH_GEOMETRY_H

#include <asm/geometry.h>

#if !defined(PAGE_SHIFT) || !defined(SECTION_SIZE_BITS) || \
	!defined(ARCH_DEFAULT_MAX_PAGE_ORDER)
#error "<asm/geometry.h> must define PAGE_SHIFT, SECTION_SIZE_BITS and ARCH_DEFAULT_MAX_PAGE_ORDER."
#endif

#endif /* ARCH_GEOMETRY_H */
