/*
 * page_fill.c - cover a byte count with the fewest buddy blocks, largest
 * order first, falling back order by order (see include/mm/page_fill.h).
 */
#include <lib/compiler.h>
#include <lib/errno.h>
#include <mm/page_alloc.h>
#include <mm/page_fill.h>

/* The largest order whose block is no more than @pages pages (>= 1). */
static unsigned int order_within(unsigned long pages)
{
	return (unsigned int)(sizeof(long) * 8 - 1) - __builtin_clzl(pages);
}

int alloc_pages_fill(gfp_t gfp, size_t bytes, unsigned int max_order,
		     struct page_fill *fill)
{
	unsigned long pages = (bytes >> PAGE_SHIFT) + !!(bytes & (PAGE_SIZE - 1));
	unsigned int order = max_order > MAX_PAGE_ORDER ? MAX_PAGE_ORDER
						       : max_order;

	fill->nr_blocks = 0;
	fill->nr_pages = 0;
	while (pages) {
		struct page *page;

		if (fill->nr_blocks == fill->max_blocks) {
			free_pages_fill(fill);
			return -ENOSPC;
		}
		order = MIN(order, order_within(pages));
		while (!(page = alloc_pages(gfp | __GFP_NOWARN, order)) && order)
			order--;
		if (!page) {
			free_pages_fill(fill);
			return -ENOMEM;
		}
		fill->blocks[fill->nr_blocks++] =
			(struct page_fill_block){ page, order };
		fill->nr_pages += 1UL << order;
		pages -= 1UL << order;
	}
	return 0;
}

void free_pages_fill(struct page_fill *fill)
{
	while (fill->nr_blocks) {
		struct page_fill_block *b = &fill->blocks[--fill->nr_blocks];

		__free_pages(b->page, b->order);
	}
	fill->nr_pages = 0;
}
