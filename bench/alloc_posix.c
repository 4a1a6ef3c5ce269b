/*
 * alloc_posix.c - glibc, jemalloc and mimalloc as benchmark subjects.
 *
 * They manage their own memory, so there is no heap to make. Each program
 * checks, before measuring, that the allocation call it makes really lands
 * in the library it is named for: linking -ljemalloc replaces the process's
 * posix_memalign() and free(), and a link that silently dropped it would
 * otherwise measure glibc twice.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <gnu/libc-version.h>
#include "bench.h"

#if defined(BENCH_MIMALLOC)
#include <mimalloc.h>
#define ALLOC_CALL    ((void *)mi_malloc_aligned)
#define ALLOC_LIBRARY "libmimalloc.so"
#elif defined(BENCH_JEMALLOC)
#include <jemalloc/jemalloc.h>
#define ALLOC_CALL    ((void *)posix_memalign)
#define ALLOC_LIBRARY "libjemalloc.so"
#else
#include <stdlib.h>
#define ALLOC_CALL    ((void *)posix_memalign)
#define ALLOC_LIBRARY "libc.so"
#endif

static int posix_heap_init(unsigned long bytes)
{
	(void)bytes;
	return 0;
}

static long posix_free_pages(void)
{
	return -1;
}

static long posix_free_blocks(unsigned int order)
{
	(void)order;
	return -1;
}

static uintptr_t posix_address(void *blk)
{
	return (uintptr_t)blk;
}

static void posix_describe(void (*emit)(const char *key, const char *value))
{
	Dl_info info;

	if (!dladdr(ALLOC_CALL, &info) || !info.dli_fname ||
	    !strstr(info.dli_fname, ALLOC_LIBRARY))
		bench_die("the allocation call resolves to %s, not %s",
			  info.dli_fname ? info.dli_fname : "?", ALLOC_LIBRARY);
	emit("library", info.dli_fname);
#if defined(BENCH_MIMALLOC)
	char buf[32];

	snprintf(buf, sizeof(buf), "%d.%d.%d", mi_version() / 100,
		 mi_version() / 10 % 10, mi_version() % 10);
	emit("version", buf);
	emit("calls", "mi_malloc_aligned(size, 4096) / mi_free");
#elif defined(BENCH_JEMALLOC)
	const char *v = "?";
	size_t len = sizeof(v);

	mallctl("version", &v, &len, NULL, 0);
	emit("version", v);
	emit("calls", "posix_memalign(&p, 4096, size) / free");
#else
	emit("version", gnu_get_libc_version());
	emit("calls", "posix_memalign(&p, 4096, size) / free");
#endif
}

const struct bench_allocator bench_allocator = {
	.name = BENCH_NAME,
	.max_order = BENCH_GP_MAX_ORDER,
	.heap_init = posix_heap_init,
	.free_pages = posix_free_pages,
	.free_blocks = posix_free_blocks,
	.address = posix_address,
	.describe = posix_describe,
};

int bench_handoff(const struct bench_opts *o)
{
	(void)o;
	bench_die("handoff measures the buddy allocator's memblock_free_all()");
}

int bench_nodepair(const struct bench_opts *o)
{
	(void)o;
	bench_die("nodepair measures the buddy allocator's NUMA nodes");
}

int bench_contig(const struct bench_opts *o)
{
	(void)o;
	bench_die("contig measures the buddy allocator's alloc_contig_pages()");
}
