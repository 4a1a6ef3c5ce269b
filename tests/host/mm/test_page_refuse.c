/*
 * test_page_refuse.c - bad frees are refused, reported with pfn and order,
 * and change nothing; the invariant checker sees every kind of broken
 * state; the fill helper (seed 010) uses the top order and falls back.
 */
#include <stdlib.h>
#include <string.h>
#include "machine.h"

/* Free @page at @order, expect refusal @err, the message, and no change. */
static bool refused(struct page *page, unsigned int order, int err,
		    unsigned long pfn, const char *why)
{
	struct snapshot base;
	char msg[128];
	int got;

	snapshot_take(&base);
	console_clear();
	got = free_pages_checked(page, order);
	snprintf(msg, sizeof(msg), "refused free of pfn %#lx order %u: %s",
		 pfn, order, why);
	EXPECT(got == err, "returned %d, expected %d", got, err);
	EXPECT(console_says(msg), "no \"%s\" on the console", msg);
	EXPECT(snapshot_same(&base) && snapshot_runs_same(&base), "state changed");
	snapshot_drop(&base);
	return true;
}

static bool refuse_double_free(void)
{
	struct page *p;

	if (!std_machine(2))
		return false;
	p = alloc_pages(0, 3);
	__free_pages(p, 3);
	/* Merged back into a top block: p heads it, so it reads "free". */
	EXPECT(refused(p, 3, FREE_REFUSED_DOUBLE_FREE, page_to_pfn(p),
		       "double free"), "head of a free block");
	EXPECT(refused(p + 8, 3, FREE_REFUSED_DOUBLE_FREE, page_to_pfn(p) + 8,
		       "double free (inside the free block"), "inside");
	EXPECT(refused(p, MAX_PAGE_ORDER, FREE_REFUSED_DOUBLE_FREE,
		       page_to_pfn(p), "double free"), "whole top block");
	return true;
}

/* The hand-off's deferred top-order blocks are free like any other. */
static bool refuse_free_of_deferred_block(void)
{
	struct zone *pa;
	struct page *p;

	if (!std_machine(2))
		return false;
	pa = only_zone();
	EXPECT(pa->nr_runs == 1 && pa->nr_deferred == 2, "two blocks deferred");
	p = pfn_to_page(pa->deferred[0].pfn);
	EXPECT(refused(p, MAX_PAGE_ORDER, FREE_REFUSED_DOUBLE_FREE,
		       page_to_pfn(p), "double free (free block of order"),
	       "deferred head");
	EXPECT(refused(p, 0, FREE_REFUSED_DOUBLE_FREE, page_to_pfn(p),
		       "double free"), "deferred head at order 0");
	EXPECT(refused(p + 8, 3, FREE_REFUSED_DOUBLE_FREE, page_to_pfn(p) + 8,
		       "double free (inside the free block"), "inside");
	EXPECT(refused(p + TOP_PAGES, MAX_PAGE_ORDER, FREE_REFUSED_DOUBLE_FREE,
		       page_to_pfn(p) + TOP_PAGES, "double free"), "second");
	return true;
}

static bool refuse_wrong_order(void)
{
	struct page *p;

	if (!std_machine(2))
		return false;
	p = alloc_pages(0, 2);
	EXPECT(refused(p, 1, FREE_REFUSED_WRONG_ORDER, page_to_pfn(p),
		       "wrong order (allocated at order 2)"), "smaller");
	EXPECT(refused(p, 3, FREE_REFUSED_WRONG_ORDER, page_to_pfn(p),
		       "wrong order (allocated at order 2)"), "larger");
	EXPECT(free_pages_checked(p, 2) == 0, "the right order works");
	return true;
}

static bool refuse_misaligned_and_inside(void)
{
	struct page *p;

	if (!std_machine(2))
		return false;
	p = alloc_pages(0, 2);
	EXPECT(refused(p + 1, 1, FREE_REFUSED_MISALIGNED, page_to_pfn(p) + 1,
		       "misaligned"), "odd pfn at order 1");
	EXPECT(refused(p + 2, 1, FREE_REFUSED_NOT_BLOCK_START,
		       page_to_pfn(p) + 2, "not the first page of a block"),
	       "inside an allocated block");
	console_clear();
	free_pages((unsigned long)page_address(p) + 16, 2);
	EXPECT(console_says("misaligned (address"), "unaligned address");
	EXPECT(page_alloc_check() == 0 && p->state == (PG_ALLOC | 2), "kept");
	return true;
}

static bool refuse_reserved_page(void)
{
	struct page *meta;

	if (!std_machine(1))
		return false;
	/* The metadata is reserved: its own first page is a good target. */
	meta = virt_to_page(page_allocator.parts[0].map);
	EXPECT(meta && meta->state == PG_RESERVED, "metadata reserved");
	EXPECT(refused(meta, 0, FREE_REFUSED_RESERVED, page_to_pfn(meta),
		       "reserved page"), "reserved");
	return true;
}

static bool refuse_out_of_range_and_bad_order(void)
{
	struct page *p;
	char buf[PAGE_SIZE * 2];
	struct page bogus;
	unsigned long far;

	if (!std_machine(1))
		return false;
	p = alloc_pages(0, MAX_PAGE_ORDER);
	EXPECT(refused(p, MAX_PAGE_ORDER + 1, FREE_REFUSED_BAD_ORDER,
		       page_to_pfn(p), "order above MAX_PAGE_ORDER"), "order");
	EXPECT(free_pages_checked(NULL, 0) == FREE_REFUSED_OUT_OF_RANGE, "NULL");
	EXPECT(free_pages_checked(&bogus, 0) == FREE_REFUSED_OUT_OF_RANGE,
	       "not a page of ours");
	console_clear();
	far = (unsigned long)(((uintptr_t)buf + PAGE_SIZE) & PAGE_MASK);
	free_pages(far, 0);
	EXPECT(console_says("order 0: out of range"), "host stack page");
	EXPECT(p->state == (PG_ALLOC | MAX_PAGE_ORDER), "unchanged");
	__free_pages(p, MAX_PAGE_ORDER);
	EXPECT_SOUND();
	return true;
}

/* Break the state by hand, one way at a time: the checker must notice. */
static bool checker_sees_every_broken_invariant(void)
{
	struct zone *pa;
	struct page *p, *q;
	struct free_block *node;
	unsigned int o;
	uint8_t saved;

	if (!std_machine(2))
		return false;
	pa = only_zone();
	EXPECT_SOUND();
	/* The buddy lists' own invariants: blocks straight from them. */
	zone_pcp_disable();

	p = alloc_pages(0, 3);
	saved = p[1].state;
	p[1].state = PG_ALLOC | 0;			/* two states */
	EXPECT(page_alloc_check() > 0 && console_says("in two states"), "two");
	p[1].state = saved;
	console_clear();
	p->state = PG_TAIL;				/* orphan tails */
	EXPECT(page_alloc_check() > 0 && console_says("in no state"), "none");
	p->state = 0x3f;				/* nonsense */
	EXPECT(page_alloc_check() > 0 && console_says("encodes nothing"), "bad");
	p->state = PG_ALLOC | 3;
	EXPECT_SOUND();

	pa->free_area[MAX_PAGE_ORDER].nr_free++;	/* counts */
	EXPECT(page_alloc_check() > 0 && console_says("nr_free says") &&
	       console_says("nr_free_pages() says"), "count");
	pa->free_area[MAX_PAGE_ORDER].nr_free--;
	page_allocator.nr_managed++;
	console_clear();
	EXPECT(page_alloc_check() > 0 && console_says("managed"), "managed");
	page_allocator.nr_managed--;
	EXPECT_SOUND();

	/* Two order-0 buddies put on the list without merging. */
	__free_pages(p, 3);
	p = alloc_pages(0, 0);
	q = alloc_pages(0, 0);
	EXPECT((page_to_pfn(p) ^ page_to_pfn(q)) == 1, "buddies");
	p->state = PG_FREE | 0;
	q->state = PG_FREE | 0;
	free_area_add(pa, 0, p);
	free_area_add(pa, 0, q);
	console_clear();
	EXPECT(page_alloc_check() > 0 && console_says("left unmerged"), "merge");
	free_area_del(pa, 0, p);
	free_area_del(pa, 0, q);
	p->state = q->state = PG_ALLOC | 0;
	EXPECT_SOUND();

	/* A misaligned block: order 1 at an odd pfn. */
	q = (page_to_pfn(p) & 1) ? p : q;
	q->state = PG_ALLOC | 1;
	console_clear();
	EXPECT(page_alloc_check() > 0 && console_says("not naturally aligned"),
	       "alignment");
	q->state = PG_ALLOC | 0;
	EXPECT_SOUND();

	/* Tables that no longer describe the map. */
	page_allocator.parts[0].chunk_nr[0]++;
	console_clear();
	EXPECT(page_alloc_check() > 0 && console_says("chunk table disagrees"),
	       "chunk table");
	page_allocator.parts[0].chunk_nr[0]--;
	page_allocator.sections[0].lo += MAP_CHUNK_PAGES;
	console_clear();
	EXPECT(page_alloc_check() > 0 && console_says("section tables disagree"),
	       "section table");
	page_allocator.sections[0].lo -= MAP_CHUNK_PAGES;
	EXPECT_SOUND();

	/* Deferred runs that no longer match the map. */
	EXPECT(pa->nr_runs == 1 && pa->nr_deferred == 1, "one block deferred");
	pa->deferred[0].nr++;
	console_clear();
	EXPECT(page_alloc_check() > 0 && console_says("deferred runs hold"),
	       "run length");
	pa->deferred[0].nr--;
	pa->deferred[0].pfn++;
	console_clear();
	EXPECT(page_alloc_check() > 0 && console_says("misaligned"), "run");
	pa->deferred[0].pfn--;
	EXPECT_SOUND();

	/* A write into free memory: into the first block on a list. */
	for (o = 0; pa->free_area[o].list.next == &pa->free_area[o].list; o++)
		EXPECT(o < MAX_PAGE_ORDER, "no block on any list");
	node = pa->free_area[o].list.next;
	node->check ^= 1;
	console_clear();
	EXPECT(page_alloc_check() > 0 && console_says("corrupt"), "free memory");
	node->check ^= 1;
	EXPECT_SOUND();
	node->page++;					/* names another page */
	console_clear();
	EXPECT(page_alloc_check() > 0 && console_says("corrupt"), "node page");
	node->page--;
	EXPECT_SOUND();
	return true;
}

/* seed 010: the fewest blocks, starting at the top order. */
static bool fill_uses_top_order_first(void)
{
	struct page_fill_block blocks[8];
	struct page_fill fill = { .blocks = blocks, .max_blocks = 8 };
	unsigned long before;

	if (!std_machine(2))
		return false;
	before = nr_free_pages();
	EXPECT(alloc_pages_fill(0, TOP_BYTES + 3 * PAGE_SIZE + 1, MAX_PAGE_ORDER,
				&fill) == 0, "fill");
	EXPECT(fill.nr_blocks == 2 && blocks[0].order == MAX_PAGE_ORDER &&
	       blocks[1].order == 2, "%u blocks, first order %u", fill.nr_blocks,
	       blocks[0].order);
	EXPECT(fill.nr_pages == TOP_PAGES + 4, "pages");
	EXPECT_SOUND();
	free_pages_fill(&fill);
	EXPECT(fill.nr_blocks == 0 && nr_free_pages() == before, "freed");
	EXPECT(alloc_pages_fill(0, 5 * PAGE_SIZE, 99, &fill) == 0 &&
	       fill.nr_blocks == 2, "max_order clamps to MAX_PAGE_ORDER");
	free_pages_fill(&fill);
	EXPECT(alloc_pages_fill(0, 0, MAX_PAGE_ORDER, &fill) == 0 &&
	       fill.nr_blocks == 0, "nothing to fill");
	return true;
}

/* No top block left: fall back one order at a time. */
static bool fill_falls_back_order_by_order(void)
{
	/* Falling back through every order needs one block per order. */
	struct page_fill_block blocks[NR_PAGE_ORDERS];
	struct page_fill fill = { .blocks = blocks, .max_blocks = NR_PAGE_ORDERS };
	struct page *top;

	if (!std_machine(2))
		return false;
	top = alloc_pages(0, MAX_PAGE_ORDER);
	/* The other top block, split: one page taken out of it. */
	EXPECT(alloc_pages(0, 0), "split");
	EXPECT(alloc_pages_fill(0, TOP_BYTES, MAX_PAGE_ORDER, &fill) == -ENOMEM,
	       "not enough left");
	EXPECT(fill.nr_blocks == 0, "nothing kept");
	EXPECT(nr_free_pages() == TOP_PAGES - 1, "nothing leaked");
	EXPECT(alloc_pages_fill(0, TOP_BYTES / 2, MAX_PAGE_ORDER, &fill) == 0,
	       "half fits");
	EXPECT(fill.nr_blocks == 1 && blocks[0].order + 1 == MAX_PAGE_ORDER,
	       "one block of the next order down");
	free_pages_fill(&fill);
	__free_pages(top, MAX_PAGE_ORDER);
	EXPECT_SOUND();
	return true;
}

static bool fill_refuses_when_out_of_slots(void)
{
	struct page_fill_block blocks[2];
	struct page_fill fill = { .blocks = blocks, .max_blocks = 2 };
	unsigned long before;

	if (!std_machine(1))
		return false;
	before = nr_free_pages();
	EXPECT(alloc_pages_fill(0, 7 * PAGE_SIZE, MAX_PAGE_ORDER, &fill) ==
	       -ENOSPC, "three blocks needed");
	EXPECT(fill.nr_blocks == 0 && nr_free_pages() == before, "freed");
	EXPECT_SOUND();
	return true;
}

static const struct host_test tests[] = {
	HOST_TEST(refuse_double_free),
	HOST_TEST(refuse_free_of_deferred_block),
	HOST_TEST(refuse_wrong_order),
	HOST_TEST(refuse_misaligned_and_inside),
	HOST_TEST(refuse_reserved_page),
	HOST_TEST(refuse_out_of_range_and_bad_order),
	HOST_TEST(checker_sees_every_broken_invariant),
	HOST_TEST(fill_uses_top_order_first),
	HOST_TEST(fill_falls_back_order_by_order),
	HOST_TEST(fill_refuses_when_out_of_slots),
};

int main(void)
{
	return host_test_main(tests, sizeof(tests) / sizeof(tests[0]));
}
