/*
 * alloc_mimalloc.h - the hot calls for mimalloc: its own aligned call,
 * mi_malloc_aligned(), and mi_free(), named explicitly so that there is no
 * doubt which allocator answers (its posix_memalign is a wrapper round the
 * same call).
 */
#ifndef BENCH_ALLOC_MIMALLOC_H
#define BENCH_ALLOC_MIMALLOC_H

#include <mimalloc.h>
#include "bench.h"

static inline void *bench_alloc(unsigned int order)
{
	return mi_malloc_aligned(BENCH_PAGE_SIZE << order, BENCH_PAGE_SIZE);
}

static inline void bench_free(void *blk, unsigned int order)
{
	(void)order;
	mi_free(blk);
}

/* Small objects: mi_malloc() and mi_free(). */
static inline void *bench_malloc(size_t size)
{
	return mi_malloc(size);
}

static inline void bench_mfree(void *p)
{
	mi_free(p);
}

#endif /* BENCH_ALLOC_MIMALLOC_H */
