/*
 * page_order.h - page size, section size and the range of buddy orders.
 *
 * MAX_PAGE_ORDER is the largest order the buddy allocator hands out,
 * inclusive: blocks of 2^0 .. 2^MAX_PAGE_ORDER pages. NR_PAGE_ORDERS is the
 * number of orders, and so the number of free lists. Loops over all orders
 * read "order <= MAX_PAGE_ORDER" or "order < NR_PAGE_ORDERS"; arrays of free
 * lists are [NR_PAGE_ORDERS].
 *
 * The old name for one of these two values meant the other for 24 years and
 * broke code silently when it changed; it is poisoned below so that any use
 * fails to compile.
 */
#ifndef MM_PAGE_ORDER_H
#define MM_PAGE_ORDER_H

#include <arch/geometry.h>

#pragma GCC poison MAX_ORDER

#ifdef CONFIG_MAX_PAGE_ORDER
#define MAX_PAGE_ORDER	CONFIG_MAX_PAGE_ORDER
#else
#define MAX_PAGE_ORDER	ARCH_DEFAULT_MAX_PAGE_ORDER
#endif

#define NR_PAGE_ORDERS	(MAX_PAGE_ORDER + 1)

/*
 * A buddy block must never straddle two sections, because per-page metadata
 * is allocated section by section: the largest block, 2^(MAX_PAGE_ORDER +
 * PAGE_SHIFT) bytes, has to fit in one 2^SECTION_SIZE_BITS-byte section.
 * The per-page metadata keeps the order in 4 bits, so 15 is a hard ceiling.
 */
#if MAX_PAGE_ORDER < 0
#error "MAX_PAGE_ORDER must be 0 or more: it is the largest order, inclusive."
#endif
#if MAX_PAGE_ORDER + PAGE_SHIFT > SECTION_SIZE_BITS
#error "MAX_PAGE_ORDER + PAGE_SHIFT must not exceed SECTION_SIZE_BITS: the largest buddy block would span two memory sections. Choose a smaller MAX_PAGE_ORDER."
#endif
#if MAX_PAGE_ORDER > 15
#error "MAX_PAGE_ORDER must not exceed 15: the per-page metadata stores an order in 4 bits."
#endif

#define PAGE_SIZE		(1UL << PAGE_SHIFT)
#define PAGE_MASK		(~(PAGE_SIZE - 1))
#define PFN_SECTION_SHIFT	(SECTION_SIZE_BITS - PAGE_SHIFT)
#define PAGES_PER_SECTION	(1UL << PFN_SECTION_SHIFT)
#define MAX_BLOCK_PAGES		(1UL << MAX_PAGE_ORDER)	/* pages in a top-order block */

#define PFN_UP(x)	(((x) + PAGE_SIZE - 1) >> PAGE_SHIFT)
#define PFN_DOWN(x)	((x) >> PAGE_SHIFT)
#define PFN_PHYS(x)	((phys_addr_t)(x) << PAGE_SHIFT)
#define PHYS_PFN(x)	((unsigned long)((x) >> PAGE_SHIFT))

#endif /* MM_PAGE_ORDER_H */
