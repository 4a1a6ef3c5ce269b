/*
 * page_fill.h - cover a byte count with the fewest buddy blocks.
 *
 * What dm-crypt's write buffer allocation does (Linux commit 5054e778fcd9,
 * seed patch 010, see tests/selftest/seeds.c): take the largest block that fits what is left, and when no
 * block of that order is free, fall back one order at a time. The seed
 * started that search one below the old name, and so, after the redefinition,
 * never used the top order; here the search starts at MAX_PAGE_ORDER.
 */
#ifndef MM_PAGE_FILL_H
#define MM_PAGE_FILL_H

#include <lib/types.h>
#include <mm/gfp.h>

struct page_fill_block {
	struct page *page;
	unsigned int order;
};

/* The caller provides @blocks, room for @max_blocks entries. */
struct page_fill {
	struct page_fill_block *blocks;
	unsigned int max_blocks;
	unsigned int nr_blocks;		/* blocks held now */
	unsigned long nr_pages;		/* pages held now */
};

/*
 * alloc_pages_fill - allocate blocks that together hold @bytes (rounded up
 * to whole pages, never more), largest first: each block is the largest
 * order <= @max_order (clamped to MAX_PAGE_ORDER) that fits what is left
 * and is available; the order only goes down.
 * Return: 0 with the blocks in @fill; -ENOMEM when memory runs out, or
 * -ENOSPC when @fill->max_blocks is too few: then nothing stays allocated.
 */
int alloc_pages_fill(gfp_t gfp, size_t bytes, unsigned int max_order,
		     struct page_fill *fill);

/* free_pages_fill - free every block in @fill; @fill is then empty. */
void free_pages_fill(struct page_fill *fill);

#endif /* MM_PAGE_FILL_H */
