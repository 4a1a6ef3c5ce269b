/*
 * alloc_posix.h - the hot calls for glibc and jemalloc: posix_memalign()
 * with page alignment, and free(). Which library answers is decided by the
 * link (bench-jemalloc links -ljemalloc, whose posix_memalign and free take
 * over the process's); bench/alloc_posix.c checks it at run time.
 */
#ifndef BENCH_ALLOC_POSIX_H
#define BENCH_ALLOC_POSIX_H

#include <stdlib.h>
#include "bench.h"

static inline void *bench_alloc(unsigned int order)
{
	void *p;

	if (posix_memalign(&p, BENCH_PAGE_SIZE, BENCH_PAGE_SIZE << order))
		return NULL;
	return p;
}

static inline void bench_free(void *blk, unsigned int order)
{
	(void)order;
	free(blk);
}

/* Small objects: malloc() and free(), whichever library the link chose. */
static inline void *bench_malloc(size_t size)
{
	return malloc(size);
}

static inline void bench_mfree(void *p)
{
	free(p);
}

#endif /* BENCH_ALLOC_POSIX_H */
