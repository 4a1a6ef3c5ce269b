/*
 * buddy_orders.c - every order, 0..MAX_PAGE_ORDER inclusive, on the real
 * allocator with the machine's real memory.
 *
 *   buddy_alloc_one_order_N   one block: natural alignment, inside usable
 *                             memory and outside every reservation, a
 *                             pattern over the whole block read back,
 *                             __GFP_ZERO zeroes the whole (dirtied) block
 *   buddy_exhaust_order_N     blocks until refused: exactly as many as
 *                             the per-order free counts predicted, every
 *                             one placed correctly, then all freed
 *
 * Each ends with buddy_restored(): nr_free_pages() and every per-order
 * count back to where they were, page_alloc_check() clean, and the top
 * order allocatable again. An order with no free block in this much memory
 * is first shown to be refused, then reported as a skip, not a pass.
 */
#include <arch/memory.h>
#include <lib/printk.h>
#include <selftest/selftest.h>
#include "buddy_check.h"

/* "after order N", for the messages of buddy_restored(). */
static const char *after_order(unsigned int order)
{
	static char when[32];

	ksnprintf(when, sizeof(when), "after order %u", order);
	return when;
}

/* Nothing of @order is free: alloc_pages() must refuse and change nothing. */
static bool none_of_order(const struct buddy_counts *before,
			  unsigned int order)
{
	struct page *page = alloc_pages(__GFP_NOWARN, order);

	if (page) {
		__free_pages(page, order);
		return selftest_fail(__FILE__, __LINE__, "alloc_pages(order "
				     "%u) gave pfn %#lx although the free "
				     "counts hold no such block", order,
				     page_to_pfn(page));
	}
	if (!buddy_restored(before, after_order(order)))
		return false;
	return selftest_skip("no free block of order %u in %lu free pages",
			     order, before->nr_free);
}

static bool whole_block_zero(const void *p, unsigned int order)
{
	const uint64_t *w = p;

	for (size_t i = 0; i < (PAGE_SIZE << order) / 8; i++)
		if (w[i])
			return selftest_fail(__FILE__, __LINE__, "__GFP_ZERO "
					     "block of order %u: word %zu "
					     "(byte %#zx) is %#llx", order, i,
					     i * 8, (unsigned long long)w[i]);
	return true;
}

SELFTEST_PER_ORDER(buddy_alloc_one, STAGE_BUDDY)
{
	unsigned int order = instance;
	size_t bytes = PAGE_SIZE << order;
	struct buddy_counts before;
	struct page *page, *zeroed;
	uint64_t seed;
	long bad;
	void *p;

	buddy_counts_take(&before);
	if (!buddy_counts_predict(&before, order))
		return none_of_order(&before, order);

	page = alloc_pages(GFP_KERNEL, order);
	SELFTEST_EXPECT(page, "alloc_pages(order %u) failed with %lu pages "
			"free", order, before.nr_free);
	p = page_address(page);
	seed = page_to_pfn(page) ^ ((uint64_t)order << 56);
	if (!block_placement_ok(page, order)) {
		__free_pages(page, order);
		return false;
	}
	pattern_fill(p, bytes, seed);
	bad = pattern_mismatch(p, bytes, seed);
	__free_pages(page, order);
	SELFTEST_EXPECT(bad < 0, "block pfn %#lx order %u: word %ld reads "
			"back wrong", page_to_pfn(page), order, bad);

	/*
	 * The same state gives back the same block, now dirty: __GFP_ZERO
	 * must clear all of it, not only its first page.
	 */
	zeroed = alloc_pages(__GFP_ZERO, order);
	SELFTEST_EXPECT(zeroed, "alloc_pages(__GFP_ZERO, order %u) failed",
			order);
	if (zeroed != page)
		printk("# buddy_alloc_one: the __GFP_ZERO block is pfn %#lx, "
		       "not the dirtied pfn %#lx\n", page_to_pfn(zeroed),
		       page_to_pfn(page));
	if (!whole_block_zero(page_address(zeroed), order) ||
	    !block_placement_ok(zeroed, order)) {
		__free_pages(zeroed, order);
		return false;
	}
	__free_pages(zeroed, order);
	return buddy_restored(&before, after_order(order));
}

SELFTEST_PER_ORDER(buddy_exhaust, STAGE_BUDDY)
{
	unsigned int order = instance;
	struct block_chain chain = { 0 };
	struct buddy_counts before;
	unsigned long predicted, misplaced = 0, left;
	struct page *page;
	bool ok = true;

	buddy_counts_take(&before);
	predicted = buddy_counts_predict(&before, order);
	if (!predicted)
		return none_of_order(&before, order);

	while ((page = alloc_pages(__GFP_NOWARN, order))) {
		/* Report the first few; keep going to free them all. */
		if (misplaced < 4 && !block_placement_ok(page, order))
			misplaced++;
		chain_push(&chain, page_address(page));
	}
	left = nr_free_pages();
	if (chain.count != predicted)
		ok = selftest_fail(__FILE__, __LINE__, "%lu blocks of order %u "
				   "allocated, %lu predicted by the free "
				   "counts", chain.count, order, predicted);
	if (left != before.nr_free - (predicted << order))
		ok = selftest_fail(__FILE__, __LINE__, "%lu pages left free, "
				   "expected %lu", left,
				   before.nr_free - (predicted << order));
	for (unsigned int j = order; j <= MAX_PAGE_ORDER; j++)
		if (nr_free_blocks(j))
			ok = selftest_fail(__FILE__, __LINE__, "order %u "
					   "refused with %lu free blocks of "
					   "order %u", order,
					   nr_free_blocks(j), j);
	chain_free(&chain, order);
	ok = !misplaced && ok;
	return buddy_restored(&before, after_order(order)) && ok;
}
