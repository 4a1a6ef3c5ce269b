/*
 * adapter.h - pick the hot calls of the allocator this program is built for
 * (one of BENCH_BUDDY, BENCH_MIMALLOC, or neither for glibc and jemalloc).
 */
#ifndef BENCH_ADAPTER_H
#define BENCH_ADAPTER_H

#include "bench.h"

#if defined(BENCH_BUDDY)
#include "alloc_buddy.h"
#elif defined(BENCH_MIMALLOC)
#include "alloc_mimalloc.h"
#else
#include "alloc_posix.h"
#endif

#endif /* BENCH_ADAPTER_H */
