/*
 * scenarios.c - the timed workloads that every allocator runs alike.
 *
 *   pair   an alloc+free pair, over and over, at one order (order=n) or each
 *          (order=-1): on a fresh heap, or with heap=used on a heap where
 *          @blocks blocks of that order were allocated and every other one
 *          freed, so that a free block whose buddy is held is at hand;
 *   sweep  at each order (or at one, order=n): allocate @blocks blocks,
 *          then free them in the order they came (alloc and free timed
 *          apart);
 *   frag   the same sweep on a heap of which @pages order-0 pages were
 *          allocated and every other one (by address) freed again (also
 *          order=n);
 *
 * The mixed workload is in mixed.c and the buddy's hand-off in handoff.c.
 * Every repetition is timed as a whole batch with CLOCK_MONOTONIC, after
 * one untimed warm-up; every rep is reported, report.py takes the medians.
 */
#include <stdio.h>
#include <stdlib.h>
#include "adapter.h"

/* Each batch measurement holds at most this many pages (4 GiB). */
#define PAGE_BUDGET (1UL << 20)

/* Inline, so that no allocator pays a call of the benchmark's own. */
static inline __attribute__((always_inline)) void *
must_alloc(unsigned int order, const char *scenario)
{
	void *p = bench_alloc(order);

	if (!p)
		bench_die("%s: out of memory at order %u", scenario, order);
	bench_keep(p);
	return p;
}

/* Rounds of (allocate n, free n) making up one rep, at least @ops blocks. */
static unsigned long rounds_for(unsigned long ops, unsigned long n)
{
	return ops > n ? ops / n : 1;
}

/*
 * batches - time allocating @n blocks of @order and freeing them, @rounds
 * times per rep, and emit ns per alloc, per free and per pair.
 */
static void batches(const char *scenario, const char *variant,
		    unsigned int order, unsigned long n, unsigned long rounds,
		    unsigned int reps, void **blk)
{
	for (unsigned int rep = 0; rep <= reps; rep++) {
		uint64_t t_alloc = 0, t_free = 0;

		for (unsigned long r = 0; r < rounds; r++) {
			uint64_t t0 = bench_now_ns(), t1, t2;

			for (unsigned long i = 0; i < n; i++)
				blk[i] = must_alloc(order, scenario);
			t1 = bench_now_ns();
			for (unsigned long i = 0; i < n; i++)
				bench_free(blk[i], order);
			t2 = bench_now_ns();
			t_alloc += t1 - t0;
			t_free += t2 - t1;
			if (!rep && !r)
				for (unsigned long i = 0; i < n; i++)
					bench_check_block(blk[i], order,
							  scenario);
		}
		if (!rep)
			continue; /* the warm-up */
		bench_emit(scenario, variant, order, "alloc_ns", rep,
			   (double)t_alloc / (double)(n * rounds));
		bench_emit(scenario, variant, order, "free_ns", rep,
			   (double)t_free / (double)(n * rounds));
		bench_emit(scenario, variant, order, "pair_ns", rep,
			   (double)(t_alloc + t_free) / (double)(n * rounds));
	}
}

/* Allocate @n blocks of @order and free every other one by address. */
static struct bench_held *hold_every_other(unsigned long n, unsigned int order,
					   const char *scenario)
{
	struct bench_held *h = calloc(n, sizeof(*h));

	if (!h)
		bench_die("%s: no memory for %lu block records", scenario, n);
	for (unsigned long i = 0; i < n; i++) {
		h[i].blk = must_alloc(order, scenario);
		h[i].addr = bench_allocator.address(h[i].blk);
	}
	bench_sort_held(h, n);
	for (unsigned long i = 1; i < n; i += 2)
		bench_free(h[i].blk, order);
	return h;
}

static void release_held(struct bench_held *h, unsigned long n,
			 unsigned int order)
{
	for (unsigned long i = 0; i < n; i += 2)
		bench_free(h[i].blk, order);
	free(h);
}

static void pair_at(const struct bench_opts *o, unsigned int order, long base)
{
	const char *variant = o->used ? "used" : "fresh";
	unsigned long iters = o->iters >> order;
	struct bench_held *h = NULL;

	if (iters < 1000)
		iters = 1000;
	if (o->used)
		h = hold_every_other(o->blocks, order, "pair");
	for (unsigned int rep = 0; rep <= o->reps; rep++) {
		uint64_t t0 = bench_now_ns();

		for (unsigned long i = 0; i < iters; i++)
			bench_free(must_alloc(order, "pair"), order);
		if (rep)
			bench_emit("pair", variant, order, "pair_ns", rep,
				   (double)(bench_now_ns() - t0) /
					   (double)iters);
	}
	if (h)
		release_held(h, o->blocks, order);
	bench_check_restored(base, "pair", order);
}

/* The orders a scenario runs: order=n alone, or every one (order=-1). */
static void order_range(const struct bench_opts *o, unsigned int *lo,
			unsigned int *hi)
{
	*lo = o->order < 0 ? 0 : (unsigned int)o->order;
	*hi = o->order < 0 ? bench_allocator.max_order : *lo;
}

int bench_pair(const struct bench_opts *o)
{
	unsigned int lo, hi;
	long base;

	order_range(o, &lo, &hi);
	base = bench_fresh_heap((o->blocks + 2) << hi);

	for (unsigned int order = lo; order <= hi; order++)
		pair_at(o, order, base);
	return 0;
}

int bench_sweep(const struct bench_opts *o)
{
	unsigned long need = 0;
	unsigned int lo, hi;
	void **blk;
	long base;

	order_range(o, &lo, &hi);
	for (unsigned int order = lo; order <= hi; order++) {
		unsigned long n =
			bench_batch_blocks(o->blocks, order, PAGE_BUDGET);

		if ((n << order) > need)
			need = n << order;
	}
	base = bench_fresh_heap(need);
	blk = calloc(o->blocks, sizeof(*blk));
	if (!blk)
		bench_die("sweep: no memory for %lu pointers", o->blocks);
	for (unsigned int order = lo; order <= hi; order++) {
		unsigned long n =
			bench_batch_blocks(o->blocks, order, PAGE_BUDGET);

		batches("sweep", "clean", order, n, rounds_for(o->iters, n),
			o->reps, blk);
		bench_check_restored(base, "sweep", order);
	}
	free(blk);
	return 0;
}

int bench_frag(const struct bench_opts *o)
{
	unsigned long need = o->pages;
	struct bench_held *h;
	unsigned int lo, hi;
	char variant[32];
	void **blk;
	long base;

	order_range(o, &lo, &hi);
	for (unsigned int order = lo; order <= hi; order++) {
		unsigned long n =
			bench_batch_blocks(o->blocks, order, PAGE_BUDGET);

		if ((n << order) + o->pages > need)
			need = (n << order) + o->pages;
	}
	base = bench_fresh_heap(need);
	blk = calloc(o->blocks, sizeof(*blk));
	if (!blk)
		bench_die("frag: no memory for %lu pointers", o->blocks);
	snprintf(variant, sizeof(variant), "%lu", o->pages);
	h = hold_every_other(o->pages, 0, "frag");
	bench_emit("frag", variant, 0, "free_order0_blocks", 0,
		   (double)bench_allocator.free_blocks(0));
	for (unsigned int order = lo; order <= hi; order++) {
		unsigned long n =
			bench_batch_blocks(o->blocks, order, PAGE_BUDGET);

		batches("frag", variant, order, n, rounds_for(o->iters, n),
			o->reps, blk);
	}
	release_held(h, o->pages, 0);
	bench_check_restored(base, "frag", -1);
	free(blk);
	return 0;
}
