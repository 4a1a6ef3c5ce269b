/*
 * bench.h - the host benchmark harness: what every allocator under test
 * provides, and what the harness gives the scenarios.
 *
 * One program is built per allocator (buddyboot's buddy at each
 * MAX_PAGE_ORDER, glibc, jemalloc, mimalloc) from the same scenario code, so
 * that each allocator is called directly, exactly as its users would link
 * it, and no two general-purpose allocators ever share a process.
 *
 * Results go to stdout, one tab-separated sample per line:
 *   allocator  scenario  variant  order  metric  rep  value
 * bench/report.py turns them into medians, ratios, tables and plots.
 */
#ifndef BENCH_BENCH_H
#define BENCH_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define BENCH_PAGE_SHIFT  12
#define BENCH_PAGE_SIZE	  (1UL << BENCH_PAGE_SHIFT)
/* Pages of address space a heap gets beyond what a scenario asks for: room
 * for the allocator's metadata, which it takes from the heap (128 MiB). */
#define BENCH_SLACK_PAGES (1UL << 15)

/*
 * The allocator under test: bench/alloc_*.c define this, and the matching
 * bench/alloc_*.h give the two hot calls as inline functions
 *   void *bench_alloc(unsigned int order);   NULL when out of memory
 *   void bench_free(void *blk, unsigned int order);
 * so that the timed loops pay no call through a pointer. Blocks are
 * 2^order pages, page aligned; nothing the harness does touches them.
 */
struct bench_allocator {
	const char *name;	/* "buddy", "glibc", ... */
	unsigned int max_order; /* largest order it is asked for */
	/* Make a fresh heap of at least @bytes; 0 or a negative errno. */
	int (*heap_init)(unsigned long bytes);
	/* Pages free in the heap, or -1 when the allocator cannot say. */
	long (*free_pages)(void);
	/* Free blocks of one order, or -1 when the allocator cannot say. */
	long (*free_blocks)(unsigned int order);
	/* The block's first byte: to check alignment and to sort by address. */
	uintptr_t (*address)(void *blk);
	/* Library and version, as found at run time, for the report. */
	void (*describe)(void (*emit)(const char *key, const char *value));
	/* Times its central lock was taken, or NULL (buddyboot's zone lock). */
	unsigned long (*lock_count)(void);
	/* Blocks moved per lock acquisition by its per-CPU caches, or NULL. */
	unsigned long (*cache_batch)(void);
	/* Turn its per-CPU caches off (emptied) or back on, or NULL: a fresh
	 * heap is made with them off, or a refill would split top-order
	 * blocks into more small blocks to take. */
	void (*caches)(bool on);
	/* Pages its small-object allocator holds (kmalloc's slabs and large
	 * blocks), or NULL: the workloads' "pages taken". */
	long (*object_pages)(void);
};

extern const struct bench_allocator bench_allocator;

/*
 * Options common to every scenario, from "key=value" arguments.
 * Each scenario documents which it reads.
 */
struct bench_opts {
	unsigned int reps;    /* timed repetitions (after a warm-up) */
	unsigned long iters;  /* operations per repetition */
	unsigned long blocks; /* blocks held at once */
	unsigned long pages;  /* pages of fragmented heap */
	unsigned long gib;    /* simulated RAM for the hand-off */
	unsigned long seed;   /* for the mixed workload */
	int order;	      /* one order, or -1 for all */
	bool used;	      /* pair: on a used (not fresh) heap */
	bool present;	      /* handoff: RAM resident beforehand */
	unsigned int threads; /* threads, workload: how many (workload: 0 is 2) */
	bool cross;	      /* threads: each block freed by another thread */
	bool control;	      /* threads: the control loop, no allocator */
	int pin;	      /* threads: BENCH_PIN_* */
	unsigned int nodes;   /* handoff, nodepair: NUMA nodes of the heap */
	const char *work;     /* workload: which one */
	bool memory;	      /* workload: measure memory, not time */
};

/* threads' pin=none|same|apart, in this order (main.c's pin_mode()). */
enum { BENCH_PIN_NONE, BENCH_PIN_SAME, BENCH_PIN_APART };

/* One tab-separated sample line on stdout. */
void bench_emit(const char *scenario, const char *variant, int order,
		const char *metric, unsigned int rep, double value);
void bench_emit_info(const char *key, const char *value);

/* bench_unpin - undo main()'s pinning: for scenarios with threads. */
void bench_unpin(void);

/* bench_die - print "bench: <message>" on stderr and exit 1. */
void bench_die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

static inline uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* splitmix64: a fixed seed gives the same workload to every allocator. */
static inline uint64_t bench_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * bench_keep - make @p look used, so that the compiler can neither drop an
 * allocation whose result is only freed nor move work across the timer.
 * Applied to every allocator alike.
 */
static inline void bench_keep(void *p)
{
	__asm__ volatile("" : : "r"(p) : "memory");
}

/* Resident set size of this process, in KiB (VmRSS). */
unsigned long bench_rss_kib(void);

/* A block and its address, for sorting blocks by address. */
struct bench_held {
	uintptr_t addr;
	void *blk;
};

/*
 * bench_fresh_heap - make a heap of at least @pages pages (the buddy's; a
 * no-op for the others) holding free blocks of the top order only.
 * Return: the free page count to come back to, or -1 when unknown.
 */
long bench_fresh_heap(unsigned long pages);
/* bench_check_restored - exit with a message if the heap leaked pages. */
void bench_check_restored(long expect, const char *scenario, int order);
/* bench_check_block - exit unless @blk is a page-aligned block. */
void bench_check_block(void *blk, unsigned int order, const char *scenario);
/* bench_sort_held - sort by address. */
void bench_sort_held(struct bench_held *h, unsigned long n);
/* Blocks per batch: @want, fewer (but 16 at least) past @page_budget pages. */
unsigned long bench_batch_blocks(unsigned long want, unsigned int order,
				 unsigned long page_budget);

/* Scenarios (bench/scenarios.c, bench/handoff.c). Each returns 0 or exits. */
int bench_pair(const struct bench_opts *o);
int bench_sweep(const struct bench_opts *o);
int bench_mixed(const struct bench_opts *o);
int bench_frag(const struct bench_opts *o);
int bench_handoff(const struct bench_opts *o);
/* Nodes and contiguous ranges (bench/numa.c, the buddy allocator only). */
int bench_nodepair(const struct bench_opts *o);
int bench_contig(const struct bench_opts *o);
int bench_threads(const struct bench_opts *o);	/* bench/threads.c */
int bench_zonelock(const struct bench_opts *o);
/* Small objects (bench/small.c): malloc+free pairs, the workloads. */
int bench_kpair(const struct bench_opts *o);
int bench_workload(const struct bench_opts *o);

#endif /* BENCH_BENCH_H */
