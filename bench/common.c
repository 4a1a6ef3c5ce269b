/*
 * common.c - the checks and bookkeeping shared by all scenarios, kept out
 * of the timed loops.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <unistd.h>
#include <stdlib.h>
#include "adapter.h"

/*
 * The hand-off cuts each free range into the largest aligned blocks, so the
 * ends of a range leave a few smaller ones. They are allocated here and kept
 * for the life of the process, so that every scenario starts from a heap of
 * top-order blocks only and does the same work in every run.
 */
static void keep_only_top_blocks(void)
{
	unsigned int max = bench_allocator.max_order;

	if (bench_allocator.caches)
		bench_allocator.caches(false);
	for (unsigned int order = 0; order < max; order++)
		while (bench_allocator.free_blocks(order) > 0)
			if (!bench_alloc(order))
				bench_die("order %u is listed free but cannot "
					  "be allocated",
					  order);
	if (bench_allocator.caches)
		bench_allocator.caches(true);
}

long bench_fresh_heap(unsigned long pages)
{
	unsigned int max = bench_allocator.max_order;
	int err;

	/* Two top-order blocks more than asked, and the allocator's own. */
	pages += (2UL << max) + BENCH_SLACK_PAGES;
	err = bench_allocator.heap_init(pages * BENCH_PAGE_SIZE);
	if (err)
		bench_die("cannot make a heap of %lu pages (error %d)", pages,
			  err);
	keep_only_top_blocks();
	return bench_allocator.free_pages();
}

void bench_check_restored(long expect, const char *scenario, int order)
{
	long now = bench_allocator.free_pages();

	if (now != expect)
		bench_die(
			"%s (order %d): %ld free pages afterwards, %ld before",
			scenario, order, now, expect);
}

void bench_check_block(void *blk, unsigned int order, const char *scenario)
{
	if (bench_allocator.address(blk) & (BENCH_PAGE_SIZE - 1))
		bench_die("%s: a block of order %u is not page aligned",
			  scenario, order);
}

static int by_address(const void *a, const void *b)
{
	uintptr_t x = ((const struct bench_held *)a)->addr;
	uintptr_t y = ((const struct bench_held *)b)->addr;

	return x < y ? -1 : x > y;
}

void bench_sort_held(struct bench_held *h, unsigned long n)
{
	qsort(h, n, sizeof(*h), by_address);
}

unsigned long bench_batch_blocks(unsigned long want, unsigned int order,
				 unsigned long page_budget)
{
	unsigned long fit = page_budget >> order;

	if (fit < 16)
		fit = 16;
	return want < fit ? want : fit;
}

void bench_unpin(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	for (long c = 0; c < sysconf(_SC_NPROCESSORS_ONLN); c++)
		CPU_SET(c, &set);
	sched_setaffinity(0, sizeof(set), &set);
}
