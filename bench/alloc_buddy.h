/*
 * alloc_buddy.h - the hot calls of buddyboot's buddy allocator, as the
 * benchmark makes them: alloc_pages() and __free_pages(), the interface a
 * kernel uses. A block is its struct page.
 */
#ifndef BENCH_ALLOC_BUDDY_H
#define BENCH_ALLOC_BUDDY_H

#include <mm/mm.h>

static inline void *bench_alloc(unsigned int order)
{
	return alloc_pages(GFP_KERNEL, order);
}

static inline void bench_free(void *blk, unsigned int order)
{
	__free_pages(blk, order);
}

/*
 * Small objects: kmalloc() and kfree(), as a kernel calls them: inline,
 * as <mm/slab.h> makes them (without always_inline GCC may put the
 * adapter, not the allocator, out of line and add a call).
 */
static inline __attribute__((always_inline)) void *bench_malloc(size_t size)
{
	return kmalloc(size, GFP_KERNEL);
}

static inline __attribute__((always_inline)) void bench_mfree(void *p)
{
	kfree(p);
}

#endif /* BENCH_ALLOC_BUDDY_H */
