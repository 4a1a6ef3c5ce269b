/*
 * seeds.c - the top-order bug patterns of the seed patches, run inside the
 * guest against the real allocator at this build's MAX_PAGE_ORDER.
 *
 * Each seed was an off-by-one at the largest order. Here each pattern is
 * written the fixed way and must reach the top order, exactly:
 *
 *   seed_top_order_size     floppy (004), genwqe (005), sparc (002): a
 *                           request of exactly PAGE_SIZE << MAX_PAGE_ORDER
 *                           bytes is accepted and allocated; one byte more
 *                           is refused by get_order() and alloc_pages(),
 *                           with no state change
 *   seed_order_mask         iommu-dma (008): GENMASK(MAX_PAGE_ORDER, 0)
 *                           lets the top order be chosen, and no higher
 *   seed_slab_order         slub calculate_order (007): the search up to
 *                           MAX_PAGE_ORDER finds it, and refuses beyond
 *   seed_fill_fallback      dm-crypt (010): alloc_pages_fill() starts at
 *                           MAX_PAGE_ORDER, and falls back order by order
 *                           when every top-order block is taken; it
 *                           succeeds or refuses (-ENOMEM, -ENOSPC) as the
 *                           free counts predict
 */
#include <arch/memory.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <selftest/selftest.h>
#include "buddy_check.h"

#define GENMASK(h, l)	((~0UL << (l)) & (~0UL >> (8 * sizeof(long) - 1 - (h))))
#define TOP_BYTES	(PAGE_SIZE << MAX_PAGE_ORDER)

static unsigned int fls_long(unsigned long x)
{
	return (unsigned int)(8 * sizeof(long) - 1) - __builtin_clzl(x);
}

SELFTEST(seed_top_order_size, STAGE_BUDDY + 1)
{
	struct buddy_counts before;
	int over = get_order(TOP_BYTES + 1);

	buddy_counts_take(&before);
	SELFTEST_EXPECT(get_order(TOP_BYTES) == MAX_PAGE_ORDER,
			"get_order(%lu) is %d, not MAX_PAGE_ORDER %d",
			TOP_BYTES, get_order(TOP_BYTES), MAX_PAGE_ORDER);
	SELFTEST_EXPECT(get_order(TOP_BYTES - 1) == MAX_PAGE_ORDER ||
			MAX_PAGE_ORDER == 0, "get_order(%lu) is %d",
			TOP_BYTES - 1, get_order(TOP_BYTES - 1));
	SELFTEST_EXPECT(over == MAX_PAGE_ORDER + 1, "get_order(%lu + 1) is "
			"%d, not MAX_PAGE_ORDER + 1", TOP_BYTES, over);
	SELFTEST_EXPECT(!alloc_pages(__GFP_NOWARN, (unsigned int)over),
			"alloc_pages(order %d) above MAX_PAGE_ORDER succeeded",
			over);
	SELFTEST_EXPECT(!__get_free_pages(__GFP_NOWARN | __GFP_ZERO,
					  (unsigned int)over),
			"__get_free_pages(order %d) succeeded", over);
	if (!buddy_restored(&before, "after the refused order"))
		return false;
	if (!before.blocks[MAX_PAGE_ORDER])
		return selftest_skip("boundaries checked; no top-order block "
				     "free to allocate");
	return order_allocatable((unsigned int)get_order(TOP_BYTES),
				 "exactly PAGE_SIZE << MAX_PAGE_ORDER bytes") &&
	       buddy_restored(&before, "after the top order");
}

/*
 * The allocation loop of iommu-dma: the largest order in @order_mask that
 * fits @count pages, then each smaller one. Return: the order it got, or
 * -1 with nothing allocated.
 */
static int alloc_by_mask(unsigned long order_mask, unsigned long count,
			 struct page **out)
{
	unsigned long order_size;

	order_mask &= GENMASK(MAX_PAGE_ORDER, 0);
	for (order_mask &= GENMASK(fls_long(count), 0); order_mask;
	     order_mask &= ~order_size) {
		unsigned int order = fls_long(order_mask);

		order_size = 1UL << order;
		*out = alloc_pages(__GFP_NOWARN, order);
		if (*out)
			return (int)order;
	}
	return -1;
}

SELFTEST(seed_order_mask, STAGE_BUDDY + 1)
{
	unsigned long mask = GENMASK(MAX_PAGE_ORDER, 0);
	struct buddy_counts before;
	struct page *page = NULL;
	int order;

	buddy_counts_take(&before);
	SELFTEST_EXPECT(__builtin_popcountl(mask) == NR_PAGE_ORDERS &&
			fls_long(mask) == MAX_PAGE_ORDER, "GENMASK(%d, 0) = "
			"%#lx does not cover orders 0..MAX_PAGE_ORDER",
			MAX_PAGE_ORDER, mask);
	if (!before.blocks[MAX_PAGE_ORDER])
		return selftest_skip("no top-order block free");
	/* Every bit set, as a device that takes any size: top order first. */
	order = alloc_by_mask(~0UL, 1UL << MAX_PAGE_ORDER, &page);
	SELFTEST_EXPECT(order == MAX_PAGE_ORDER, "the order mask chose order "
			"%d for %lu pages, not MAX_PAGE_ORDER %d", order,
			1UL << MAX_PAGE_ORDER, MAX_PAGE_ORDER);
	if (!block_placement_ok(page, (unsigned int)order)) {
		__free_pages(page, (unsigned int)order);
		return false;
	}
	__free_pages(page, (unsigned int)order);
	return buddy_restored(&before, "after the order mask");
}

/*
 * slub's calc_slab_order() and the last step of calculate_order(): the
 * smallest order from get_order(@size) up to @max_order whose slab
 * wastes no more than 1/@fract_leftover; beyond the top, -E2BIG (slub says -ENOSYS).
 */
static int slab_order(unsigned long size, unsigned int max_order,
		      unsigned int fract_leftover)
{
	unsigned int order = (unsigned int)get_order(size);

	for (; order <= max_order; order++) {
		unsigned long slab = PAGE_SIZE << order;

		if (slab >= size && slab % size <= slab / fract_leftover)
			break;
	}
	return order <= MAX_PAGE_ORDER ? (int)order : -E2BIG;
}

SELFTEST(seed_slab_order, STAGE_BUDDY + 1)
{
	struct buddy_counts before;
	int order = slab_order(TOP_BYTES, MAX_PAGE_ORDER, 1);
	int beyond = slab_order(TOP_BYTES + PAGE_SIZE, MAX_PAGE_ORDER, 1);

	buddy_counts_take(&before);
	SELFTEST_EXPECT(order == MAX_PAGE_ORDER, "an object of %lu bytes got "
			"slab order %d, not MAX_PAGE_ORDER %d", TOP_BYTES,
			order, MAX_PAGE_ORDER);
	SELFTEST_EXPECT(beyond == -E2BIG, "an object larger than the top "
			"order got slab order %d", beyond);
	if (!before.blocks[MAX_PAGE_ORDER])
		return selftest_skip("no top-order block free");
	return order_allocatable((unsigned int)order, "slab order") &&
	       buddy_restored(&before, "after the slab order");
}

static struct page_fill_block fill_blocks[2 * NR_PAGE_ORDERS];

/* Check a fill of TOP_BYTES: whole pages, orders never rising, all placed. */
static bool fill_is_sound(const struct page_fill *fill, bool top_allowed)
{
	unsigned int prev = MAX_PAGE_ORDER;

	SELFTEST_EXPECT(fill->nr_pages == MAX_BLOCK_PAGES, "the fill holds "
			"%lu pages for %lu bytes", fill->nr_pages, TOP_BYTES);
	for (unsigned int i = 0; i < fill->nr_blocks; i++) {
		unsigned int o = fill->blocks[i].order;

		SELFTEST_EXPECT(o <= prev, "block %u of the fill has order %u "
				"after order %u", i, o, prev);
		SELFTEST_EXPECT(top_allowed || o != MAX_PAGE_ORDER, "the fill "
				"got a top-order block while all were held");
		if (!block_placement_ok(fill->blocks[i].page, o))
			return false;
		prev = o;
	}
	return true;
}

/*
 * What alloc_pages_fill(@want pages, MAX_PAGE_ORDER) into @max_blocks slots
 * must answer from the free counts @c (every CPU's cache drained): 0,
 * -ENOMEM or -ENOSPC. Largest first, the order only going down: at order
 * o it takes as many blocks as the free pages in blocks of order >= o,
 * less what it already took (all of it from such blocks), and what is
 * left to fill allow. Whichever runs out first, memory or slots, decides
 * the refusal: a fragmented remainder can need more blocks than slots
 * before its pages run out.
 */
static int fill_predict(const struct buddy_counts *c, unsigned long want,
			unsigned int max_blocks)
{
	unsigned long taken = 0, blocks = 0;

	for (int o = MAX_PAGE_ORDER; o >= 0 && want; o--) {
		unsigned long avail = 0, n;

		for (unsigned int j = (unsigned int)o; j <= MAX_PAGE_ORDER; j++)
			avail += c->blocks[j] << j;
		n = MIN((avail - taken) >> o, want >> o);
		if (blocks + n > max_blocks)
			return -ENOSPC;
		blocks += n;
		taken += n << o;
		want -= n << o;
	}
	if (!want)
		return 0;
	return blocks == max_blocks ? -ENOSPC : -ENOMEM;
}

SELFTEST(seed_fill_fallback, STAGE_BUDDY + 1)
{
	struct page_fill fill = { fill_blocks, ARRAY_SIZE(fill_blocks), 0, 0 };
	struct block_chain held = { 0 };
	struct buddy_counts before, holding;
	struct page *page;
	bool ok;
	int err, want;

	buddy_counts_take(&before);
	if (!before.blocks[MAX_PAGE_ORDER])
		return selftest_skip("no top-order block free");
	err = alloc_pages_fill(GFP_KERNEL, TOP_BYTES, MAX_PAGE_ORDER, &fill);
	SELFTEST_EXPECT(!err, "alloc_pages_fill(%lu bytes) failed: %d",
			TOP_BYTES, err);
	ok = fill.nr_blocks == 1 && fill.blocks[0].order == MAX_PAGE_ORDER;
	ok = ok && fill_is_sound(&fill, true);
	free_pages_fill(&fill);
	SELFTEST_EXPECT(ok, "the fill used %u blocks, the first of order %u, "
			"not one block of MAX_PAGE_ORDER", fill.nr_blocks,
			fill_blocks[0].order);

	/* Hold every top-order block: the fill must fall back, or refuse. */
	while (nr_free_blocks(MAX_PAGE_ORDER) &&
	       (page = alloc_pages(GFP_KERNEL, MAX_PAGE_ORDER)))
		chain_push(&held, page_address(page));
	buddy_counts_take(&holding);
	want = fill_predict(&holding, MAX_BLOCK_PAGES, fill.max_blocks);
	err = alloc_pages_fill(GFP_KERNEL, TOP_BYTES, MAX_PAGE_ORDER, &fill);
	if (err != want) {
		ok = selftest_fail(__FILE__, __LINE__, "alloc_pages_fill "
				   "answered %d with %lu pages free, not %d",
				   err, holding.nr_free, want);
		if (!err)
			free_pages_fill(&fill);
	} else if (!err) {
		printk("# seed_fill_fallback: %u blocks, from order %u, with "
		       "%lu top-order blocks held\n", fill.nr_blocks,
		       fill_blocks[0].order, held.count);
		ok = fill_is_sound(&fill, false);
		free_pages_fill(&fill);
	} else {
		/* Refusing is right only when memory or slots run out. */
		printk("# seed_fill_fallback: refused (%d) as predicted, "
		       "%lu pages left\n", err, holding.nr_free);
	}
	ok = buddy_restored(&holding, "after the fallback fill") && ok;
	chain_free(&held, MAX_PAGE_ORDER);
	return buddy_restored(&before, "after the fill") && ok;
}
